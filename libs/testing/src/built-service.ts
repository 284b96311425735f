import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { freePort } from './free-port.js';
import type { TestContext } from './test-context.js';
import { waitFor } from './wait-for.js';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../../..');

/** The BUILT service (`node dist/apps/main.js all`, `npm run build` first) as a child process. */
export interface BuiltService {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Its stdout so far (JSON log lines). */
  readonly stdout: () => string;
  /** A request to its API, the JSON answer back; throws with the status and body on an error status. */
  api<T>(path: string, init?: RequestInit): Promise<T>;
  stop(): Promise<void>;
}

/** Starts the built service on the test context's database and Redis, watching `kubeconfig`, and waits for /readyz. */
export async function startBuiltService(ctx: TestContext, kubeconfig: string, env: Record<string, string> = {}): Promise<BuiltService> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const { NODE_OPTIONS: _n, DATABASE_URL: _d, REDIS_URL: _r, ...inherited } = process.env;
  const child: ChildProcess = spawn(process.execPath, ['dist/apps/main.js', 'all'], {
    cwd: ROOT,
    env: {
      ...inherited,
      ...ctx.env({ PORT: String(port), LOG_LEVEL: 'info', KUBECONFIG: kubeconfig, WATCHER_PORT: '0', LEADER_ELECTION: 'false', WATCH_BATCH_DELAY_MS: '20', ...env }),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  try {
    await waitFor('/readyz', async () => {
      // Exited before it was ready (its port taken, a bad setting): said at once, not after the timeout.
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the service exited (${child.exitCode ?? child.signalCode}) before /readyz answered; its stderr is above`);
      return (await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200;
    }, 120_000, 250);
  } catch (e) {
    await stop();
    throw e;
  }
  const api = async <T>(path: string, init?: RequestInit): Promise<T> => {
    const r = await fetch(`${url}${path}`, init);
    if (r.status >= 300) throw new Error(`${init?.method ?? 'GET'} ${path} → ${r.status} ${await r.text()}`);
    return (await r.json()) as T;
  };
  return { url, stdout: () => stdout, api, stop };
}
