import { Alert, Badge, Group, Stack, Table, Text, Title } from '@mantine/core';
import { query } from '../api/api-client';
import type { Explanation, FieldHistory } from '../api/api-types';
import { StatusView } from '../api/status-view';
import { timeText } from '../api/time-text';
import { useApi } from '../api/use-api';
import { identityKey } from '../managers/identity-key';
import { ManagerChip } from '../managers/manager-chip';
import { valueText } from '../object/field-tree';
import { CopyText } from './copy-text';

/** One field: its owners and values over time, and the explain answer with every remedy. */
export function FieldPanel({ id, path, at, version }: { id: string; path: string; at: string | null; version: string }) {
  const q = query({ path, at });
  const history = useApi<FieldHistory>(`/v1/objects/${id}/fields/history${q}`, version);
  const explain = useApi<Explanation>(`/v1/objects/${id}/explain${q}`, version);
  return (
    <Stack aria-label={`Field ${path}`} component="section">
      <Title order={3}>Field <code>{path}</code></Title>
      <StatusView loading={explain.loading && !explain.data} error={explain.error} />
      {explain.data && <ExplainView x={explain.data} />}
      <Title order={4}>Owners and values over time</Title>
      <StatusView loading={history.loading && !history.data} error={history.error} />
      {history.data && <HistoryTable h={history.data} />}
    </Stack>
  );
}

function ExplainView({ x }: { x: Explanation }) {
  return (
    <Stack gap="xs" aria-label="Explanation" component="section">
      <Title order={4}>Why {x.present ? 'it is there' : 'it is gone'}</Title>
      <Group gap="xs">
        {x.causes.map((c) => <Badge key={c} variant={c === x.cause ? 'filled' : 'light'} tt="none">{c}</Badge>)}
      </Group>
      <Alert color={x.present ? 'blue' : 'gray'} title="Cause">{x.message}</Alert>
      {x.releasedBy && (
        <Group gap="xs"><Text size="sm">Released by</Text><ManagerChip owner={x.releasedBy} /><Text size="sm">{x.releasedBy.at && timeText(x.releasedBy.at)} {x.releasedBy.seq ? `(#${x.releasedBy.seq})` : ''}</Text></Group>
      )}
      <Group gap="xs">
        <Text size="sm">Remaining owners:</Text>
        {x.remainingOwners.length === 0 ? <Text size="sm">none</Text> : x.remainingOwners.map((o) => <ManagerChip key={identityKey(o)} owner={o} />)}
      </Group>
      {x.notes.map((n, i) => <Text key={`${n.code}-${i}`} size="sm" c="dimmed">{n.message}</Text>)}
      <Title order={4}>Remedies</Title>
      {x.remedies.length === 0 && <Text size="sm">None needed.</Text>}
      <ol style={{ paddingLeft: 20, margin: 0 }} aria-label="Remedies">
        {x.remedies.map((r) => (
          <li key={r.kind} style={{ marginBottom: 12 }}>
            <Text fw={600}>{r.kind}</Text>
            <Text size="sm">{r.summary}</Text>
            {r.warning && <Text size="sm" c="orange.8">Warning: {r.warning}</Text>}
            {r.commands.length > 0
              ? r.commands.map((c, i) => <CopyText key={i} text={c} label={`${r.kind} command${r.commands.length > 1 ? ` ${i + 1}` : ''}`} />)
              : r.command && <CopyText text={r.command} label={`${r.kind} command`} />}
            {r.patch && <CopyText text={JSON.stringify(r.patch, null, 2)} label={`${r.kind} JSON patch`} />}
          </li>
        ))}
      </ol>
    </Stack>
  );
}

function HistoryTable({ h }: { h: FieldHistory }) {
  const valueAt = new Map(h.values.map((v) => [v.seq, v]));
  return (
    <Table.ScrollContainer minWidth={600}>
      <Table striped aria-label="Field history">
        <Table.Thead><Table.Tr><Table.Th>When</Table.Th><Table.Th>Transition</Table.Th><Table.Th>Owners after</Table.Th><Table.Th>Value</Table.Th></Table.Tr></Table.Thead>
        <Table.Tbody>
          {h.transitions.map((t) => {
            const v = valueAt.get(t.seq);
            return (
              <Table.Tr key={`${t.seq}-${t.manager}-${t.type}`}>
                <Table.Td>#{t.seq} {timeText(t.at)}</Table.Td>
                <Table.Td><Group gap={4}><Text size="sm">{t.type}</Text><ManagerChip owner={t} />{t.reconstructed && <Badge size="xs">reconstructed</Badge>}{t.notes.map((n) => <Badge key={n} size="xs" color="orange">{n}</Badge>)}</Group></Table.Td>
                <Table.Td><Group gap={4}>{t.owners.map((o) => <ManagerChip key={identityKey(o)} owner={o} />)}</Group></Table.Td>
                <Table.Td>{v ? (v.present ? <code>{valueText(v.value)}</code> : <em>absent</em>) : ''}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
