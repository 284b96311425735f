import { spawn, type ChildProcess } from 'node:child_process';
import { freePort, waitFor, type Written } from '../../libs/testing/src/index.js';
import { CM, WATCHER_TEST_ENV, configMap, createWatcherHarness, expectStoredExactly, type WatcherHarness } from './watcher-harness.js';

// The built watcher (`node dist/apps/main.js watcher`) as child processes killed with SIGKILL; the
// worker runs in this process; the sandbox serves real HTTP.

interface WatcherProcess {
  readonly child: ChildProcess;
  readonly url: string;
  kill(): Promise<void>;
}

describe('watcher process: kill -9, restart, hand-over', () => {
  let h: WatcherHarness;
  const children: ChildProcess[] = [];

  const spawnWatcher = async (env: Record<string, string> = {}): Promise<WatcherProcess> => {
    const port = await freePort();
    const child = spawn(process.execPath, ['dist/apps/main.js', 'watcher'], {
      env: { PATH: process.env['PATH'] ?? '', ...h.ctx.env({ ...WATCHER_TEST_ENV, KUBECONFIG: h.kubeconfig, WATCHER_PORT: String(port), ...env }) },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(child);
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    return {
      child,
      url: `http://127.0.0.1:${port}`,
      kill: async () => {
        child.kill('SIGKILL');
        await exited;
      },
    };
  };
  const ready = (w: WatcherProcess) =>
    waitFor('watcher process ready', async () => (await fetch(`${w.url}/readyz`).catch(() => undefined))?.status === 200, 60_000);
  const isLeader = async (w: WatcherProcess) =>
    /ssa_audit_watcher_leader\{cluster="ssa-sandbox"\} 1/.test(await (await fetch(`${w.url}/metrics`).catch(() => undefined))?.text().catch(() => '') ?? '');

  /** Patches `names` round-robin until `stop()`; records every resulting resourceVersion per uid. */
  const steadyWrites = async (names: string[]) => {
    const expected = new Map<string, string[]>();
    const record = (w: Written) => expected.set(w.uid, [...(expected.get(w.uid) ?? []), w.resourceVersion]);
    for (const n of names) record(await h.writer.create(CM, configMap(n, { v: '0' })));
    let stopped = false;
    const loop = (async () => {
      for (let i = 1; !stopped; i++) {
        record(await h.writer.patch(CM, names[i % names.length]!, { data: { v: String(i) } }));
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    return {
      expected,
      stop: async () => {
        stopped = true;
        await loop;
      },
    };
  };

  beforeAll(async () => {
    h = await createWatcherHarness('watcher-process');
    await h.start(['worker']);
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await h?.dispose();
  });

  it('killed mid-stream and restarted: no event lost, none duplicated', async () => {
    const a = await spawnWatcher({ LEADER_ELECTION: 'false' });
    await ready(a);
    const writes = await steadyWrites(Array.from({ length: 8 }, (_, i) => `restart-${i}`));
    await new Promise((r) => setTimeout(r, 2_000));
    await a.kill();
    await new Promise((r) => setTimeout(r, 2_000)); // writes go on while nobody watches
    const b = await spawnWatcher({ LEADER_ELECTION: 'false' });
    await ready(b);
    await new Promise((r) => setTimeout(r, 2_000));
    await writes.stop();
    await expectStoredExactly(h, writes.expected);
    // It resumed from its stored positions: no relist was needed.
    expect(await (await fetch(`${b.url}/metrics`)).text()).not.toMatch(/ssa_audit_watch_relists_total\{[^}]*resource="configmaps"[^}]*\} [1-9]/);
    await b.kill();
  });

  it('two watchers: one leads; killing it hands over within seconds, losing nothing', async () => {
    const lease = { LEADER_ELECTION: 'true', LEASE_DURATION_MS: '3000', LEASE_RENEW_MS: '500' };
    const x = await spawnWatcher({ ...lease, WATCHER_IDENTITY: 'watcher-x' });
    const y = await spawnWatcher({ ...lease, WATCHER_IDENTITY: 'watcher-y' });
    await Promise.all([ready(x), ready(y)]);
    const leader = await waitFor('a leader', async () => {
      const [lx, ly] = [await isLeader(x), await isLeader(y)];
      return lx !== ly ? (lx ? x : y) : undefined;
    });
    const standby = leader === x ? y : x;
    const writes = await steadyWrites(Array.from({ length: 8 }, (_, i) => `ha-${i}`));
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await isLeader(standby)).toBe(false);
    await leader.kill();
    const killedAt = Date.now();
    await waitFor('the standby leads', () => isLeader(standby), 15_000);
    const handover = Date.now() - killedAt;
    expect(handover).toBeLessThan(8_000);
    await new Promise((r) => setTimeout(r, 1_500));
    await writes.stop();
    await expectStoredExactly(h, writes.expected);
    await standby.kill();
  });
});
