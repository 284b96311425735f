import { Alert, Badge, Grid, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { query } from '../api/api-client';
import type { Ownership, Transition } from '../api/api-types';
import { followEvents } from '../api/event-stream';
import { StatusView } from '../api/status-view';
import { useAllPages, useApi } from '../api/use-api';
import { FieldPanel } from '../field/field-panel';
import { FieldTree } from '../object/field-tree';
import { historySteps } from '../object/history-steps';
import { TimeSlider } from '../object/time-slider';
import { Timeline } from '../object/timeline';
import { Link } from '../routing/link';
import { href, navigate, withParams } from '../routing/route';
import { objectLabel } from './find.page';

/** How much of an object's history its page loads (500 a request). */
const MAX_TRANSITIONS = 20_000;

/**
 * One object: its field tree with owners and values, replayed with the time slider (`at=`), its
 * timeline, and the open field (`path=`). Follows the event stream: a new event of this object
 * reloads what is shown.
 */
export function ObjectPage({ id, params }: { id: string; params: URLSearchParams }) {
  const at = params.get('at');
  const path = params.get('path');
  const tab = params.get('tab') === 'timeline' ? 'timeline' : 'fields';
  const [version, setVersion] = useState(0);
  const [live, setLive] = useState<'connecting' | 'live' | 'offline'>('connecting');
  useEffect(
    () => followEvents(
      (e) => { setLive('live'); if (e.objectId === id) setVersion((v) => v + 1); },
      () => setLive('offline'),
    ),
    [id],
  );
  useEffect(() => { const t = setTimeout(() => setLive((l) => (l === 'connecting' ? 'live' : l)), 1500); return () => clearTimeout(t); }, []);
  // The whole history, newest first (the slider and the timeline need every step), up to MAX_TRANSITIONS.
  const transitions = useAllPages<Transition>(`/v1/objects/${id}/transitions?limit=500`, version, MAX_TRANSITIONS);
  const ownership = useApi<Ownership>(`/v1/objects/${id}/ownership${query({ at, values: 'true' })}`, version);
  const steps = useMemo(() => historySteps(transitions.data?.items ?? []), [transitions.data]);
  const index = at === null ? steps.length - 1 : Math.max(0, steps.findIndex((s) => s.seq === at));
  const open = (p: string) => navigate(withParams({ path: p }));
  const object = ownership.data?.object;
  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>{object ? objectLabel(object) : `Object ${id}`}</Title>
        <Group gap="xs">
          {object && <Text size="sm" c="dimmed">{object.cluster} · {object.group ? `${object.group}/` : ''}{object.version}{object.deleted ? ' · deleted' : ''}</Text>}
          <Badge variant="light" color={live === 'offline' ? 'red' : 'green'} aria-live="polite">{live === 'offline' ? 'live updates off' : 'live'}</Badge>
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
              {transitions.data && <Timeline transitions={transitions.data.items.filter((t) => at === null || steps.findIndex((s) => s.seq === t.seq) <= index)} onOpen={open} />}
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
