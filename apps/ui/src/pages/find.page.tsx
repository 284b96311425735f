import { Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { compareSeq } from '../../../../libs/audit/src/seq.util';
import { apiCall, query } from '../api/api-client';
import type { Finding, Page, TrackedObject, Transition } from '../api/api-types';
import { StatusView } from '../api/status-view';
import { timeText } from '../api/time-text';
import { useApi, useLoaded } from '../api/use-api';
import { identityKey } from '../managers/identity-key';
import { ManagerChip } from '../managers/manager-chip';
import { Link } from '../routing/link';
import { href, navigate } from '../routing/route';

const FILTERS = ['cluster', 'kind', 'namespace', 'name', 'manager'] as const;

export const objectLabel = (o: Pick<TrackedObject, 'kind' | 'namespace' | 'name'>) => `${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name}`;

/** An object's `group/version` (`version` alone for the core group), as its manifest's apiVersion. */
export const apiVersionText = (o: Pick<TrackedObject, 'group' | 'version'>) => (o.group ? `${o.group}/${o.version}` : o.version);

/** The most recently changed objects first. */
const byLastChange = (a: TrackedObject, b: TrackedObject) => (b.lastAt ?? '').localeCompare(a.lastAt ?? '');

/** Landing page: find objects by cluster, kind, namespace, name and manager; what changed lately. */
export function FindPage({ params }: { params: URLSearchParams }) {
  const [form, setForm] = useState(() => Object.fromEntries(FILTERS.map((f) => [f, params.get(f) ?? ''])) as Record<(typeof FILTERS)[number], string>);
  const filters = Object.fromEntries(FILTERS.map((f) => [f, params.get(f)]));
  const cursor = params.get('cursor');
  const objects = useApi<Page<TrackedObject>>(`/v1/objects${query({ ...filters, cursor, limit: 100 })}`);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    navigate(href('/', form));
  };
  return (
    <Stack>
      <Title order={2}>Find objects</Title>
      <form onSubmit={submit} aria-label="Find objects">
        <Group align="end" wrap="wrap">
          {FILTERS.map((f) => (
            <TextInput key={f} label={f[0]!.toUpperCase() + f.slice(1)} value={form[f]} w={170}
              onChange={(e) => setForm({ ...form, [f]: e.currentTarget.value })} />
          ))}
          <Button type="submit">Find</Button>
        </Group>
      </form>
      <StatusView loading={objects.loading} error={objects.error} />
      {objects.data && <ObjectTable items={objects.data.items} />}
      <Group>
        {cursor && <Link to={href('/', { ...filters, cursor: null })}>First page</Link>}
        {objects.data?.nextCursor && <Link to={href('/', { ...filters, cursor: objects.data.nextCursor })}>Next page</Link>}
      </Group>
      <RecentTransitions objects={objects.data?.items ?? []} />
      <RecentFindings />
    </Stack>
  );
}

function ObjectTable({ items }: { items: TrackedObject[] }) {
  if (items.length === 0) return <Text>No object matches.</Text>;
  const sorted = [...items].sort(byLastChange);
  return (
    <Table.ScrollContainer minWidth={600}>
      <Table striped highlightOnHover aria-label="Objects">
        <Table.Thead>
          <Table.Tr><Table.Th>Object</Table.Th><Table.Th>Cluster</Table.Th><Table.Th>API</Table.Th><Table.Th>Last change</Table.Th></Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sorted.map((o) => (
            <Table.Tr key={o.id}>
              <Table.Td><Link to={href(`/objects/${o.id}`)}>{objectLabel(o)}</Link>{o.deleted ? ' (deleted)' : ''}</Table.Td>
              <Table.Td>{o.cluster}</Table.Td>
              <Table.Td>{apiVersionText(o)}</Table.Td>
              <Table.Td>{o.lastAt ? timeText(o.lastAt) : ''}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The latest transitions of the most recently changed objects listed. */
function RecentTransitions({ objects }: { objects: TrackedObject[] }) {
  const recent = [...objects].sort(byLastChange).slice(0, 5);
  const latest = useLoaded(async (signal) => {
    const all = await Promise.all(recent.map(async (o) => (await apiCall<Page<Transition>>(`/v1/objects/${o.id}/transitions?limit=10`, { signal })).items.map((t) => ({ ...t, object: o }))));
    return all.flat().sort((a, b) => compareSeq(b.seq, a.seq)).slice(0, 12);
  }, [recent.map((o) => `${o.id}:${o.lastSeq}`).join(',')]);
  const rows = latest.data ?? [];
  if (rows.length === 0) return null;
  return (
    <section aria-label="Recent transitions">
      <Title order={3} mb="xs">Recent transitions</Title>
      <Table.ScrollContainer minWidth={600}>
        <Table>
          <Table.Tbody>
            {rows.map((t) => (
              <Table.Tr key={`${t.object.id}-${t.seq}-${t.path}-${t.manager}-${t.type}`}>
                <Table.Td>{timeText(t.at)}</Table.Td>
                <Table.Td>{t.type}</Table.Td>
                <Table.Td><ManagerChip owner={t} /></Table.Td>
                <Table.Td><Link to={href(`/objects/${t.object.id}`, { path: t.path ?? null })}>{objectLabel(t.object)} <code>{t.path}</code></Link></Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </section>
  );
}

function RecentFindings() {
  const findings = useApi<Page<Finding>>('/v1/findings?limit=10');
  if (!findings.data || findings.data.items.length === 0) return null;
  return (
    <section aria-label="Recent findings">
      <Title order={3} mb="xs">Findings <Link to={href('/findings')}>(all)</Link></Title>
      <FindingList items={findings.data.items} />
    </section>
  );
}

export function FindingList({ items }: { items: Finding[] }) {
  return (
    <Table.ScrollContainer minWidth={600}>
      <Table striped aria-label="Findings">
        <Table.Thead><Table.Tr><Table.Th>Finding</Table.Th><Table.Th>Field</Table.Th><Table.Th>Managers</Table.Th><Table.Th>Since</Table.Th></Table.Tr></Table.Thead>
        <Table.Tbody>
          {items.map((f) => (
            <Table.Tr key={`${f.type}-${f.objectId}-${f.path}`}>
              <Table.Td>{f.type}</Table.Td>
              <Table.Td><Link to={href(`/objects/${f.objectId}`, { path: f.path })}>{objectLabel(f)} <code>{f.path}</code></Link></Table.Td>
              <Table.Td><Group gap={4}>{f.managers.map((m) => <ManagerChip key={identityKey(m)} owner={m} />)}</Group></Table.Td>
              <Table.Td>{f.since && timeText(f.since)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
