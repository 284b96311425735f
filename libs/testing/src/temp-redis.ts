import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { waitFor } from './wait-for.js';
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

/** Where a RESP reply starting at `at` ends, or -1 while it is incomplete. */
function replyEnd(text: string, at = 0): number {
  const eol = text.indexOf('\r\n', at);
  if (eol < 0) return -1;
  const head = text.slice(at + 1, eol);
  switch (text[at]) {
    case '$': {
      const n = Number(head);
      if (n < 0) return eol + 2;
      return text.length >= eol + 2 + n + 2 ? eol + 2 + n + 2 : -1;
    }
    case '*': {
      let end = eol + 2;
      for (let i = 0; i < Number(head); i++) {
        end = replyEnd(text, end);
        if (end < 0) return -1;
      }
      return end;
    }
    default:
      return eol + 2; // + - :
  }
}

/** Sends one inline command and resolves with its whole RESP reply, as sent (`+OK\r\n`, `$1\r\nv\r\n`, …). */
export function redisCommand(port: number, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    let reply = '';
    s.once('error', reject);
    s.on('data', (d: Buffer) => {
      reply += d.toString();
      if (replyEnd(reply) >= 0) {
        s.destroy();
        resolve(reply);
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
    await waitFor(`redis-server on port ${port} to answer PING`, async () => {
      if (c.exitCode !== null) throw new Error(`redis-server on port ${port} exited ${c.exitCode}`);
      return (await redisCommand(port, 'PING').catch(() => '')) === '+PONG\r\n';
    }, 10_000, 20);
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
      const r = await redisCommand(port, 'FLUSHALL');
      if (r !== '+OK\r\n') throw new Error(`FLUSHALL answered ${r}`);
    },
    stop,
    start,
    dispose: stop,
  };
}
