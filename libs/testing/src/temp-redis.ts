import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from './free-port.js';

/** A Redis server of its own (own port, no persistence), to restart empty under a running service. */
export interface TempRedis {
  /** `redis://127.0.0.1:PORT`. */
  readonly url: string;
  readonly port: number;
  /** Kills the server (SIGKILL) and starts a new one on the same port: it comes back empty. */
  restart(options?: { downMs?: number }): Promise<void>;
  /** FLUSHALL on the running server. */
  flushAll(): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
  dispose(): Promise<void>;
}

/** Sends one inline command and resolves with the first reply line. */
function command(port: number, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    let reply = '';
    s.once('error', reject);
    s.on('data', (d: Buffer) => {
      reply += d.toString();
      if (reply.includes('\r\n')) {
        s.destroy();
        resolve(reply.split('\r\n')[0]!);
      }
    });
    s.write(`${line}\r\n`);
  });
}

/** `redis-server` (on PATH, or `REDIS_SERVER`) on a free port with `--save "" --appendonly no`. */
export async function startTempRedis(options: { port?: number } = {}): Promise<TempRedis> {
  const port = options.port ?? (await freePort());
  const binary = process.env['REDIS_SERVER'] ?? 'redis-server';
  let child: ChildProcess | undefined;
  const start = async () => {
    const c = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'], { stdio: 'ignore' });
    child = c;
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (c.exitCode !== null) throw new Error(`redis-server on port ${port} exited ${c.exitCode}`);
      if ((await command(port, 'PING').catch(() => '')) === '+PONG') return;
      if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer PING`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const stop = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async restart({ downMs = 0 } = {}) {
      await stop();
      if (downMs > 0) await new Promise((r) => setTimeout(r, downMs));
      await start();
    },
    async flushAll() {
      const r = await command(port, 'FLUSHALL');
      if (r !== '+OK') throw new Error(`FLUSHALL answered ${r}`);
    },
    stop,
    start,
    dispose: stop,
  };
}
