import { Alert, Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { query } from '../api/api-client';
import type { ManagerFields, ManagerSummary, Page } from '../api/api-types';
import { StatusView } from '../api/status-view';
import { useApi } from '../api/use-api';
import { entryKey } from '../managers/identity-key';
import { ManagerChip } from '../managers/manager-chip';
import { Link } from '../routing/link';
import { href, navigate, withParams } from '../routing/route';
import { objectLabel } from './find.page';

/**
 * Every manager with its identities and counts; one manager's fields, filtered by cluster, kind and
 * namespace. Both as of `at=` (a sequence or a time) when the URL gives one.
 */
export default function ManagersPage({ params }: { params: URLSearchParams }) {
  const selected = params.get('manager');
  const at = params.get('at');
  const managers = useApi<Page<ManagerSummary>>(`/v1/managers${query({ at, limit: 500 })}`);
  return (
    <Stack>
      <Title order={2}>Managers</Title>
      {at !== null && <Alert color="yellow" py={4}>Showing the managers as of {/^\d+$/.test(at) ? `event #${at}` : at}. <Link to={withParams({ at: null })}>Back to now</Link></Alert>}
      <StatusView loading={managers.loading} error={managers.error} />
      {managers.data && (
        <Table.ScrollContainer minWidth={500}>
          <Table striped aria-label="Managers">
            <Table.Thead><Table.Tr><Table.Th>Manager</Table.Th><Table.Th>Identities</Table.Th><Table.Th>Objects</Table.Th><Table.Th>Fields</Table.Th></Table.Tr></Table.Thead>
            <Table.Tbody>
              {managers.data.items.map((m) => (
                <Table.Tr key={m.manager}>
                  <Table.Td><Link to={href('/managers', { manager: m.manager, at })}>{m.manager}</Link></Table.Td>
                  <Table.Td><Group gap={4}>{m.identities.map((i) => {
                    const owner = { manager: m.manager, ...i };
                    return <ManagerChip key={entryKey(owner)} owner={owner} />;
                  })}</Group></Table.Td>
                  <Table.Td>{m.objectCount}</Table.Td>
                  <Table.Td>{m.fieldCount}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {selected && <ManagerFieldsView manager={selected} params={params} />}
    </Stack>
  );
}

function ManagerFieldsView({ manager, params }: { manager: string; params: URLSearchParams }) {
  const [form, setForm] = useState({ cluster: params.get('cluster') ?? '', kind: params.get('kind') ?? '', namespace: params.get('namespace') ?? '' });
  const at = params.get('at');
  const fields = useApi<Page<ManagerFields>>(`/v1/managers/${encodeURIComponent(manager)}/fields${query({ cluster: params.get('cluster'), kind: params.get('kind'), namespace: params.get('namespace'), at, limit: 500 })}`);
  // The object page's slider steps through event sequences: a sequence carries over, a time does not.
  const objectAt = at !== null && /^\d+$/.test(at) ? at : null;
  return (
    <Stack component="section" aria-label={`Fields of ${manager}`}>
      <Title order={3}>Fields of {manager}</Title>
      <form aria-label="Filter fields" onSubmit={(e) => { e.preventDefault(); navigate(withParams(form)); }}>
        <Group align="end" wrap="wrap">
          {(['cluster', 'kind', 'namespace'] as const).map((f) => (
            <TextInput key={f} label={f[0]!.toUpperCase() + f.slice(1)} value={form[f]} onChange={(e) => setForm({ ...form, [f]: e.currentTarget.value })} />
          ))}
          <Button type="submit">Filter</Button>
        </Group>
      </form>
      <StatusView loading={fields.loading} error={fields.error} />
      {fields.data?.items.length === 0 && <Text>No fields.</Text>}
      {fields.data?.items.map((o) => (
        <div key={o.object.id}>
          <Link to={href(`/objects/${o.object.id}`, { at: objectAt })}>{objectLabel(o.object)}</Link> <Text span size="sm" c="dimmed">{o.object.cluster}</Text>
          <ul>{o.fields.map((f) => <li key={`${f.path}-${f.operation}-${f.subresource}`}><Link to={href(`/objects/${o.object.id}`, { path: f.path, at: objectAt })}><code>{f.path}</code></Link> ({f.operation}{f.subresource ? `/${f.subresource}` : ''})</li>)}</ul>
        </div>
      ))}
    </Stack>
  );
}
