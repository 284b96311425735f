import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

/** A Postgres server of its own (initdb in a temporary directory, its own port), to stop and restart under a running service. */
export interface TempPostgres {
  /** `postgres://postgres@127.0.0.1:PORT/postgres` (trust auth). */
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  /** Stops the server: `immediate` (default) is a crash (no checkpoint, clients cut), `fast` a clean shutdown. */
  stop(mode?: 'immediate' | 'fast'): Promise<void>;
  /** Starts it again on the same port and data directory (waits until it accepts connections). */
  start(): Promise<void>;
  /** stop, wait `downMs`, start: a restart or, with a long `downMs`, a failover. */
  restart(options?: { downMs?: number; mode?: 'immediate' | 'fast' }): Promise<void>;
  /** Stops it and removes the data directory. */
  dispose(): Promise<void>;
}

export interface TempPostgresOptions {
  /** Directory of initdb, pg_ctl and postgres (`PG_BIN`, else Debian's Postgres 15, 16, 17 or PATH). */
  readonly bin?: string;
  readonly port?: number;
}

function findBin(): string {
  const fromEnv = process.env['PG_BIN'];
  if (fromEnv) return fromEnv;
  for (const v of ['15', '16', '17', '14']) {
    const dir = `/usr/lib/postgresql/${v}/bin`;
    if (existsSync(join(dir, 'pg_ctl'))) return dir;
  }
  return ''; // on PATH
}

/** Postgres refuses to run as root: then its tools run as the `postgres` user, who owns the data directory. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

function run(bin: string, tool: string, args: string[], user: { uid: number; gid: number } | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin ? join(bin, tool) : tool, args, { stdio: ['ignore', 'ignore', 'pipe'], ...(user ?? {}), env: { PATH: process.env['PATH'] ?? '', LC_ALL: 'C' } });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${tool} ${args.join(' ')} exited ${code}: ${err.trim()}`))));
  });
}

/**
 * initdb into a temporary directory and `pg_ctl start` on a free port: trust auth, no fsync (test
 * data only), but synchronous commit stays on so an `immediate` stop (a crash) loses nothing the
 * server acknowledged. The socket lives in the temporary directory, so several can run side by side.
 */
export async function startTempPostgres(options: TempPostgresOptions = {}): Promise<TempPostgres> {
  const bin = options.bin ?? findBin();
  const user = runAs();
  const dir = mkdtempSync(join(tmpdir(), 'ssa-temp-pg-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const dataDir = join(dir, 'data');
  const port = options.port ?? (await freePort());
  await run(bin, 'initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions'], user);
  const settings = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c full_page_writes=off',
    '-c max_connections=200',
    '-c shared_buffers=32MB',
  ].join(' ');
  const start = () => run(bin, 'pg_ctl', ['-D', dataDir, '-o', settings, '-l', join(dir, 'postgres.log'), '-w', '-t', '60', 'start'], user);
  const stop = async (mode: 'immediate' | 'fast' = 'immediate') => {
    if (!existsSync(join(dataDir, 'postmaster.pid'))) return;
    await run(bin, 'pg_ctl', ['-D', dataDir, '-m', mode, '-w', '-t', '60', 'stop'], user);
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    stop,
    start,
    async restart({ downMs = 0, mode = 'immediate' } = {}) {
      await stop(mode);
      if (downMs > 0) await new Promise((r) => setTimeout(r, downMs));
      await start();
    },
    async dispose() {
      await stop('immediate').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
