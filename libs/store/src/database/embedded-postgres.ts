import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/** PGlite served on a loopback port, so `pg`, TypeORM and the migrations run unchanged. */
export interface EmbeddedPostgres {
  readonly url: string;
  close(): Promise<void>;
}

export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  await mkdir(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir);
  // The service uses one connection; a second slot lets a reconnect in before the old socket is reaped.
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 2 });
  await server.start();
  return {
    url: `postgres://postgres@${server.getServerConn()}/postgres`,
    async close() {
      await server.stop();
      await db.close();
    },
  };
}
