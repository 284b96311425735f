import type { Logger } from 'pino';
import type { AppConfig } from '../../../libs/config/src/index.js';
import { sha256Hex, type ClusterHealth, type Metrics, type Observation } from '../../../libs/common/src/index.js';
import {
  LeaseElector,
  ResourceWatch,
  decideClusterHealth,
  stillFailing,
  discoverResources,
  downloadOpenApi,
  matchesPattern,
  resourceKey,
  selectResources,
  sleep,
  type ApiResource,
  type KnownObject,
  type KubeClient,
  type WatchSink,
  type FailingSince,
} from '../../../libs/kube/src/index.js';
import type { Checkpoint } from '../../../libs/queue/src/index.js';
import type { StoredWatchPositions } from '../../../libs/store/src/index.js';
import { ObservationBatcher } from './observation-batcher.js';

const hashOf = (document: unknown): string => sha256Hex(JSON.stringify(document));

export interface ClusterWatcherPorts {
  enqueue(observations: readonly Observation[], checkpoint?: Checkpoint): Promise<unknown>;
  queueDepth(): Promise<number>;
  /** The positions every ingest lane has committed, for the cluster under this identity. */
  loadPositions(cluster: string, clusterUid: string): Promise<StoredWatchPositions>;
  /** The cluster's identity: the kube-system namespace's uid ('' when it cannot be read); `signal` ends the request. */
  clusterIdentity(signal?: AbortSignal): Promise<string>;
  /** Calls back when the queue's state was lost (jobs may be gone): every resource is relisted. */
  onQueueLost(listener: (reason: string) => void): () => void;
  liveObjects(cluster: string, group: string, resource: string): Promise<readonly KnownObject[]>;
  /** Hands downloaded OpenAPI documents to the schema job; `paths` are all the cluster serves now. */
  storeSchemas(cluster: string, documents: SchemaDocument[], paths: readonly string[]): Promise<void>;
}

export interface SchemaDocument {
  readonly path: string;
  readonly format: 'openapi-v3' | 'openapi-v2';
  readonly document: Record<string, unknown>;
}

const CRDS = 'customresourcedefinitions.apiextensions.k8s.io';
/** At most one checkpoint of resume positions this often (one small transaction per ingest lane). */
const CHECKPOINT_EVERY_MS = 1_000;
/** A resource that left discovery keeps its watch this long, so the DELETED events of its objects arrive. */
const REMOVAL_GRACE_MS = 2_000;

/**
 * Everything watched in one cluster: the lease (when leader election is on), discovery (periodic, and
 * at once when a CRD changes), one {@link ResourceWatch} per selected resource, and the batcher
 * that turns their observations into ingest jobs.
 */
export class ClusterWatcher {
  private readonly elector: LeaseElector | undefined;
  private watches = new Map<string, ResourceWatch>();
  private batcher: ObservationBatcher | undefined;
  private session: AbortController | undefined;
  private sessionDone: Promise<void> | undefined;
  private rediscover: (() => void) | undefined;
  /** Hash of each OpenAPI document already handed over in this session: only changes are sent again. */
  private schemaHashes = new Map<string, string>();
  private schemaSync: Promise<void> = Promise.resolve();
  private discovered = false;
  private leading = false;
  private startedAt = 0;
  private syncedReported = false;
  /** The next session lists every resource afresh (gap-fill against the store) instead of resuming. */
  private relistNext = false;
  private restarting: Promise<void> | undefined;
  /** stop() was called: a restart scheduled before it does not start a new session. */
  private stopped = false;
  private unsubscribe: (() => void) | undefined;
  private readonly log: Logger;
  /** Reading the identity or positions, or discovery, failing without a success since. */
  private sessionFailure: FailingSince | undefined;

  constructor(
    private readonly client: KubeClient,
    private readonly config: AppConfig,
    private readonly ports: ClusterWatcherPorts,
    private readonly metrics: Metrics,
    logger: Logger,
  ) {
    this.log = logger.child({ cluster: client.cluster });
    const le = config.watcher.leaderElection;
    this.elector = le.enabled
      ? new LeaseElector(client, { namespace: le.namespace, name: le.name, identity: le.identity, durationMs: le.durationMs, renewMs: le.renewMs }, this.log, {
          onStartedLeading: () => this.startSession(),
          onStoppedLeading: () => this.stopSession(false),
        })
      : undefined;
  }

  get cluster(): string {
    return this.client.cluster;
  }

  get isLeader(): boolean {
    return this.leading;
  }

  /** Ready when standing by, or when leading and every discovered resource is listed (or its resumed watch is open). */
  get isReady(): boolean {
    if (!this.leading) return this.elector !== undefined;
    return this.discovered && [...this.watches.values()].every((w) => w.isSynced);
  }

  /** How the watching stands (behind: a list/watch failing past the grace), decided in libs/kube. */
  health(now = Date.now()): ClusterHealth {
    const failures = [...this.watches.values()].flatMap((w) => (w.failure ? [{ resource: w.key, ...w.failure }] : []));
    // Before the first discovery only the session's own requests tell; after it, the watches do.
    if (this.sessionFailure && !this.discovered) failures.push({ resource: 'discovery', ...this.sessionFailure });
    return decideClusterHealth(this.cluster, { leading: this.leading || this.elector === undefined, synced: this.isReady, failures }, now);
  }

  /** Keys (`resource.group`) of the resources being watched. */
  get watchedResources(): string[] {
    return [...this.watches.keys()].sort();
  }

  start(): void {
    this.stopped = false;
    this.unsubscribe = this.ports.onQueueLost((reason) => {
      this.metrics.clusterDiscontinuities.inc({ cluster: this.cluster, reason: 'queue-lost' });
      void this.restart(`the queue was lost (${reason})`);
    });
    if (this.elector) this.elector.start();
    else void this.startSession();
  }

  /** Graceful: flushes, and hands the lease back so a standby takes over at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    await this.restarting;
    if (this.elector) await this.elector.stop(true);
    else await this.stopSession(true);
  }

  /**
   * Ends the session (flushing what it buffered) and starts one that lists every resource again and
   * diffs it with the store: what vanished is recorded deleted, what is new added, what changed
   * modified, all marked gap-fill. Used when jobs may be lost or the cluster went back in time.
   */
  private restart(why: string): Promise<void> {
    this.restarting ??= (async () => {
      if (!this.session || this.stopped) return;
      this.log.error({ why }, 'relisting every resource with gap-fill against the store');
      await this.stopSession(true);
      this.relistNext = true;
      if (!this.stopped) this.startSession();
    })().finally(() => (this.restarting = undefined));
    return this.restarting;
  }

  private startSession(): void {
    if (this.session) return;
    this.leading = true;
    this.metrics.watcherLeader.set({ cluster: this.cluster }, 1);
    this.session = new AbortController();
    this.startedAt = Date.now();
    this.syncedReported = false;
    this.sessionDone = this.runSession(this.session.signal).catch((e: unknown) => this.log.error({ err: e }, 'watch session failed'));
  }

  private async stopSession(graceful: boolean): Promise<void> {
    if (!this.session) return;
    this.session.abort();
    await this.sessionDone;
    const watches = [...this.watches.values()];
    this.watches = new Map();
    await Promise.all(watches.map((w) => w.stop()));
    if (graceful) await this.batcher?.close();
    else this.batcher?.abandon();
    this.batcher = undefined;
    this.session = undefined;
    this.discovered = false;
    this.leading = false;
    this.metrics.watcherLeader.set({ cluster: this.cluster }, 0);
    this.metrics.watchesActive.set({ cluster: this.cluster }, 0);
  }

  private async runSession(signal: AbortSignal): Promise<void> {
    const w = this.config.watcher;
    const identity = await this.retry(() => this.ports.clusterIdentity(signal), signal, 'reading the cluster identity');
    const stored = await this.retry(() => this.ports.loadPositions(this.cluster, identity), signal, 'loading resume positions');
    const relist = this.relistNext;
    this.relistNext = false;
    if (stored.otherIdentity !== null && stored.positions.size === 0) {
      this.metrics.clusterDiscontinuities.inc({ cluster: this.cluster, reason: 'identity' });
      this.log.error({ identity, previous: stored.otherIdentity }, 'another cluster answers behind this name (kube-system uid changed): listing everything and recording the difference with the store');
    }
    const positions = relist ? new Map<string, string>() : stored.positions;
    const now = BigInt(Date.now()) * 1000n;
    const batcher = new ObservationBatcher(
      this.cluster,
      { batchSize: w.batchSize, batchBytes: w.batchBytes, batchDelayMs: w.batchDelayMs, maxQueueDepth: w.maxQueueDepth, settleTimeoutMs: w.settleTimeoutMs },
      {
        enqueue: (o, checkpoint) => this.ports.enqueue(o, checkpoint),
        queueDepth: () => this.ports.queueDepth(),
        onEnqueued: (n) => this.metrics.watchObservationsEnqueued.inc({ cluster: this.cluster }, n),
        onQueueDepth: (d) => this.metrics.watchQueueDepth.set(d),
      },
      this.log,
      { clusterUid: identity, firstFlush: now > stored.maxFlush ? now : stored.maxFlush + 1n, everyMs: CHECKPOINT_EVERY_MS },
    );
    this.batcher = batcher;
    const sink: WatchSink = {
      push: async (r, observations, position, bytes) => {
        if (observations.length > 0 || position !== undefined) this.metrics.lastWatchEventAt.set(`${this.cluster}\u0000${resourceKey(r)}`, { cluster: this.cluster, resource: resourceKey(r), at: Date.now() });
        await batcher.push(r, observations, position, bytes);
        if (resourceKey(r) === CRDS && observations.length > 0) this.rediscover?.();
      },
      settle: () => batcher.settle(),
    };
    // Jobs of the last session still queued go in before the relist is diffed with the store.
    if (relist) await batcher.settle();
    this.schemaHashes = new Map();
    let schemasDue = true;
    while (!signal.aborted) {
      try {
        const resources = selectResources(await discoverResources(this.client, signal), this.config.resources.include, this.config.resources.exclude);
        if (signal.aborted) break;
        const current = await this.ports.clusterIdentity(signal);
        if (signal.aborted) break;
        if (current !== identity && current !== '') {
          this.metrics.clusterDiscontinuities.inc({ cluster: this.cluster, reason: 'identity' });
          setImmediate(() => void this.restart(`another cluster answers behind this name (kube-system uid ${identity} → ${current})`));
          break;
        }
        await this.reconcile(resources, positions, sink);
        this.sessionFailure = undefined;
        this.discovered = true;
        this.reportSynced();
        if (schemasDue) {
          schemasDue = false;
          this.schemaSync = this.schemaSync.then(() => this.syncSchemas(signal)).catch((e: unknown) => {
            if (signal.aborted) return; // a stop ended the download
            schemasDue = true;
            this.log.warn({ err: e }, 'OpenAPI download failed: retried at the next discovery');
          });
        }
      } catch (e) {
        if (signal.aborted) break;
        this.failed(e);
        this.log.warn({ err: e }, 'discovery failed');
      }
      if (await this.waitForRediscovery(signal)) schemasDue = true;
    }
    await this.schemaSync;
  }

  /** Downloads the OpenAPI documents (v3 per group-version, else v2) and hands over those that changed. */
  private async syncSchemas(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return;
    const docs = await downloadOpenApi(this.client, { signal });
    if (signal.aborted) return;
    const all: SchemaDocument[] =
      docs.version === 'v3'
        ? Object.entries(docs.documents).map(([path, document]) => ({ path, format: 'openapi-v3' as const, document: document as Record<string, unknown> }))
        : [{ path: 'openapi/v2', format: 'openapi-v2' as const, document: docs.document as Record<string, unknown> }];
    const changed = all.filter((d) => this.schemaHashes.get(d.path) !== hashOf(d.document));
    const paths = all.map((d) => d.path);
    if (changed.length === 0 && paths.length === this.schemaHashes.size && paths.every((p) => this.schemaHashes.has(p))) return;
    await this.ports.storeSchemas(this.cluster, changed, paths);
    this.schemaHashes = new Map(all.map((d) => [d.path, hashOf(d.document)]));
    this.log.info({ format: docs.version, documents: all.length, changed: changed.length }, 'OpenAPI documents handed to the schema job');
  }

  /**
   * Until the discovery interval passes, a CRD changes (shortly after: its resource is served once
   * established), or the session ends. Resolves true when a CRD changed.
   */
  private waitForRediscovery(signal: AbortSignal): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      // An abort during the discovery just done has already fired: its listener would never run.
      if (signal.aborted) return resolve(false);
      let crd = false;
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.rediscover = undefined;
        resolve(crd);
      };
      const timer = setTimeout(done, this.config.watcher.discoveryIntervalMs);
      this.rediscover = () => {
        crd = true;
        setTimeout(done, 300);
      };
      signal.addEventListener('abort', done, { once: true });
    });
  }

  private async reconcile(resources: readonly ApiResource[], positions: Map<string, string>, sink: WatchSink): Promise<void> {
    const wanted = new Map(resources.map((r) => [resourceKey(r), r]));
    for (const [key, watch] of this.watches) {
      const r = wanted.get(key);
      if (r && r.version === watch.resource.version) continue;
      this.watches.delete(key);
      this.log.info({ resource: key, version: watch.resource.version }, r ? 'preferred version changed: rewatching' : 'resource no longer served: stopping its watch');
      const stopping = r ? watch.stop() : sleep(REMOVAL_GRACE_MS, this.session?.signal).then(() => watch.stop());
      if (!r) void stopping.then(() => this.batcher?.forget(key)).catch(() => undefined);
      else await stopping;
      positions.delete(key);
    }
    const ns = this.config.namespaces;
    const namespaceFilter = (n: string) => ns.include.some((p) => matchesPattern(n, p)) && !ns.exclude.some((p) => matchesPattern(n, p));
    for (const [key, r] of wanted) {
      if (this.watches.has(key)) continue;
      const resumeFrom = positions.get(key);
      const watch = new ResourceWatch(
        this.client,
        r,
        sink,
        {
          pageSize: this.config.watcher.pageSize,
          pageBytes: this.config.watcher.pageBytes,
          stallTimeoutMs: this.config.watcher.stallTimeoutMs,
          backoffInitialMs: this.config.watcher.backoffInitialMs,
          backoffMaxMs: this.config.watcher.backoffMaxMs,
          ...(resumeFrom ? { resumeFrom } : {}),
          liveObjects: () => this.ports.liveObjects(this.cluster, r.group, r.resource),
          namespaceFilter,
        },
        this.log,
        {
          onEvent: (res, type) => this.metrics.watchEvents.inc({ cluster: this.cluster, resource: resourceKey(res), type }),
          onRestart: (res, reason) => this.metrics.watchRestarts.inc({ cluster: this.cluster, resource: resourceKey(res), reason }),
          onRelist: (res, reason) => this.metrics.watchRelists.inc({ cluster: this.cluster, resource: resourceKey(res), reason }),
          onSynced: () => this.reportSynced(),
        },
      );
      this.watches.set(key, watch);
      watch.start();
      this.log.debug({ resource: key, version: r.version, resumeFrom }, 'watching');
    }
    this.metrics.watchesActive.set({ cluster: this.cluster }, this.watches.size);
  }

  private reportSynced(): void {
    if (this.syncedReported || !this.isReady) return;
    this.syncedReported = true;
    const seconds = (Date.now() - this.startedAt) / 1000;
    this.metrics.watchInitialListSeconds.set({ cluster: this.cluster }, seconds);
    this.log.info({ resources: this.watches.size, seconds }, 'every resource listed: watching');
  }

  private failed(e: unknown): void {
    this.sessionFailure = stillFailing(this.sessionFailure, e);
  }

  private async retry<T>(f: () => Promise<T>, signal: AbortSignal, what: string): Promise<T> {
    for (let delay = 200; ; delay = Math.min(delay * 2, 10_000)) {
      try {
        const v = await f();
        this.sessionFailure = undefined;
        return v;
      } catch (e) {
        if (signal.aborted) throw e;
        this.failed(e);
        this.log.warn({ err: e }, `${what} failed: retrying`);
        await sleep(delay, signal);
        if (signal.aborted) throw e; // a stop ended the wait: no request after it
      }
    }
  }
}
