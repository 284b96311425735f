import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/** PGlite served on a loopback port, so `pg`, TypeORM and the migrations run unchanged. */
export interface EmbeddedPostgres {
  readonly url: string;
  /** PGlite is one session: the socket server queues statements and keeps a transaction on its connection. */
  readonly maxConnections: number;
  close(): Promise<void>;
}

export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  await mkdir(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir);
  const maxConnections = 4;
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections });
  await server.start();
  return {
    url: `postgres://postgres@${server.getServerConn()}/postgres`,
    maxConnections,
    async close() {
      await server.stop();
      await db.close();
    },
  };
}
