import { BUILTIN_SCHEMA } from '../schema/builtin-schema.js';
import type { Value, ValueMap } from '../value/value.js';
import { entries, entryOf, fieldsV1Of, builtinManager, steppingClock, thrown } from '../test/test-support.js';
import type { KubeObject } from './field-manager.js';
import { normalizerFor } from './normalize.js';
import { restoreUnchangedTimestamps } from './restore-timestamps.js';
import { updateScale } from './scale.js';

const meta = { name: 'web', namespace: 'default' };
const ports = [
  { containerPort: 53, protocol: 'UDP' },
  { containerPort: 443, protocol: 'TCP' },
];

function deployment(spec: Record<string, Value>, image = 'nginx:1'): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta,
    spec: {
      selector: { matchLabels: { app: 'web' } },
      ...spec,
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image, ports }] } },
    },
  };
}

// Each write as the apiserver stores it: the field manager, then the registry's timestamp restore (05 §2).
describe('restoreUnchangedTimestamps after a /scale write (issue 14)', () => {
  const clock = steppingClock();
  const fm = builtinManager('apps/v1', 'Deployment', { now: clock.now });
  const norm = normalizerFor({ apiVersion: 'apps/v1', kind: 'Deployment' }, true);
  const scale = (live: KubeObject, replicas: number, manager: string): KubeObject =>
    restoreUnchangedTimestamps(
      live,
      updateScale(live, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: meta, spec: { replicas } }, manager, {
        now: clock.now,
        parentType: BUILTIN_SCHEMA.type('io.k8s.api.apps.v1.Deployment'),
        normalize: norm.normalize,
      }),
    );
  // The Apply config restates a zero the Go type drops: the merged object differs, the stored one does not.
  const config = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { ...meta, labels: { team: 'a' } }, spec: { minReadySeconds: 0 } };

  function sequence(): { afterScale: KubeObject; afterReapply: KubeObject } {
    let live = fm.update(undefined, deployment({ replicas: 2 }), 'kubectl-create');
    clock.tick();
    live = restoreUnchangedTimestamps(live, fm.update(live, deployment({ replicas: 2 }, 'nginx:2'), 'kubectl-set'));
    clock.tick();
    live = restoreUnchangedTimestamps(live, fm.apply(live, config, 'argocd', false));
    clock.tick();
    const afterScale = scale(live, 5, 'horizontal-pod-autoscaler');
    clock.tick();
    // The step between: a rejected apply leaves the stored object as it was.
    thrown(() => fm.apply(afterScale, { ...config, spec: { minReadySeconds: 0, replicas: 3 } }, 'argocd', false));
    clock.tick();
    const afterReapply = restoreUnchangedTimestamps(afterScale, fm.apply(afterScale, config, 'argocd', false));
    return { afterScale, afterReapply };
  }

  it('the /scale write leaves every entry with byte-ordered FieldsV1 keys', () => {
    const { afterScale } = sequence();
    expect(fieldsV1Of(afterScale, 'kubectl-create')).toMatch(/containerPort\\":443.*containerPort\\":53/);
  });

  it('a later timestamp-only write is not undone when the FieldsV1 bytes it writes differ', () => {
    const { afterScale, afterReapply } = sequence();
    // The field manager re-encodes every entry in element order, so the stored and the new
    // kubectl-create entries differ as bytes; the registry then keeps the new object whole.
    expect(fieldsV1Of(afterReapply, 'kubectl-create')).toMatch(/containerPort\\":53.*containerPort\\":443/);
    expect(entryOf(afterReapply, 'argocd')!.time).not.toBe(entryOf(afterScale, 'argocd')!.time);
    expect(entries(afterReapply).map((e) => e.time)).not.toEqual(entries(afterScale).map((e) => e.time));
  });
});

describe('restoreUnchangedTimestamps', () => {
  const entry = (time: string, fieldsV1: ValueMap): ValueMap => ({ manager: 'm', operation: 'Update', apiVersion: 'v1', time, fieldsType: 'FieldsV1', fieldsV1 });
  const cm = (e: ValueMap): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', managedFields: [e] }, data: { a: '1' } });
  const sorted = { 'f:data': { 'f:a': {}, 'f:b': {} } };
  const reordered = { 'f:data': { 'f:b': {}, 'f:a': {} } };

  it('keeps the old object when only timestamps differ', () => {
    const old = cm(entry('2026-01-01T10:00:00Z', sorted));
    expect(restoreUnchangedTimestamps(old, cm(entry('2026-01-01T10:00:05Z', sorted)))).toBe(old);
  });

  it('compares FieldsV1 as bytes: the same set with other key order is a change', () => {
    const next = cm(entry('2026-01-01T10:00:05Z', sorted));
    expect(restoreUnchangedTimestamps(cm(entry('2026-01-01T10:00:00Z', reordered)), next)).toBe(next);
  });

  it('compares the other members by value, whatever their order in the entry', () => {
    const old = cm(entry('2026-01-01T10:00:00Z', sorted));
    const { manager, ...rest } = entry('2026-01-01T10:00:05Z', sorted);
    expect(restoreUnchangedTimestamps(old, cm({ ...rest, manager: manager! }))).toBe(old);
  });
});
