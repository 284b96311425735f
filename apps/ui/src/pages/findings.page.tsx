import { Button, Group, MultiSelect, Stack, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import type { FindingType } from '../../../../libs/audit/src/findings.read-model';
import { query } from '../api/api-client';
import type { Finding, Page } from '../api/api-types';
import { StatusView } from '../api/status-view';
import { useApi } from '../api/use-api';
import { navigate, withParams } from '../routing/route';
import { FindingList } from './find.page';

// Every finding type of the read model, in its order: a record, so the compiler says when one is missing or
// unknown; the type alone is imported (the read model's FINDING_TYPES would bring the engine into the bundle).
const TYPES = Object.keys({
  'apply-update-co-owned': true, 'replicas-contested': true, 'applier-will-conflict': true, 'client-side-apply-leftover': true, 'recently-forced': true,
} satisfies Record<FindingType, true>);

/** Cluster-wide findings, filtered by type, start and moment (all in the URL). */
export default function FindingsPage({ params }: { params: URLSearchParams }) {
  const [types, setTypes] = useState((params.get('type') ?? '').split(',').filter(Boolean));
  const [since, setSince] = useState(params.get('since') ?? '');
  const [at, setAt] = useState(params.get('at') ?? '');
  const findings = useApi<Page<Finding>>(`/v1/findings${query({ type: params.get('type'), since: params.get('since'), at: params.get('at'), limit: 500 })}`);
  return (
    <Stack>
      <Title order={2}>Findings</Title>
      <form aria-label="Filter findings" onSubmit={(e) => { e.preventDefault(); navigate(withParams({ type: types.join(','), since, at })); }}>
        <Group align="end" wrap="wrap">
          <MultiSelect label="Type" data={TYPES} value={types} onChange={setTypes} clearable w={360} />
          <TextInput label="Since (time or #seq)" value={since} onChange={(e) => setSince(e.currentTarget.value)} />
          <TextInput label="At (time or #seq)" value={at} onChange={(e) => setAt(e.currentTarget.value)} />
          <Button type="submit">Filter</Button>
        </Group>
      </form>
      <StatusView loading={findings.loading} error={findings.error} />
      {findings.data && <FindingList items={findings.data.items} />}
    </Stack>
  );
}
