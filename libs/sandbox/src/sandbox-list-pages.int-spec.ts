import { startSandbox, type Sandbox } from './index.js';

// Paged lists as etcd serves them: every page as of the first page's resourceVersion, whatever
// changes meanwhile (a watch from that version then brings the changes, newer than every item).

describe('sandbox: paged lists are one consistent snapshot', () => {
  let sb: Sandbox;
  const base = () => `${sb.url}/api/v1/namespaces/default/configmaps`;
  const json = async (url: string, init?: RequestInit) => {
    const res = await fetch(url, init);
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    sb = await startSandbox({ port: 0 });
    for (const name of ['a', 'b', 'c']) {
      await json(base(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { v: '1' } }) });
    }
  });
  afterAll(() => sb?.close());

  it('later pages hold the objects as of the first page: nothing newer than the list resourceVersion', async () => {
    const first = await json(`${base()}?limit=1`);
    const listRv = Number(first.body.metadata.resourceVersion);
    expect(first.body.items.map((o: any) => o.metadata.name)).toEqual(['a']);
    // Changed and deleted after the first page.
    await json(`${base()}/c`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ data: { v: '2' } }) });
    await json(`${base()}/b`, { method: 'DELETE' });
    const rest = await json(`${base()}?limit=5&continue=${encodeURIComponent(first.body.metadata.continue)}`);
    expect(rest.status).toBe(200);
    expect(rest.body.metadata.resourceVersion).toBe(String(listRv));
    expect(rest.body.items.map((o: any) => [o.metadata.name, o.data.v])).toEqual([['b', '1'], ['c', '1']]);
    for (const o of rest.body.items) expect(Number(o.metadata.resourceVersion)).toBeLessThanOrEqual(listRv);
  });

  it('a continue token of no list the sandbox keeps is 410 Expired, as after an etcd compaction', async () => {
    const stale = Buffer.from(JSON.stringify({ rv: '1', start: 'default/a' })).toString('base64');
    const res = await json(`${base()}?limit=1&continue=${encodeURIComponent(stale)}`);
    expect(res.status).toBe(410);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'Expired', code: 410 });
  });
});
