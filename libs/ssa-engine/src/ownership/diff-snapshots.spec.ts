import { SsaEngineError } from '../errors.js';
import { diffSnapshots, type SnapshotDiff } from './diff-snapshots.js';
import { cm, CONFIGMAP, deploy, T1, T2, T3 } from './test-fixtures.js';

function summary(d: SnapshotDiff): string[] {
  return d.transitions.map((t) => `${t.type} ${t.path} ${t.manager ? t.manager.manager : '-'}<-[${t.from.map((f) => f.manager).join(',')}]`).sort();
}
const codes = (d: SnapshotDiff): string[] => d.notes.map((n) => n.code);

describe('diffSnapshots: one test per transition type', () => {
  it('acquired: a manager starts owning a field nobody owned', () => {
    const d = diffSnapshots(cm({ a: '1' }, [['x', 'Apply', T1, { 'f:data': { 'f:a': {} } }]]), cm({ a: '1', b: '2' }, [['x', 'Apply', T1, { 'f:data': { 'f:a': {} } }], ['y', 'Update', T2, { 'f:data': { 'f:b': {} } }]]));
    expect(summary(d)).toEqual(['acquired .data.b y<-[]']);
    expect(d.writer).toEqual({ manager: { manager: 'y', operation: 'Update', apiVersion: 'v1', subresource: '' }, basis: 'appeared-with-time', time: T2 });
    expect(d.transitions[0]!.fieldsV1).toBe('f:data.f:b');
  });

  it('shared: an applier applies the current value of a field another manager owns', () => {
    const d = diffSnapshots(cm({ a: '1' }, [['x', 'Update', T1, { 'f:data': { '.': {}, 'f:a': {} } }]]), cm({ a: '1' }, [['x', 'Update', T1, { 'f:data': { '.': {}, 'f:a': {} } }], ['y', 'Apply', undefined, { 'f:data': { 'f:a': {} } }]]));
    expect(summary(d)).toEqual(['shared .data.a y<-[]']);
    expect(d.transitions[0]!.owners.map((o) => o.manager)).toEqual(['x', 'y']);
    expect(codes(d)).toEqual(expect.arrayContaining(['entry-without-time', 'ownership-only-change']));
  });

  it('taken: an Update changes a field another manager owned', () => {
    const d = diffSnapshots(cm({ a: '1' }, [['x', 'Apply', T1, { 'f:data': { 'f:a': {} } }]]), cm({ a: '2' }, [['y', 'Update', T2, { 'f:data': { 'f:a': {} } }]]));
    expect(summary(d)).toEqual(['taken .data.a y<-[x]']);
    expect(codes(d)).toContain('entry-emptied');
  });

  it('forced: an Apply changes a field another manager owned', () => {
    const d = diffSnapshots(cm({ a: '1' }, [['x', 'Apply', T1, { 'f:data': { 'f:a': {} } }]]), cm({ a: '2' }, [['y', 'Apply', T2, { 'f:data': { 'f:a': {} } }]]));
    expect(summary(d)).toEqual(['forced .data.a y<-[x]']);
    expect(d.transitions[0]!.notes).toContain('force-inferred');
  });

  it('forced by kubectl with a matching last-applied annotation: flagged as possible auto-force', () => {
    const ann = { 'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({ data: { a: '1' } }) };
    const d = diffSnapshots(
      cm({ a: '1' }, [['kubectl-client-side-apply', 'Update', T1, { 'f:data': { 'f:a': {} } }]], undefined, ann),
      cm({ a: '2' }, [['kubectl', 'Apply', T2, { 'f:data': { 'f:a': {} } }]], undefined, ann),
    );
    expect(summary(d)).toEqual(['forced .data.a kubectl<-[kubectl-client-side-apply]']);
    expect(codes(d)).toContain('possible-last-applied-auto-force');
  });

  it('pruned: the applier stops applying a field only it owned', () => {
    const d = diffSnapshots(cm({ a: '1', b: '2' }, [['x', 'Apply', T1, { 'f:data': { 'f:a': {}, 'f:b': {} } }]]), cm({ a: '1' }, [['x', 'Apply', T2, { 'f:data': { 'f:a': {} } }]]));
    expect(summary(d)).toEqual(['pruned .data.b x<-[x]']);
  });

  it('kept: the applier stops applying a field another manager still owns', () => {
    const d = diffSnapshots(
      cm({ a: '1', b: '1' }, [['x', 'Apply', T1, { 'f:data': { 'f:a': {}, 'f:b': {} } }], ['y', 'Apply', T1, { 'f:data': { 'f:a': {} } }]]),
      cm({ a: '1', b: '1' }, [['x', 'Apply', T1, { 'f:data': { 'f:b': {} } }], ['y', 'Apply', T1, { 'f:data': { 'f:a': {} } }]]),
    );
    expect(summary(d)).toEqual(['kept .data.a x<-[x]']);
    expect(d.transitions[0]!.owners.map((o) => o.manager)).toEqual(['y']);
  });

  it('kept: a struct field is kept by owners of descendants; a list item only by owners of the item', () => {
    const spec = { replicas: 1, strategy: { type: 'Recreate' }, template: { spec: { containers: [{ name: 'app', image: 'i' }] } } };
    const C = (item: object): object => ({ 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"app"}': item } } } });
    const u: ['u', 'Update', string, object] = ['u', 'Update', T1, { 'f:spec': { 'f:strategy': { 'f:type': {} }, ...C({ 'f:image': {} }) } }];
    const b: ['b', 'Apply', string, object] = ['b', 'Apply', T1, { 'f:spec': C({ '.': {}, 'f:name': {} }) }];
    const d = diffSnapshots(
      deploy(spec, [['a', 'Apply', T1, { 'f:spec': { 'f:replicas': {}, 'f:strategy': {}, ...C({ '.': {}, 'f:name': {} }) } }], b, u]),
      deploy(spec, [['a', 'Apply', T2, { 'f:spec': { 'f:replicas': {} } }], b, u]),
    );
    const owners = (p: string): string[] => d.transitions.find((t) => t.path === p && t.type === 'kept')!.owners.map((o) => o.manager);
    expect(summary(d)).toEqual([
      'kept .spec.strategy a<-[a]',
      'kept .spec.template.spec.containers[name="app"] a<-[a]',
      'kept .spec.template.spec.containers[name="app"].name a<-[a]',
    ]);
    expect(owners('.spec.strategy')).toEqual(['u']);
    expect(owners('.spec.template.spec.containers[name="app"]')).toEqual(['b']); // u owns only a sub-field
  });

  it('removed: a write deletes a field; its owners lose it', () => {
    const d = diffSnapshots(
      cm({ a: '1', b: '2' }, [['x', 'Update', T1, { 'f:data': { '.': {}, 'f:a': {}, 'f:b': {} } }], ['y', 'Apply', T1, { 'f:data': { 'f:b': {} } }]]),
      cm({ a: '3' }, [['x', 'Update', T2, { 'f:data': { '.': {}, 'f:a': {} } }]]),
    );
    expect(summary(d)).toEqual(['removed .data.b x<-[x,y]']);
  });

  it('orphaned: released, nobody owns it, still present; untracked change noted', () => {
    const d = diffSnapshots(cm({ a: '1' }, [['x', 'Apply', T1, { 'f:data': { 'f:a': {} } }], ['z', 'Apply', T1, { 'f:data': { 'f:c': {} } }]]), cm({ a: '9' }, [['z', 'Apply', T1, { 'f:data': { 'f:c': {} } }]]));
    expect(summary(d)).toEqual(['orphaned .data.a x<-[x]']);
    expect(codes(d)).toEqual(expect.arrayContaining(['orphaned', 'untracked-change', 'entry-disappeared', 'object-changed-without-writer']));
  });
});

describe('diffSnapshots: notes', () => {
  it('CSA→SSA migration: the client-side-apply entry is folded into kubectl, no transitions', () => {
    const LA = 'kubectl.kubernetes.io/last-applied-configuration';
    const ann = { [LA]: '{}' };
    const csa = { 'f:data': { '.': {}, 'f:a': {}, 'f:b': {} }, 'f:metadata': { 'f:annotations': { '.': {}, [`f:${LA}`]: {} } } };
    const d = diffSnapshots(
      cm({ a: '1', b: '2' }, [['kubectl', 'Apply', T1, { 'f:data': { 'f:a': {} } }], ['kubectl-client-side-apply', 'Update', T1, csa]], undefined, ann),
      cm({ a: '1', b: '2' }, [['kubectl', 'Apply', T1, csa]], undefined, ann),
    );
    expect(d.transitions).toEqual([]);
    expect(codes(d)).toEqual(expect.arrayContaining(['entry-folded-by-csa-migration', 'ownership-only-change']));
    expect(codes(d)).not.toContain('entry-disappeared');
  });

  it('ownership moved without a value change (managedFields edit) is flagged on the transition', () => {
    const d = diffSnapshots(cm({ a: '1' }, [['x', 'Apply', T1, { 'f:data': { 'f:a': {} } }]]), cm({ a: '1' }, [['y', 'Update', T1, { 'f:data': { 'f:a': {} } }]]));
    expect(summary(d)).toEqual(['taken .data.a y<-[x]']);
    expect(d.transitions[0]!.notes).toEqual(['ownership-moved-without-change', 'update-gained-unchanged']);
  });

  it('an explicit type overrides the snapshots\' type', () => {
    const s = cm({ a: '1' }, [['x', 'Apply', T1, { 'f:data': { 'f:a': {} } }]]);
    expect(diffSnapshots(undefined, { object: s.object } as never, CONFIGMAP).transitions).toHaveLength(1);
  });

  it('managed-fields-reset and untracked-object', () => {
    const d = diffSnapshots(cm({ a: '1' }, [['x', 'Update', T1, { 'f:data': { 'f:a': {} } }]]), cm({ a: '1' }, []));
    expect(codes(d)).toEqual(['managed-fields-reset']);
    expect(d.transitions).toEqual([]);
    expect(codes(diffSnapshots(cm({ a: '1' }, []), cm({ a: '2' }, [])))).toEqual(['untracked-object', 'object-changed-without-writer']);
  });

  it('apply-version-changed', () => {
    const d = diffSnapshots(cm({ a: '1' }, [['x', 'Apply', T1, { 'f:data': { 'f:a': {} } }, 'v1']]), cm({ a: '1' }, [['x', 'Apply', T1, { 'f:data': { 'f:a': {} } }, 'v2']]));
    expect(codes(d)).toContain('apply-version-changed');
  });

  it('object changed but no writer', () => {
    const e: ['x', 'Apply', string, object] = ['x', 'Apply', T1, { 'f:data': { 'f:a': {} } }];
    const d = diffSnapshots(cm({ a: '1' }, [e]), cm({ a: '1', extra: 'webhook' }, [e]));
    expect(d.writer).toBeNull();
    expect(codes(d)).toEqual(['object-changed-without-writer']);
    expect(d.transitions).toEqual([]);
  });

  it('entry disappeared without explanation', () => {
    const d = diffSnapshots(
      cm({ a: '1' }, [['x', 'Apply', T1, { 'f:data': { 'f:a': {} } }], ['old', 'Update', T1, { 'f:data': { 'f:a': {} } }, 'v1beta1']]),
      cm({ a: '1' }, [['x', 'Apply', T1, { 'f:data': { 'f:a': {} } }]]),
    );
    expect(codes(d)).toContain('entry-disappeared');
    expect(summary(d)).toEqual(['kept .data.a old<-[old]']);
  });

  it('two entries with new times: writer-ambiguous, latest reported', () => {
    const d = diffSnapshots(cm({ a: '1' }, [['x', 'Update', T1, { 'f:data': { 'f:a': {} } }]]), cm({ a: '2', b: '1' }, [['y', 'Update', T2, { 'f:data': { 'f:a': {} } }], ['z', 'Update', T3, { 'f:data': { 'f:b': {} } }]]));
    expect(codes(d)).toContain('writer-ambiguous');
    expect(d.writer?.manager.manager).toBe('z');
  });
});

describe('diffSnapshots: hostile input gives SsaEngineError', () => {
  const good = cm({ a: '1' }, []);
  const bad = (mf: unknown): unknown => ({ type: CONFIGMAP, object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'n', managedFields: mf } } });
  it.each([
    ['not a list', 'x'],
    ['entry not an object', [1]],
    ['bad operation', [{ manager: 'm', operation: 'Patch', apiVersion: 'v1', fieldsType: 'FieldsV1' }]],
    ['no apiVersion', [{ manager: 'm', operation: 'Apply', fieldsType: 'FieldsV1' }]],
    ['bad fieldsType', [{ manager: 'm', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV2' }]],
    ['manager not a string', [{ manager: 5, operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1' }]],
    ['fieldsV1 not an object', [{ manager: 'm', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: [1] }]],
    ['bad path element', [{ manager: 'm', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'k:{bad': {} } }]],
    ['bad time', [{ manager: 'm', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', time: 'yesterday' }]],
  ])('%s', (_name, mf) => {
    expect(() => diffSnapshots(good, bad(mf) as never)).toThrow(SsaEngineError);
    expect(() => diffSnapshots(bad(mf) as never, good)).toThrow(SsaEngineError);
  });
  it('object not a map, metadata not a map, snapshot not an object', () => {
    expect(() => diffSnapshots(undefined, { type: CONFIGMAP, object: [] })).toThrow(SsaEngineError);
    expect(() => diffSnapshots(undefined, { type: CONFIGMAP, object: { metadata: 'x' } })).toThrow(SsaEngineError);
    expect(() => diffSnapshots(undefined, null as never)).toThrow(SsaEngineError);
  });
  it('__proto__ keys do not pollute', () => {
    const o = JSON.parse('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"n","managedFields":[{"manager":"m","operation":"Apply","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:__proto__":{}}}}]},"data":{"__proto__":"x"}}');
    const d = diffSnapshots(undefined, { type: CONFIGMAP, object: o });
    expect(d.transitions.map((t) => t.path)).toEqual(['.data.__proto__']);
    expect(({} as Record<string, unknown>)['x']).toBeUndefined();
  });
});
