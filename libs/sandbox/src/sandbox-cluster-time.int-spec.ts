import { request } from 'node:http';
import { startSandbox, type Sandbox } from './index.js';

// resourceVersions the sandbox never issued (ahead of its store), and a new cluster behind the same URL.

interface WatchLine {
  type: string;
  object: Record<string, any>;
}

/** A watch whose lines are collected; `ended` resolves when the server ends the response. */
function openWatch(url: string): { lines: WatchLine[]; status: Promise<number>; ended: Promise<void>; close: () => void } {
  const lines: WatchLine[] = [];
  let buf = '';
  let onStatus: (n: number) => void = () => {};
  let onEnd: () => void = () => {};
  const status = new Promise<number>((r) => (onStatus = r));
  const ended = new Promise<void>((r) => (onEnd = r));
  const req = request(url, (res) => {
    onStatus(res.statusCode ?? 0);
    res.on('data', (d: Buffer) => {
      buf += d.toString();
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        lines.push(JSON.parse(buf.slice(0, i)) as WatchLine);
        buf = buf.slice(i + 1);
      }
    });
    res.on('end', () => onEnd());
    res.on('close', () => onEnd());
    res.on('error', () => onEnd());
  });
  req.on('error', () => onEnd());
  req.end();
  return { lines, status, ended, close: () => req.destroy() };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { v: '1' } });

describe('sandbox: resourceVersions ahead of the store, and replace()', () => {
  let sb: Sandbox;
  const base = () => `${sb.url}/api/v1/namespaces/default/configmaps`;
  const create = async (name: string) => (await (await fetch(base(), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(cm(name)) })).json()) as any;

  beforeEach(async () => {
    sb = await startSandbox({ port: 0, bookmarkIntervalMs: 50, freshnessWaitMs: 200 });
  });
  afterEach(async () => {
    await sb.close();
  });

  it('answers a paged list ahead of the store at once with 504 Timeout, cause ResourceVersionTooLarge (etcd: no retry hint)', async () => {
    const current = sb.cluster.store.resourceVersion;
    const started = Date.now();
    const res = await fetch(`${base()}?limit=1&resourceVersion=${current + 100}&resourceVersionMatch=NotOlderThan`);
    expect(Date.now() - started).toBeLessThan(150);
    expect(res.status).toBe(504);
    expect(await res.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `Timeout: Too large resource version: ${current + 100}, current: ${current}`,
      reason: 'Timeout',
      details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }] },
      code: 504,
    });
  });

  it('lets an unpaged list (the watch cache) wait for the resourceVersion, then 504 with retryAfterSeconds 1', async () => {
    const current = sb.cluster.store.resourceVersion;
    const started = Date.now();
    const res = await fetch(`${base()}?resourceVersion=${current + 5}`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(res.status).toBe(504);
    expect(((await res.json()) as any).details).toEqual({ causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 });

    // Reached while waiting: served.
    const waiting = fetch(`${base()}?resourceVersion=${sb.cluster.store.resourceVersion + 1}&resourceVersionMatch=NotOlderThan`);
    await sleep(50);
    await create('arrives');
    const ok = await waiting;
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as any).items.map((i: any) => i.metadata.name)).toEqual(['arrives']);
  });

  it('ends a watch with sendInitialEvents at a resourceVersion ahead of the store with one ERROR event (504 Timeout)', async () => {
    const current = sb.cluster.store.resourceVersion;
    const w = openWatch(`${base()}?watch=1&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&resourceVersion=${current + 9}`);
    expect(await w.status).toBe(200);
    await w.ended;
    expect(w.lines).toEqual([
      {
        type: 'ERROR',
        object: expect.objectContaining({ reason: 'Timeout', code: 504, message: `Timeout: Too large resource version: ${current + 9}, current: ${current}`, details: expect.objectContaining({ retryAfterSeconds: 1 }) }),
      },
    ]);
  });

  it('accepts a plain watch ahead of the store and keeps it silent (no event, no bookmark) until the store passes it', async () => {
    const current = sb.cluster.store.resourceVersion;
    const w = openWatch(`${base()}?watch=1&allowWatchBookmarks=true&resourceVersion=${current + 2}`);
    expect(await w.status).toBe(200);
    await create('a'); // current + 1: not newer than asked
    await sleep(150);
    expect(w.lines).toEqual([]);
    await create('b'); // current + 2: not newer than asked
    await create('c'); // current + 3
    await sleep(150);
    w.close();
    expect(w.lines[0]).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'c', resourceVersion: String(current + 3) } } });
    expect(w.lines.slice(1).every((l) => l.type === 'BOOKMARK')).toBe(true);
  });

  it('replace(): a new cluster behind the same URL, kube-system with a new uid, resourceVersions low again, watches ended', async () => {
    const ns = async () => (await (await fetch(`${sb.url}/api/v1/namespaces/kube-system`)).json()) as any;
    const before = await ns();
    expect(before.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect((await ns()).metadata.uid).toBe(before.metadata.uid); // stable within one cluster
    for (let i = 0; i < 20; i++) await create(`old-${i}`);
    const oldRv = sb.cluster.store.resourceVersion;
    const w = openWatch(`${base()}?watch=1&resourceVersion=${oldRv}`);
    expect(await w.status).toBe(200);

    const res = await fetch(`${sb.url}/sandbox/replace`, { method: 'POST' });
    expect(res.status).toBe(200);
    await w.ended;
    await sleep(50); // lets the client see its pooled connections closed too

    const after = await ns();
    expect(after.metadata.uid).not.toBe(before.metadata.uid);
    const list = (await (await fetch(base())).json()) as any;
    expect(list.items).toEqual([]);
    expect(Number(list.metadata.resourceVersion)).toBeLessThan(oldRv);
    const names = ((await (await fetch(`${sb.url}/api/v1/namespaces`)).json()) as any).items.map((i: any) => i.metadata.name);
    expect(names).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    // The old position is ahead of the new cluster.
    expect((await fetch(`${base()}?limit=1&resourceVersion=${oldRv}&resourceVersionMatch=NotOlderThan`)).status).toBe(504);
    // replace() in process does the same.
    const c = sb.replace();
    expect(sb.cluster).toBe(c);
    await sleep(50);
    expect((await ns()).metadata.uid).not.toBe(after.metadata.uid);
  });
});
