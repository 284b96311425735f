import { pino } from 'pino';
import type { Observation } from '../../common/src/index.js';
import type { ApiResource } from './discovery.js';
import type { KubeClient, Query } from './kube-client.js';
import { KubeError, kubeErrorFromStatus } from './kube.exception.js';
import { ResourceWatch, type KnownObject, type WatchSink } from './resource-watch.js';

// The list/watch state machine against a scripted fake server (no I/O).

const resource: ApiResource = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true };
const cm = (uid: string, rv: string, namespace = 'default') => ({ metadata: { uid, name: uid, namespace, resourceVersion: rv } });

type Script = {
  lists: (() => unknown)[];
  watches: ((onLine: (l: unknown) => Promise<void>, query: Query) => Promise<void>)[];
  /** Answers to the position checks (`resourceVersionMatch=NotOlderThan&limit=1`); none left: the position is fine. */
  probes?: (() => unknown)[];
};

function fakeClient(script: Script) {
  const calls: string[] = [];
  const probes: string[] = [];
  /** The `limit` of each list page asked for. */
  const limits: number[] = [];
  const client = {
    cluster: 'c',
    async jsonSized(path: string, query: Query) {
      if (query['resourceVersionMatch'] !== 'NotOlderThan') limits.push(Number(query['limit']));
      const body = await client.json(path, query);
      return { body, bytes: Buffer.byteLength(JSON.stringify(body)) };
    },
    async json(_path: string, query: Query) {
      if (query['resourceVersionMatch'] === 'NotOlderThan') {
        probes.push(String(query['resourceVersion']));
        const next = script.probes?.shift();
        return next ? next() : { metadata: { resourceVersion: String(query['resourceVersion']) }, items: [] };
      }
      calls.push(`list ${query['continue'] ?? ''}`.trim());
      const next = script.lists.shift();
      if (!next) throw new KubeError('NETWORK', 'no more lists');
      return next();
    },
    async stream(_path: string, query: Query, onLine: (l: unknown) => Promise<void>, signal: AbortSignal) {
      calls.push(`watch ${query['resourceVersion']}`);
      // Like the real stream: an abort (stop, or the stall timer) ends it with the abort's reason.
      const aborted = new Promise<void>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
      const next = script.watches.shift();
      return next ? Promise.race([next(onLine, query), aborted]) : aborted;
    },
  };
  return { client: client as unknown as KubeClient, calls, probes, limits };
}

function sink() {
  const pushed: { obs: Observation[]; position?: string; bytes?: number }[] = [];
  let settled = 0;
  const s: WatchSink = {
    async push(_r, obs, position, bytes) {
      pushed.push({ obs: [...obs], ...(position ? { position } : {}), ...(bytes ? { bytes } : {}) });
    },
    async settle() {
      settled++;
    },
  };
  return { s, pushed, settled: () => settled };
}

const flat = (pushed: { obs: Observation[] }[]) => pushed.flatMap((p) => p.obs.map((o) => `${o.type} ${o.source} ${o.object.metadata.uid}@${o.object.metadata.resourceVersion}`));
const opts = (known: KnownObject[] = [], extra = {}) => ({ pageSize: 2, stallTimeoutMs: 10_000, backoffInitialMs: 1, backoffMaxMs: 5, liveObjects: async () => known, ...extra });
/** Polls `f` every 5 ms until it holds, for up to 10 s (a loaded machine runs the watch's retry timers late). */
const until = async (f: () => boolean) => {
  for (let i = 0; i < 2000 && !f(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(f()).toBe(true);
};
const silent = pino({ level: 'silent' });

/** Every watch a test starts is stopped after it, passed or failed: a failed test must not leave a retry loop running. */
const started: ResourceWatch[] = [];
const watch = (...args: ConstructorParameters<typeof ResourceWatch>) => {
  const w = new ResourceWatch(...args);
  started.push(w);
  return w;
};
afterEach(async () => {
  await Promise.all(started.splice(0).map((w) => w.stop()));
});

describe('ResourceWatch', () => {
  it('lists every page, then watches from the list resourceVersion, moving its position with events and bookmarks', async () => {
    const { client, calls } = fakeClient({
      lists: [() => ({ metadata: { resourceVersion: '10', continue: 'p2' }, items: [cm('a', '3'), cm('b', '4')] }), () => ({ metadata: { resourceVersion: '10' }, items: [cm('c', '5')] })],
      watches: [
        async (on) => {
          await on({ type: 'MODIFIED', object: cm('a', '11') });
          await on({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '15' } } });
        },
        async (on) => on({ type: 'DELETED', object: cm('b', '16') }),
      ],
    });
    const { s, pushed } = sink();
    const w = watch(client, resource, s, opts(), silent);
    w.start();
    await until(() => flat(pushed).length === 5);
    await w.stop();
    expect(calls.slice(0, 5)).toEqual(['list', 'list p2', 'watch 10', 'watch 15', 'watch 16']);
    expect(flat(pushed)).toEqual(['ADDED relist a@3', 'ADDED relist b@4', 'ADDED relist c@5', 'MODIFIED watch a@11', 'DELETED watch b@16']);
    expect(pushed.map((p) => p.position).filter(Boolean)).toEqual(['10', '11', '15', '16']);
    expect(w.isSynced).toBe(true);
  });

  /** A 300 KB ConfigMap; a list page of `items` (with a continue token where given). */
  const big = (uid: string) => ({ ...cm(uid, '3'), data: { v: 'x'.repeat(300_000) } });
  const page = (items: unknown[], cont?: string) => () => ({ metadata: { resourceVersion: '10', ...(cont ? { continue: cont } : {}) }, items });
  /** Lists with pages of at most 500 objects and about 1 MB: the limits asked, what was pushed. */
  async function listInPagesOfAMegabyte(lists: Script['lists']) {
    const { client, limits } = fakeClient({ lists, watches: [] });
    const { s, pushed } = sink();
    const w = watch(client, resource, s, opts([], { pageSize: 500, pageBytes: 1_000_000 }), silent);
    w.start();
    await until(() => pushed.some((p) => p.position === '10'));
    await w.stop();
    return { limits, pushed };
  }

  it('sizes each list page by the bytes per object of the pages before, and hands each page on with its bytes', async () => {
    const { limits, pushed } = await listInPagesOfAMegabyte([page([big('a'), big('b')], 'p2'), page([big('c')], 'p3'), page([cm('d', '4')])]);
    // The first page at the largest object a cluster stores (1.5 MiB: one object), then 1 MB at ~300 KB each.
    expect(limits).toEqual([1, 3, 3]);
    const listed = pushed.filter((p) => p.obs.length > 0);
    expect(listed.map((p) => p.obs.length)).toEqual([2, 1, 1]);
    expect(listed[0]!.bytes).toBeGreaterThan(600_000);
    expect(listed[1]!.bytes).toBeGreaterThan(300_000);
    expect(listed[2]!.bytes).toBeLessThan(1_000);
  });

  it('asks a page again with the limit before where the server refuses a continue token with another, and keeps that limit', async () => {
    const refused = () => {
      throw kubeErrorFromStatus(400, { code: 400, reason: 'BadRequest', message: 'continue key is not valid' }, 'list');
    };
    const { limits, pushed } = await listInPagesOfAMegabyte([page([big('a')], 'p2'), refused, page([big('b')], 'p3'), page([big('c')])]);
    expect(limits).toEqual([1, 3, 1, 1]);
    expect(flat(pushed)).toEqual(['ADDED relist a@3', 'ADDED relist b@3', 'ADDED relist c@3']);
  });

  it('resumes from a stored position without listing; a 410 settles, relists and hands over the difference', async () => {
    const { client, calls } = fakeClient({
      lists: [() => ({ metadata: { resourceVersion: '50' }, items: [cm('a', '40'), cm('new', '45')] })],
      watches: [async (on) => on({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired', message: 'too old' } })],
    });
    const { s, pushed, settled } = sink();
    const known = [{ uid: 'a', name: 'a', namespace: 'default' }, { uid: 'gone', name: 'gone', namespace: 'default' }];
    const w = watch(client, resource, s, opts(known, { resumeFrom: '20' }), silent);
    w.start();
    await until(() => calls.includes('watch 50'));
    await w.stop();
    expect(calls.slice(0, 3)).toEqual(['watch 20', 'list', 'watch 50']);
    expect(settled()).toBe(1);
    expect(flat(pushed)).toEqual(['MODIFIED gap-fill a@40', 'ADDED gap-fill new@45', 'DELETED gap-fill gone@deleted-before-50']);
  });

  it('skips objects of rejected namespaces and objects without uid, but keeps moving', async () => {
    const { client } = fakeClient({
      lists: [() => ({ metadata: { resourceVersion: '10' }, items: [cm('a', '3', 'kube-system'), { metadata: { name: 'x' } }, cm('b', '4')] })],
      watches: [],
    });
    const { s, pushed } = sink();
    const w = watch(client, resource, s, opts([], { namespaceFilter: (n: string) => !n.startsWith('kube-') }), silent);
    w.start();
    await until(() => pushed.some((p) => p.position === '10'));
    await w.stop();
    expect(flat(pushed)).toEqual(['ADDED relist b@4']);
  });

  it('retries errors with backoff, and a forbidden resource does not hold readiness back', async () => {
    let lists = 0;
    const { client } = fakeClient({
      lists: Array.from({ length: 50 }, () => () => {
        lists++;
        throw new KubeError('HTTP', 'forbidden', 403);
      }),
      watches: [],
    });
    const { s } = sink();
    const restarts: string[] = [];
    const w = watch(client, resource, s, opts(), silent, { onRestart: (_r, reason) => restarts.push(reason) });
    w.start();
    await until(() => lists >= 3);
    await w.stop();
    expect(w.isSynced).toBe(true);
    expect(restarts.every((r) => r === 'error')).toBe(true);
  });

  it('restarts a watch that goes silent', async () => {
    const { client, calls } = fakeClient({ lists: [], watches: [() => new Promise<void>(() => undefined)] });
    const { s } = sink();
    const restarts: string[] = [];
    const w = watch(client, resource, s, opts([], { resumeFrom: '7', stallTimeoutMs: 30 }), silent, { onRestart: (_r, reason) => restarts.push(reason) });
    w.start();
    await until(() => calls.filter((c) => c === 'watch 7').length >= 2);
    await w.stop();
    expect(restarts[0]).toBe('stalled');
  });

  describe('a resourceVersion the server has not reached (Too large resource version)', () => {
    const tooLarge = { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'Timeout: Too large resource version: 900, current: 12', reason: 'Timeout', details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 }, code: 504 };
    const known = [{ uid: 'old', name: 'old', namespace: 'default' }];
    const newList = () => ({ metadata: { resourceVersion: '12' }, items: [cm('new', '11')] });

    const viaProbe = (): Partial<Script> => ({ probes: [() => { throw new KubeError('TOO_LARGE', 'Timeout: Too large resource version', 504); }], watches: [] });
    const viaEvent = (): Partial<Script> => ({ watches: [async (on) => on({ type: 'ERROR', object: tooLarge })] });
    it.each([
      ['the position check (504 on the list)', viaProbe],
      ['an ERROR event on the watch', viaEvent],
    ])('relists with reason too-large when %s says so, and hands over the difference as gap-fill', async (_what, script) => {
      const { client, calls, probes } = fakeClient({ lists: [newList], watches: [], ...script() });
      const { s, pushed, settled } = sink();
      const relists: string[] = [];
      const w = watch(client, resource, s, opts(known, { resumeFrom: '900' }), silent, { onRelist: (_r, reason, _s, objects, deleted) => relists.push(`${reason} ${objects} ${deleted}`) });
      w.start();
      await until(() => calls.includes('watch 12'));
      await w.stop();
      expect(probes[0]).toBe('900');
      expect(relists).toEqual(['too-large 1 1']);
      expect(settled()).toBe(1);
      expect(flat(pushed)).toEqual(['ADDED gap-fill new@11', 'DELETED gap-fill old@deleted-before-12']);
    });

    it('checks a position again before resuming after a watch ends, not right after a list', async () => {
      const { client, calls, probes } = fakeClient({
        lists: [() => ({ metadata: { resourceVersion: '10' }, items: [] })],
        watches: [async (on) => on({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '15' } } })],
      });
      const { s } = sink();
      const w = watch(client, resource, s, opts(), silent);
      w.start();
      await until(() => calls.includes('watch 15'));
      await w.stop();
      expect(probes).toEqual(['15']);
    });

    it('recognises the error as client-go does: the cause type, or Timeout with the message (apiservers before 1.19)', () => {
      expect(kubeErrorFromStatus(504, tooLarge, 'w').code).toBe('TOO_LARGE');
      expect(kubeErrorFromStatus(504, { reason: 'Timeout', message: 'Timeout: Too large resource version: 5, current: 3', code: 504 }, 'w').code).toBe('TOO_LARGE');
      expect(kubeErrorFromStatus(504, { reason: 'Timeout', message: 'Timeout: request did not complete', code: 504 }, 'w').code).toBe('HTTP');
      expect(kubeErrorFromStatus(410, { reason: 'Expired', code: 410 }, 'w').code).toBe('GONE');
    });
  });

  it('reports the failure it is stuck in (since the first error, the latest message) until the server answers again', async () => {
    // The third position check answers only once the test has seen the second failure: the state
    // between two retries lasts a few milliseconds, shorter than a poll on a loaded machine.
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const { client, probes } = fakeClient({
      lists: [() => ({ metadata: { resourceVersion: '10' }, items: [] })],
      watches: [async () => Promise.reject(new KubeError('NETWORK', 'connect ECONNREFUSED'))],
      probes: [
        () => {
          throw new KubeError('NETWORK', 'connect ECONNREFUSED (1)');
        },
        () => {
          throw new KubeError('NETWORK', 'connect ECONNREFUSED (2)');
        },
        async () => {
          await answered;
          return { metadata: { resourceVersion: '10' }, items: [] };
        },
      ],
    });
    const w = watch(client, resource, sink().s, opts(), silent);
    expect(w.failure).toBeUndefined();
    const started = Date.now();
    w.start();
    await until(() => w.failure !== undefined);
    const first = w.failure!.since;
    expect(first).toBeGreaterThanOrEqual(started);
    await until(() => w.failure?.error === 'connect ECONNREFUSED (2)');
    expect(w.failure!.since).toBe(first);
    // The third position check answers: no failure any more.
    answer();
    await until(() => w.failure === undefined);
    expect(probes).toEqual(['10', '10', '10']);
    await w.stop();
  });
});
