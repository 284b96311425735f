import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { APP_CONFIG, type AppConfig } from '../../../libs/config/src/index.js';
import { LOGGER, METRICS, type ClusterHealth, type Metrics } from '../../../libs/common/src/index.js';
import { KubeError, clusterIdentity, loadClusters, type KubeClient } from '../../../libs/kube/src/index.js';
import { IngestProducer, QUEUE_DRIVER, SchemaProducer, type QueueDriver } from '../../../libs/queue/src/index.js';
import { LiveObjectsRepository, WatchPositionRepository } from '../../../libs/store/src/index.js';
import { ClusterWatcher } from './cluster-watcher.js';

/** Readiness of the watcher role, per cluster. */
export interface WatcherStatus {
  readonly ready: boolean;
  readonly clusters: readonly { cluster: string; leader: boolean; ready: boolean; resources: number; health: ClusterHealth }[];
}

/**
 * The watcher role: one {@link ClusterWatcher} per configured cluster, and a small HTTP endpoint of its
 * own (`/healthz`, `/readyz` — 503 while initial lists run — and `/metrics`), since the role may run
 * without the API. It writes nothing to the database: it enqueues observations (and the OpenAPI
 * documents it downloads, for the schema job). Its resume positions travel with the ingest jobs and
 * are committed with the events (WatchPositionRepository); it only reads them back.
 */
@Injectable()
export class WatcherService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private watchers: ClusterWatcher[] = [];
  private server: Server | undefined;
  private unregister: (() => void)[] = [];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(METRICS) private readonly metrics: Metrics,
    @Inject(IngestProducer) private readonly producer: IngestProducer,
    @Inject(QUEUE_DRIVER) private readonly driver: QueueDriver,
    @Inject(LiveObjectsRepository) private readonly live: LiveObjectsRepository,
    @Inject(WatchPositionRepository) private readonly positions: WatchPositionRepository,
    @Inject(SchemaProducer) private readonly schemas: SchemaProducer,
  ) {}

  /** `http://127.0.0.1:PORT` of /readyz and /metrics. */
  get url(): string | undefined {
    const a = this.server?.address() as AddressInfo | null | undefined;
    return a ? `http://127.0.0.1:${a.port}` : undefined;
  }

  get clusterWatchers(): readonly ClusterWatcher[] {
    return this.watchers;
  }

  status(): WatcherStatus {
    const clusters = this.watchers.map((w) => ({ cluster: w.cluster, leader: w.isLeader, ready: w.isReady, resources: w.watchedResources.length, health: w.health() }));
    return { ready: clusters.every((c) => c.ready), clusters };
  }

  async onApplicationBootstrap(): Promise<void> {
    const log = this.logger.child({ component: 'watcher' });
    const clients: KubeClient[] = loadClusters(this.config.kube);
    if (clients.length === 0) log.warn('no cluster configured (no KUBECONFIG, no ~/.kube/config, not in a pod): watching nothing');
    this.watchers = clients.map(
      (client) =>
        new ClusterWatcher(
          client,
          this.config,
          {
            enqueue: (o, checkpoint) => this.producer.enqueue(o, checkpoint),
            queueDepth: () => this.driver.pending('ingest'),
            loadPositions: (cluster, uid) => this.positions.load(cluster, uid, this.config.queue.ingestShards),
            clusterIdentity: (signal) => identityOf(client, signal),
            onQueueLost: (listener) => this.driver.onQueueLost(listener),
            liveObjects: (c, g, r) => this.live.liveObjects(c, g, r),
            storeSchemas: (c, documents, paths) => this.schemas.enqueue(c, documents, paths),
          },
          this.metrics,
          log,
        ),
    );
    this.unregister = this.watchers.map((w) => this.metrics.clusters.register(w.cluster, () => w.health()));
    await this.listen(log);
    for (const w of this.watchers) w.start();
    log.info({ clusters: this.watchers.map((w) => w.cluster), url: this.url, leaderElection: this.config.watcher.leaderElection.enabled }, 'watcher started');
  }

  // Before the queue closes (QueueModule closes it in its own beforeApplicationShutdown, registered earlier).
  async beforeApplicationShutdown(): Promise<void> {
    const started = Date.now();
    await Promise.all(this.watchers.map((w) => w.stop()));
    for (const u of this.unregister) u();
    // close() waits for open connections: end them at once (a scraper's keep-alive would hold it).
    const closed = new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server?.closeAllConnections();
    await closed;
    this.logger.info({ component: 'watcher', ms: Date.now() - started }, 'watcher stopped');
  }

  private listen(log: Logger): Promise<void> {
    this.server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/healthz') return void res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"status":"ok"}');
      if (path === '/readyz') {
        const s = this.status();
        return void res.writeHead(s.ready ? 200 : 503, { 'Content-Type': 'application/json' }).end(JSON.stringify(s));
      }
      if (path === '/metrics') {
        this.metrics.registry.metrics().then(
          (text) => res.writeHead(200, { 'Content-Type': this.metrics.registry.contentType }).end(text),
          (e: unknown) => res.writeHead(500).end(String(e)),
        );
        return;
      }
      res.writeHead(404).end();
    });
    // A busy port must not stop the watching itself: say so loudly and go on without the endpoint.
    return new Promise((resolve) => {
      this.server!.once('error', (e) => {
        log.error({ err: e, port: this.config.watcher.port }, 'watcher HTTP port unavailable: /readyz and /metrics of the watcher are off');
        this.server = undefined;
        resolve();
      });
      this.server!.listen(this.config.watcher.port, '0.0.0.0', () => resolve());
    });
  }
}

/**
 * The cluster's identity for its resume positions; '' when RBAC or the cluster does not let us read
 * it (403/404: positions are then kept under '' and a replaced cluster is caught only by its watches).
 */
async function identityOf(client: KubeClient, signal?: AbortSignal): Promise<string> {
  try {
    return await clusterIdentity(client, signal);
  } catch (e) {
    if (e instanceof KubeError && (e.status === 403 || e.status === 404)) return '';
    throw e;
  }
}
