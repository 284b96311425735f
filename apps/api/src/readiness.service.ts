import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, type Database } from '../../../libs/store/src/index.js';
import { QUEUE_DRIVER, type QueueDriver } from '../../../libs/queue/src/index.js';
import { METRICS, type ClusterHealth, type Metrics } from '../../../libs/common/src/index.js';

export interface ReadinessReport {
  readonly status: 'ok' | 'unavailable';
  readonly checks: Record<'database' | 'queue' | 'lanes', { status: 'ok' | 'down'; kind: string; error?: string }>;
  /**
   * Each cluster this process watches (empty without the watcher role). Detail only: a cluster behind
   * does not make the api unready, since the other clusters' answers are current.
   */
  readonly clusters: Record<string, Omit<ClusterHealth, 'cluster'>>;
}

const TIMEOUT_MS = 2000;

function withTimeout<T>(p: Promise<T>): Promise<T> {
  return Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer in ${TIMEOUT_MS} ms`)), TIMEOUT_MS).unref())]);
}

@Injectable()
export class ReadinessService {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(QUEUE_DRIVER) private readonly queue: QueueDriver,
    @Inject(METRICS) private readonly metrics: Metrics,
  ) {}

  async check(): Promise<ReadinessReport> {
    const probe = async (kind: string, f: () => Promise<unknown>) => {
      try {
        await withTimeout(f());
        return { status: 'ok' as const, kind };
      } catch (e) {
        return { status: 'down' as const, kind, error: (e as Error).message };
      }
    };
    const [database, queue, lanes] = await Promise.all([
      probe(this.db.kind, () => this.db.readDataSource.query('SELECT 1')),
      probe(this.queue.kind, () => this.queue.ping()),
      // A lane retrying a transient failure holds every later change of its objects back.
      probe('ingest lanes', async () => {
        const stuck = await this.queue.stuckLanes();
        if (stuck.length > 0) throw new Error(stuck.map((l) => `${l.lane} stuck since ${l.since}: ${l.error}`).join('; '));
      }),
    ]);
    const ok = database.status === 'ok' && queue.status === 'ok' && lanes.status === 'ok';
    const clusters = Object.fromEntries(this.metrics.clusters.report().map(({ cluster, ...health }) => [cluster, health]));
    return { status: ok ? 'ok' : 'unavailable', checks: { database, queue, lanes }, clusters };
  }
}
