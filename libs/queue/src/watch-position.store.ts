import { Redis } from 'ioredis';
import type { QueueConfig } from '../../config/src/index.js';

/**
 * Where the watcher resumes from: per cluster and resource, the resourceVersion up to which every
 * observation is in the queue. It lives beside the queue (same Redis, same prefix) because it is only
 * true together with the queue's content: written right after the jobs it covers were added.
 */
export interface WatchPositionStore {
  load(cluster: string): Promise<Map<string, string>>;
  save(cluster: string, positions: ReadonlyMap<string, string>): Promise<void>;
  /** Forgets a resource that is no longer served (a deleted CRD): if it comes back, it is listed afresh. */
  remove(cluster: string, resource: string): Promise<void>;
  close(): Promise<void>;
}

/** Positions in a Redis hash per cluster (`<prefix>:watch-positions:<cluster>`). */
export class RedisWatchPositionStore implements WatchPositionStore {
  private readonly redis: Redis;

  constructor(redisUrl: string, private readonly prefix: string) {
    this.redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
    this.redis.on('error', () => undefined); // commands report their own errors
  }

  private key(cluster: string): string {
    return `${this.prefix}:watch-positions:${cluster}`;
  }

  async load(cluster: string): Promise<Map<string, string>> {
    return new Map(Object.entries(await this.redis.hgetall(this.key(cluster))));
  }

  async save(cluster: string, positions: ReadonlyMap<string, string>): Promise<void> {
    if (positions.size > 0) await this.redis.hset(this.key(cluster), Object.fromEntries(positions));
  }

  async remove(cluster: string, resource: string): Promise<void> {
    await this.redis.hdel(this.key(cluster), resource);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}

/** In-process jobs live in memory, and so do their positions: a restart relists (and diffs with the store). */
export class MemoryWatchPositionStore implements WatchPositionStore {
  private readonly positions = new Map<string, Map<string, string>>();

  async load(cluster: string): Promise<Map<string, string>> {
    return new Map(this.positions.get(cluster));
  }

  async save(cluster: string, positions: ReadonlyMap<string, string>): Promise<void> {
    const m = this.positions.get(cluster) ?? new Map<string, string>();
    for (const [k, v] of positions) m.set(k, v);
    this.positions.set(cluster, m);
  }

  async remove(cluster: string, resource: string): Promise<void> {
    this.positions.get(cluster)?.delete(resource);
  }

  async close(): Promise<void> {}
}

export function createWatchPositionStore(config: QueueConfig): WatchPositionStore {
  return config.transport.driver === 'bullmq' ? new RedisWatchPositionStore(config.transport.redisUrl, config.prefix) : new MemoryWatchPositionStore();
}
