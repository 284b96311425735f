import { Alert, Badge, Grid, Group, Stack, Tabs, Text, Title, Tooltip } from '@mantine/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { compareSeq } from '../../../../libs/audit/src/seq.util';
import { query } from '../api/api-client';
import type { Ownership, SchemaUsed, Transition } from '../api/api-types';
import { followEvents, type EventFollower } from '../api/event-stream';
import { StatusView } from '../api/status-view';
import { useAllPages, useApi } from '../api/use-api';
import { FieldPanel } from '../field/field-panel';
import { FieldTree } from '../object/field-tree';
import { historySteps } from '../object/history-steps';
import { TimeSlider } from '../object/time-slider';
import { Timeline } from '../object/timeline';
import { Link } from '../routing/link';
import { href, navigate, withParams } from '../routing/route';
import { apiVersionText, objectLabel } from './find.page';

/** How much of an object's history its page loads (500 a request). */
const MAX_TRANSITIONS = 20_000;

/**
 * One object: its field tree with owners and values, replayed with the time slider (`at=`), its
 * timeline, and the open field (`path=`). Follows the event stream (its cluster's events, once the
 * object is loaded): a new event of this object reloads what is shown.
 */
export function ObjectPage({ id, params }: { id: string; params: URLSearchParams }) {
  const at = params.get('at');
  const path = params.get('path');
  const tab = params.get('tab') === 'timeline' ? 'timeline' : 'fields';
  const [version, setVersion] = useState(0);
  const [offline, setOffline] = useState(false);
  const events = useRef<EventFollower>(null);
  useEffect(() => {
    const follower = followEvents(
      (e) => { setOffline(false); if (e.objectId === id) setVersion((v) => v + 1); },
      () => setOffline(true),
    );
    events.current = follower;
    return follower.stop;
  }, [id]);
  // The whole history, newest first (the slider and the timeline need every step), up to MAX_TRANSITIONS.
  const transitions = useAllPages<Transition>(`/v1/objects/${id}/transitions?limit=500`, version, MAX_TRANSITIONS);
  const ownership = useApi<Ownership>(`/v1/objects/${id}/ownership${query({ at, values: 'true' })}`, version);
  const steps = useMemo(() => historySteps(transitions.data?.items ?? []), [transitions.data]);
  const index = at === null ? steps.length - 1 : Math.max(0, steps.findIndex((s) => s.seq === at));
  // The timeline as of the slider's step: the transitions up to its event.
  const shown = useMemo(() => {
    const items = transitions.data?.items ?? [];
    const until = at === null ? undefined : steps[index]?.seq;
    return until === undefined ? items : items.filter((t) => compareSeq(t.seq, until) <= 0);
  }, [transitions.data, steps, index, at]);
  const open = (p: string) => navigate(withParams({ path: p }));
  const object = ownership.data?.object;
  // No event of another cluster is this object's.
  const cluster = object?.cluster;
  useEffect(() => {
    if (cluster !== undefined) events.current?.onlyCluster(cluster);
  }, [cluster]);
  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>{object ? objectLabel(object) : `Object ${id}`}</Title>
        <Group gap="xs">
          {object && <Text size="sm" c="dimmed">{object.cluster} · {apiVersionText(object)}{object.deleted ? ' · deleted' : ''}</Text>}
          {ownership.data && <SchemaBadge schema={ownership.data.schema} />}
          <Badge variant="light" color={offline ? 'red' : 'green'} aria-live="polite">{offline ? 'live updates off' : 'live'}</Badge>
          {object && <Link to={href('/simulate', { cluster: object.cluster, object: id })}>Simulate an apply</Link>}
        </Group>
      </Group>
      <StatusView loading={transitions.loading && !transitions.data} error={transitions.error ?? ownership.error} />
      {steps.length > 0 && (
        <TimeSlider steps={steps} index={index} onChange={(i) => navigate(withParams({ at: i >= steps.length - 1 ? null : steps[i]!.seq }), true)} />
      )}
      {transitions.data?.truncated && <Alert color="yellow" py={4}>This object has more than {MAX_TRANSITIONS} field transitions: the time slider and the timeline show the latest {transitions.data.items.length}.</Alert>}
      {at !== null && <Alert color="yellow" py={4}>Showing the object as of event #{at}. <Link to={withParams({ at: null })}>Back to now</Link></Alert>}
      <Grid>
        <Grid.Col span={{ base: 12, md: path ? 6 : 12 }}>
          <Tabs value={tab} onChange={(t) => navigate(withParams({ tab: t === 'timeline' ? 'timeline' : null }), true)} keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="fields">Fields</Tabs.Tab>
              <Tabs.Tab value="timeline">Timeline</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="fields" pt="xs">
              {ownership.data && <FieldTree tree={ownership.data.tree} selected={path} onOpen={open} />}
            </Tabs.Panel>
            <Tabs.Panel value="timeline" pt="xs">
              {transitions.data && <Timeline transitions={shown} onOpen={open} />}
            </Tabs.Panel>
          </Tabs>
        </Grid.Col>
        {path && (
          <Grid.Col span={{ base: 12, md: 6 }}>
            <FieldPanel id={id} path={path} at={at} version={String(version)} />
          </Grid.Col>
        )}
      </Grid>
    </Stack>
  );
}

const SCHEMA_HELP: Record<SchemaUsed['source'], string> = {
  cluster: "the cluster's own OpenAPI schema",
  bundled: 'the built-in schema of Kubernetes 1.36',
  deduced: 'no schema known: deduced from the values, every list atomic (one owner for a whole list)',
};

/** Which schema the ownership shown was read with; a deduced one is a warning. */
function SchemaBadge({ schema }: { schema: SchemaUsed }) {
  return (
    <Tooltip label={`${SCHEMA_HELP[schema.source]}${schema.typeName ? ` (${schema.typeName})` : ''}`}>
      <Badge variant="light" color={schema.source === 'deduced' ? 'yellow' : 'gray'} tabIndex={0}>schema: {schema.source}</Badge>
    </Tooltip>
  );
}
