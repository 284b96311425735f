// Transitions between consecutive expected objects of the named conformance cases. The expected
// transitions are written by hand from each case's description and steps, not from the output.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ConformanceCase } from '../conformance/conformance-case.js';
import { BUILTIN_SCHEMA, builtinTypeName } from '../schema/builtin-schema.js';
import { diffSnapshots, type SnapshotDiff } from './diff-snapshots.js';
import { DEDUCED_TYPE } from '../schema/resolved-schema.js';
import type { NoteCode } from './notes.js';
import type { Snapshot } from './snapshot.js';

const CASES = path.resolve(process.cwd(), '../shared/conformance/cases');

function load(name: string): { snaps: Map<number, Snapshot>; c: ConformanceCase } {
  const c = JSON.parse(readFileSync(path.join(CASES, name + '.json'), 'utf8')) as ConformanceCase;
  const [apiVersion, kind] = c.kind.split(' ') as [string, string];
  const type = BUILTIN_SCHEMA.type(builtinTypeName(apiVersion, kind)!);
  const snaps = new Map<number, Snapshot>();
  c.steps.forEach((s, i) => {
    if (s.expect.object) snaps.set(i, { object: s.expect.object, type });
  });
  return { snaps, c };
}

/** `type path manager[/operation[/subresource]]`, one string per transition, sorted. */
type Expected = string;

function summary(d: SnapshotDiff): string[] {
  return d.transitions
    .map((t) => {
      const m = t.manager ? `${t.manager.manager}/${t.manager.operation}${t.manager.subresource ? '/' + t.manager.subresource : ''}` : '-';
      return `${t.type} ${t.path} ${m}`;
    })
    .sort();
}

function diff(name: string, from: number, to: number): SnapshotDiff {
  const { snaps } = load(name);
  const b = snaps.get(from);
  const a = snaps.get(to);
  if (!b || !a) throw new Error(`${name}: no object at step ${from} or ${to}`);
  return diffSnapshots(b, a);
}

function codes(d: SnapshotDiff): NoteCode[] {
  return d.notes.map((n) => n.code);
}

function writer(d: SnapshotDiff): string | null {
  return d.writer ? `${d.writer.manager.manager}/${d.writer.manager.operation}` : null;
}

const IMG_POD = '.spec.containers[name="nginx-container"].image';
const IMG_DEPLOY = '.spec.template.spec.containers[name="app"].image';

describe('incident cases: transitions a reader would name', () => {
  it('incident-a: kubectl set image takes the image from the applier (Update)', () => {
    const d = diff('incident-a-pod-set-image', 0, 1);
    expect(summary(d)).toEqual<Expected[]>([`taken ${IMG_POD} kubectl-set/Update`]);
    expect(d.transitions[0]!.from.map((m) => m.manager)).toEqual(['kubectl']);
    expect(writer(d)).toBe('kubectl-set/Update');
  });

  it('incident-a: --force-conflicts moves the image back to kubectl; kubectl-set vanishes', () => {
    const d = diff('incident-a-pod-set-image', 1, 3);
    expect(summary(d)).toEqual<Expected[]>([`forced ${IMG_POD} kubectl/Apply`]);
    expect(d.transitions[0]!.from.map((m) => m.manager)).toEqual(['kubectl-set']);
    expect(writer(d)).toBe('kubectl/Apply');
    expect(codes(d)).toContain('entry-emptied');
    expect(codes(d)).not.toContain('possible-last-applied-auto-force');
  });

  it('incident-b: flux applies identical values -> shares the labels and data with the CSA manager', () => {
    const d = diff('incident-b-configmap-ghost-label', 0, 1);
    expect(summary(d)).toEqual<Expected[]>([
      'shared .data.LOG_LEVEL flux-controller/Apply',
      'shared .metadata.labels.app flux-controller/Apply',
      'shared .metadata.labels.team flux-controller/Apply',
    ]);
    expect(writer(d)).toBe('flux-controller/Apply');
    expect(codes(d)).toEqual(expect.arrayContaining(['entry-without-time', 'ownership-only-change']));
  });

  it('incident-b: flux drops the label -> kept, because kubectl-client-side-apply (Update) still owns it', () => {
    const d = diff('incident-b-configmap-ghost-label', 1, 2);
    expect(summary(d)).toEqual<Expected[]>(['kept .metadata.labels.team flux-controller/Apply']);
    expect(d.transitions[0]!.owners).toEqual([{ manager: 'kubectl-client-side-apply', operation: 'Update', apiVersion: 'v1', subresource: '' }]);
    expect(d.objectChanged).toBe(false);
  });

  it('incident-b: the client-side apply deletes the label -> removed', () => {
    const d = diff('incident-b-configmap-ghost-label', 2, 3);
    expect(summary(d)).toEqual<Expected[]>(['removed .metadata.labels.team kubectl-client-side-apply/Update']);
    expect(d.transitions[0]!.from.map((m) => m.manager)).toEqual(['kubectl-client-side-apply']);
  });

  it('incident-b: no-op re-apply -> nothing', () => {
    const d = diff('incident-b-configmap-ghost-label', 3, 4);
    expect(d.transitions).toEqual([]);
    expect(d.writer).toBeNull();
    expect(d.notes).toEqual([]);
  });

  it('incident-c: manager-b forces shared-key away from manager-a; a-only stays', () => {
    const d = diff('incident-c-shared-key-force', 0, 2);
    expect(summary(d)).toEqual<Expected[]>(['forced .data.shared-key manager-b/Apply']);
    expect(d.transitions[0]!.from.map((m) => m.manager)).toEqual(['manager-a']);
    expect(writer(d)).toBe('manager-b/Apply');
  });

  it('incident-c: manager-a gives up shared-key it no longer owned -> nothing', () => {
    expect(diff('incident-c-shared-key-force', 2, 4).transitions).toEqual([]);
  });

  it('incident-d: the HPA takes replicas through /scale (entry without time)', () => {
    const d = diff('incident-d-hpa-scale-subresource', 0, 1);
    expect(summary(d)).toEqual<Expected[]>(['taken .spec.replicas horizontal-pod-autoscaler/Update/scale']);
    expect(d.transitions[0]!.from.map((m) => m.manager)).toEqual(['kubectl']);
    expect(writer(d)).toBe('horizontal-pod-autoscaler/Update');
    expect(codes(d)).toContain('entry-without-time');
  });

  it('incident-d: applying without replicas changes nothing', () => {
    expect(diff('incident-d-hpa-scale-subresource', 1, 3).transitions).toEqual([]);
  });

  it('incident-d2: kubectl drops replicas as sole owner -> pruned', () => {
    const d = diff('incident-d2-apply-drops-replicas-sole-owner', 0, 1);
    expect(summary(d)).toEqual<Expected[]>(['pruned .spec.replicas kubectl/Apply']);
    expect(writer(d)).toBe('kubectl/Apply');
  });

  it('incident-d3: HPA no-op scale gives nothing; the real scale takes replicas; dropping it from the manifest does nothing', () => {
    expect(diff('incident-d3-hpa-co-owns-before-removal', 0, 1).transitions).toEqual([]);
    expect(summary(diff('incident-d3-hpa-co-owns-before-removal', 1, 2))).toEqual<Expected[]>([
      'taken .spec.replicas horizontal-pod-autoscaler/Update/scale',
    ]);
    expect(diff('incident-d3-hpa-co-owns-before-removal', 2, 3).transitions).toEqual([]);
  });

  it('incident-e: kubectl scale (Update/scale) takes replicas from kubectl Apply, then the Apply re-shares it', () => {
    const d1 = diff('incident-e-same-name-apply-vs-scale', 0, 1);
    expect(summary(d1)).toEqual<Expected[]>(['taken .spec.replicas kubectl/Update/scale']);
    expect(d1.transitions[0]!.from).toEqual([{ manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1', subresource: '' }]);
    const d2 = diff('incident-e-same-name-apply-vs-scale', 1, 2);
    expect(summary(d2)).toEqual<Expected[]>(['shared .spec.replicas kubectl/Apply']);
    expect(d2.transitions[0]!.owners).toHaveLength(2);
  });

  it('incident-e2: kubectl Update (PUT) takes the image from kubectl Apply; the forced apply takes it back', () => {
    expect(summary(diff('incident-e2-same-name-apply-vs-update', 0, 1))).toEqual<Expected[]>([`taken ${IMG_DEPLOY} kubectl/Update`]);
    const d = diff('incident-e2-same-name-apply-vs-update', 1, 3);
    expect(summary(d)).toEqual<Expected[]>([`forced ${IMG_DEPLOY} kubectl/Apply`]);
    expect(d.transitions[0]!.from).toEqual([{ manager: 'kubectl', operation: 'Update', apiVersion: 'apps/v1', subresource: '' }]);
    expect(codes(d)).toContain('entry-emptied');
    expect(codes(d)).not.toContain('possible-last-applied-auto-force');
  });

  it('update-then-apply-takeover: the applier shares what kubectl-create set, then forces replicas', () => {
    const d1 = diff('update-then-apply-takeover', 0, 1);
    expect(summary(d1)).toEqual<Expected[]>([
      'shared .spec.replicas kubectl/Apply',
      'shared .spec.selector kubectl/Apply',
      `shared ${IMG_DEPLOY} kubectl/Apply`,
      'shared .spec.template.metadata.labels.app kubectl/Apply',
      'shared .spec.template.spec.containers[name="app"] kubectl/Apply',
      'shared .spec.template.spec.containers[name="app"].name kubectl/Apply',
    ].sort());
    const d2 = diff('update-then-apply-takeover', 1, 3);
    expect(summary(d2)).toEqual<Expected[]>(['forced .spec.replicas kubectl/Apply']);
    expect(d2.transitions[0]!.from.map((m) => m.manager)).toEqual(['kubectl-create']);
  });

  it('noop-reapply-keeps-timestamp: no-ops show nothing; a value change by the owner is no ownership change', () => {
    expect(diff('noop-reapply-keeps-timestamp', 0, 1).transitions).toEqual([]);
    expect(diff('noop-reapply-keeps-timestamp', 1, 2).transitions).toEqual([]);
    const d = diff('noop-reapply-keeps-timestamp', 2, 3);
    expect(d.transitions).toEqual([]);
    expect(writer(d)).toBe('a/Apply');
    expect(d.objectChanged).toBe(true);
  });

  it('managedfields-reset: the reset is flagged; the forced first apply takes a and b from before-first-apply', () => {
    const d1 = diff('managedfields-reset-then-apply-before-first-apply', 0, 1);
    expect(d1.transitions).toEqual([]);
    expect(codes(d1)).toContain('managed-fields-reset');
    const d2 = diff('managedfields-reset-then-apply-before-first-apply', 1, 4);
    expect(summary(d2)).toEqual<Expected[]>(['forced .data.a kubectl/Apply', 'forced .data.b kubectl/Apply']);
    for (const t of d2.transitions) expect(t.from.map((m) => m.manager)).toEqual(['before-first-apply']);
    expect(codes(d2)).toContain('before-first-apply-appeared');
    expect(writer(d2)).toBe('kubectl/Apply');
  });

  it('cap-managers: the 11th Update manager acquires its key; the oldest two are merged into ancient-changes', () => {
    const d = diff('cap-managers-ancient-changes', 9, 10);
    expect(summary(d)).toEqual<Expected[]>(['acquired .data.k10 controller-10/Update']);
    expect(writer(d)).toBe('controller-10/Update');
    const merged = d.notes.filter((n) => n.code === 'entry-merged-into-ancient-changes').map((n) => n.managers[0]!.manager);
    expect(merged.sort()).toEqual(['controller-00', 'controller-01']);
    expect(codes(d)).not.toContain('entry-disappeared');
    const d2 = diff('cap-managers-ancient-changes', 10, 11);
    expect(summary(d2)).toEqual<Expected[]>(['acquired .data.k11 controller-11/Update']);
    expect(d2.notes.filter((n) => n.code === 'entry-merged-into-ancient-changes').map((n) => n.managers[0]!.manager)).toEqual(['controller-02']);
  });

  it('csa-to-ssa-upgrade: kubectl takes color (maybe the last-applied auto-force) and shares size', () => {
    const d = diff('csa-to-ssa-upgrade-kubectl', 0, 1);
    expect(summary(d)).toEqual<Expected[]>(['forced .data.color kubectl/Apply', 'shared .data.size kubectl/Apply']);
    expect(d.transitions.find((t) => t.type === 'forced')!.from.map((m) => m.manager)).toEqual(['kubectl-client-side-apply']);
    expect(codes(d)).toContain('possible-last-applied-auto-force');
  });

  it('first observation: every owned path is acquired', () => {
    const { snaps } = load('incident-c-shared-key-force');
    const d = diffSnapshots(undefined, snaps.get(2)!);
    expect(summary(d)).toEqual<Expected[]>(['acquired .data.a-only manager-a/Apply', 'acquired .data.shared-key manager-b/Apply']);
    expect(codes(d)).toContain('first-observation');
  });
});

// Every pair of consecutive objects of every case decodes and diffs into plain data without throwing.
describe('all cases: consecutive objects diff cleanly', () => {
  const files = readdirSync(CASES).filter((f) => f.endsWith('.json'));
  it.each(files)('%s', (f) => {
    const c = JSON.parse(readFileSync(path.join(CASES, f), 'utf8')) as ConformanceCase;
    const [apiVersion, kind] = c.kind.split(' ') as [string, string];
    const name = c.schema === 'builtin' ? builtinTypeName(apiVersion, kind) : undefined;
    const type = name ? BUILTIN_SCHEMA.type(name) : DEDUCED_TYPE;
    let prev: Snapshot | undefined;
    for (const s of c.steps) {
      if (!s.expect.object) continue;
      const cur = { object: s.expect.object, type };
      const d = diffSnapshots(prev, cur);
      expect(JSON.parse(JSON.stringify(d))).toEqual(d);
      prev = cur;
    }
  });
});
