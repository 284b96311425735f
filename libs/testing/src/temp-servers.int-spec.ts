import pg from 'pg';
import { startTempPostgres, type TempPostgres } from './temp-postgres.js';
import { redisCommand as redis, startTempRedis, type TempRedis } from './temp-redis.js';

// The fault suite's own servers: a Postgres that can be stopped and restarted, a Redis that comes back empty.

async function query(url: string, sql: string): Promise<unknown[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
}

describe('startTempPostgres', () => {
  let p: TempPostgres | undefined;
  afterAll(() => p?.dispose());

  it('serves, refuses while stopped, and keeps its data across a restart', async () => {
    p = await startTempPostgres();
    expect(p.url).toBe(`postgres://postgres@127.0.0.1:${p.port}/postgres`);
    await query(p.url, 'CREATE TABLE kept (v int); INSERT INTO kept VALUES (42)');
    await p.stop();
    await expect(query(p.url, 'SELECT 1')).rejects.toThrow();
    await p.start();
    expect(await query(p.url, 'SELECT v FROM kept')).toEqual([{ v: 42 }]);
    const t = Date.now();
    await p.restart({ downMs: 500 });
    expect(Date.now() - t).toBeGreaterThanOrEqual(500);
    expect(await query(p.url, "SELECT current_setting('fsync') AS f")).toEqual([{ f: 'off' }]);
  }, 60_000);
});

describe('startTempRedis', () => {
  let r: TempRedis | undefined;
  afterAll(() => r?.dispose());

  it('comes back empty after a restart and after flushAll', async () => {
    r = await startTempRedis();
    expect(r.url).toBe(`redis://127.0.0.1:${r.port}`);
    expect(await redis(r.port, 'SET k v')).toBe('+OK\r\n');
    expect(await redis(r.port, 'GET k')).toBe('$1\r\nv\r\n');
    await r.restart();
    expect(await redis(r.port, 'GET k')).toBe('$-1\r\n');
    await redis(r.port, 'SET k v');
    await r.flushAll();
    expect(await redis(r.port, 'GET k')).toBe('$-1\r\n');
    expect(await redis(r.port, 'CONFIG GET appendonly')).toBe('*2\r\n$10\r\nappendonly\r\n$2\r\nno\r\n');
  }, 30_000);
});
