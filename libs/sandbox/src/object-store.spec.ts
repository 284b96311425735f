import { ObjectStore, ResourceVersionTooOldError, type StoreEvent } from './object-store.js';

const cm = (name: string, namespace = 'default', data: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data });

describe('ObjectStore', () => {
  it('stamps increasing resourceVersions and lists sorted by namespace and name', () => {
    const s = new ObjectStore();
    const a = s.put('configmaps', cm('b'));
    const b = s.put('configmaps', cm('a', 'other'));
    const c = s.put('configmaps', cm('a'));
    expect([a, b, c].map((o) => Number((o['metadata'] as { resourceVersion: string }).resourceVersion))).toEqual([2, 3, 4]);
    expect(s.list('configmaps').map((o) => `${(o['metadata'] as any).namespace}/${(o['metadata'] as any).name}`)).toEqual(['default/a', 'default/b', 'other/a']);
    expect(s.list('configmaps', 'other')).toHaveLength(1);
    expect(s.resourceVersion).toBe(4);
  });

  it('hands out copies: changing a returned object never changes the store', () => {
    const s = new ObjectStore();
    const o = s.put('configmaps', cm('a', 'default', { k: 'v' }));
    (o['data'] as Record<string, string>)['k'] = 'changed';
    (s.get('configmaps', 'default', 'a')!['data'] as Record<string, string>)['k'] = 'changed';
    expect(s.get('configmaps', 'default', 'a')!['data']).toEqual({ k: 'v' });
  });

  it('replays history after a resourceVersion, then streams live changes', () => {
    const s = new ObjectStore();
    s.put('configmaps', cm('a'));
    const rv = s.resourceVersion;
    s.put('configmaps', cm('a', 'default', { x: '1' }));
    s.delete('configmaps', 'default', 'a');
    const seen: StoreEvent[] = [];
    const stop = s.watch({ resource: 'configmaps' }, rv, (e) => seen.push(e));
    s.put('configmaps', cm('b'));
    s.put('secrets', cm('ignored'));
    stop();
    s.put('configmaps', cm('c'));
    expect(seen.map((e) => `${e.type} ${(e.object['metadata'] as any).name} ${e.resourceVersion}`)).toEqual(['MODIFIED a 3', 'DELETED a 4', 'ADDED b 5']);
  });

  it('answers too old for resourceVersions before the kept history', () => {
    const s = new ObjectStore({ historySize: 2 });
    for (const n of ['a', 'b', 'c', 'd']) s.put('configmaps', cm(n));
    expect(() => s.watch({ resource: 'configmaps' }, 2, () => {})).toThrow(ResourceVersionTooOldError);
    expect(() => s.watch({ resource: 'configmaps' }, 3, () => {})).not.toThrow();
    s.compact();
    expect(() => s.watch({ resource: 'configmaps' }, 4, () => {})).toThrow('too old resource version: 4 (6)');
    expect(() => s.watch({ resource: 'configmaps' }, 5, () => {})).not.toThrow();
  });

  it('filters watches by namespace', () => {
    const s = new ObjectStore();
    const seen: string[] = [];
    s.watch({ resource: 'configmaps', namespace: 'x' }, undefined, (e) => seen.push((e.object['metadata'] as any).name));
    s.put('configmaps', cm('a', 'x'));
    s.put('configmaps', cm('b', 'y'));
    expect(seen).toEqual(['a']);
  });
});
