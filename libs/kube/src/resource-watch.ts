import type { Logger } from 'pino';
import type { Observation } from '../../common/src/index.js';
import { Backoff, sleep } from './backoff.js';
import { stillFailing, type FailingSince } from './cluster-health.js';
import { groupVersionPath, resourceKey, type ApiResource } from './discovery.js';
import type { KubeClient } from './kube-client.js';
import { KubeError, isGone, isTooLargeResourceVersion, kubeErrorFromStatus, type StatusLike } from './kube.exception.js';
import { ListPageLimit } from './list-page-limit.js';
import { asKubeObject, toObservation } from './to-observation.js';

/** An object the store holds as live (not deleted) for a resource: the other side of a relist diff. */
export interface KnownObject {
  readonly uid: string;
  readonly name: string;
  readonly namespace: string;
}

/** Where a resource's observations go, in order. */
export interface WatchSink {
  /**
   * Accepts observations of one resource, in order; resolves once they are accepted (a full or deep
   * queue makes it wait: backpressure). `position` is the resourceVersion to resume from once these
   * observations are durable (the last event's, a bookmark's or a list's); `bytes`, about how many
   * bytes of JSON their objects arrived as.
   */
  push(resource: ApiResource, observations: readonly Observation[], position?: string, bytes?: number): Promise<void>;
  /** Resolves when everything pushed so far is stored (before a relist is diffed against the store). */
  settle(): Promise<void>;
}

/** Why a resource is listed: the first time, 410 Gone, or a position the server has not reached (another cluster behind the URL). */
export type RelistReason = 'initial' | 'gone' | 'too-large';
export type RestartReason = 'error' | 'stalled' | 'closed';

/** What a watch reports (metrics and logs). */
export interface WatchListener {
  onEvent?(resource: ApiResource, type: string): void;
  onRestart?(resource: ApiResource, reason: RestartReason, error?: unknown): void;
  onRelist?(resource: ApiResource, reason: RelistReason, seconds: number, objects: number, deleted: number): void;
  onSynced?(resource: ApiResource): void;
}

export interface ResourceWatchOptions {
  /** Most objects per list page. */
  readonly pageSize: number;
  /** About the most bytes of JSON per list page (see {@link ListPageLimit}); none: pages by count alone. */
  readonly pageBytes?: number;
  /** No event and no bookmark for this long: the watch is restarted. */
  readonly stallTimeoutMs: number;
  readonly backoffInitialMs: number;
  readonly backoffMaxMs: number;
  /** A stored position to resume from; none means list first. */
  readonly resumeFrom?: string;
  /** The objects the store holds as live for this resource. */
  readonly liveObjects: () => Promise<readonly KnownObject[]>;
  /** Objects of namespaces it rejects are not observed. */
  readonly namespaceFilter?: (namespace: string) => boolean;
}

/**
 * The resourceVersion of a deletion nobody saw, found by a list at `listRv`. Rule: never one the
 * object could have had. Appends are idempotent on (cluster, uid, resourceVersion), and after a
 * cluster was replaced behind its name (resourceVersions restarting low) the new list's version can
 * equal one of the old object's own: the deletion would be taken for a redelivery and dropped, the
 * object left live. Deterministic, so a redelivered job still deduplicates.
 */
const deletedBefore = (listRv: string): string => `deleted-before-${listRv}`;

interface ListPage {
  readonly metadata?: { resourceVersion?: string; continue?: string };
  readonly items?: readonly unknown[];
}

interface WatchLine {
  readonly type?: string;
  readonly object?: { metadata?: { resourceVersion?: string } } & StatusLike;
}

/**
 * One list/watch of one resource: an initial paginated list (unless resuming), then a watch with
 * bookmarks from the last resourceVersion; a 410 relists and hands over the difference with the
 * store (changes and deletions, marked `gap-fill`); errors back off with jitter; a stalled watch restarts.
 */
export class ResourceWatch {
  private readonly abort = new AbortController();
  private readonly backoff: Backoff;
  private running: Promise<void> | undefined;
  private position: string | undefined;
  /** The position was not just listed: ask the server whether it has reached it before watching from it. */
  private unverified: boolean;
  private synced = false;
  /** Since when list/watch has failed without a success in between (cleared by any answer of the server). */
  private failingSince: FailingSince | undefined;

  constructor(
    private readonly client: KubeClient,
    readonly resource: ApiResource,
    private readonly sink: WatchSink,
    private readonly options: ResourceWatchOptions,
    private readonly logger: Logger,
    private readonly listener: WatchListener = {},
  ) {
    this.backoff = new Backoff(options.backoffInitialMs, options.backoffMaxMs);
    this.position = options.resumeFrom;
    this.unverified = options.resumeFrom !== undefined;
  }

  get key(): string {
    return resourceKey(this.resource);
  }

  /** True once the initial list is handed over (or the resumed watch is open). */
  get isSynced(): boolean {
    return this.synced;
  }

  /** The failure the list/watch is stuck in (since when, the latest error), undefined while it works. */
  get failure(): FailingSince | undefined {
    return this.failingSince;
  }

  start(): void {
    this.running ??= this.run().catch((e: unknown) => {
      if (!this.abort.signal.aborted) this.logger.error({ err: e, resource: this.key }, 'watch loop ended');
    });
  }

  async stop(): Promise<void> {
    this.abort.abort(new KubeError('NETWORK', 'watch stopped'));
    await this.running;
  }

  private get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  private async run(): Promise<void> {
    let relist: RelistReason | undefined = this.position === undefined ? 'initial' : undefined;
    while (!this.stopped) {
      try {
        if (relist) {
          await this.relist(relist);
          relist = undefined;
          this.markSynced();
        } else if (this.unverified) await this.verifyPosition();
        await this.watch();
        this.unverified = true;
        this.backoff.reset();
        this.listener.onRestart?.(this.resource, 'closed');
      } catch (e) {
        if (this.stopped) return;
        if (isGone(e)) {
          this.logger.info({ resource: this.key, resourceVersion: this.position }, 'watch history gone (410): relisting');
          relist = 'gone';
          continue;
        }
        // As client-go's reflector on IsTooLargeResourceVersion (list, watch and watch-list paths): the
        // position is unavailable, so it relists with resourceVersion="" (a consistent read) and diffs.
        // Here that is a new cluster behind the URL (its resourceVersions restarted) or an apiserver whose
        // cache lags; either way the store's view is reconciled with what the server has now.
        if (isTooLargeResourceVersion(e)) {
          this.logger.warn({ resource: this.key, resourceVersion: this.position, err: e }, 'resourceVersion not reached by the server (too large): relisting');
          relist = 'too-large';
          continue;
        }
        // Forbidden or not found (RBAC, a CRD going away): retried, but it must not hold readiness back forever.
        if (e instanceof KubeError && (e.status === 403 || e.status === 404)) this.markSynced();
        const reason: RestartReason = e instanceof KubeError && e.code === 'STALLED' ? 'stalled' : 'error';
        this.failingSince = stillFailing(this.failingSince, e);
        // The watch ended without a relist: the next one resumes from a position to check first.
        this.unverified = true;
        this.listener.onRestart?.(this.resource, reason, e);
        const delay = reason === 'stalled' ? 0 : this.backoff.next();
        this.logger.warn({ resource: this.key, err: e, delayMs: delay }, reason === 'stalled' ? 'watch stalled: restarting' : 'list/watch failed: retrying');
        await sleep(delay, this.abort.signal);
      }
    }
  }

  private markSynced(): void {
    if (this.synced) return;
    this.synced = true;
    this.listener.onSynced?.(this.resource);
  }

  private keep(o: { metadata: { namespace?: string } }): boolean {
    return !this.options.namespaceFilter || o.metadata.namespace === undefined || this.options.namespaceFilter(o.metadata.namespace);
  }

  /** Lists every page and hands over the difference with the store's live objects. */
  private async relist(reason: RelistReason): Promise<void> {
    const started = Date.now();
    if (reason !== 'initial') await this.sink.settle();
    const known = new Map((await this.options.liveObjects()).map((k) => [k.uid, k]));
    // With history in the store (a 410, a position the server never reached, or a restart that lost
    // its position) the list fills a gap.
    const source = reason !== 'initial' || known.size > 0 ? 'gap-fill' : 'relist';
    const seen = new Set<string>();
    let listRv: string | undefined;
    let cont: string | undefined;
    let count = 0;
    const limit = new ListPageLimit(this.options.pageSize, this.options.pageBytes ?? Number.POSITIVE_INFINITY);
    do {
      const { body: page, bytes } = await this.listPage(limit, cont);
      const items = page.items ?? [];
      limit.saw(items.length, bytes);
      listRv ??= page.metadata?.resourceVersion;
      cont = page.metadata?.continue || undefined;
      const batch: Observation[] = [];
      const now = new Date();
      for (const item of items) {
        const o = asKubeObject(item);
        if (!o) {
          this.logger.warn({ resource: this.key }, 'listed object without uid, name or resourceVersion: skipped');
          continue;
        }
        seen.add(o.metadata.uid);
        if (!this.keep(o)) continue;
        batch.push(toObservation(this.client.cluster, this.resource, known.has(o.metadata.uid) ? 'MODIFIED' : 'ADDED', source, o, now));
      }
      count += batch.length;
      if (batch.length > 0) await this.sink.push(this.resource, batch, undefined, Math.round((bytes * batch.length) / items.length));
    } while (cont);
    if (!listRv) throw new KubeError('INVALID_RESPONSE', `list ${this.path()}: no resourceVersion`);
    // What the store holds as live but the list no longer has was deleted while nobody watched.
    const gone: Observation[] = [];
    const now = new Date();
    for (const k of known.values()) {
      if (seen.has(k.uid)) continue;
      const object = { metadata: { uid: k.uid, name: k.name, resourceVersion: deletedBefore(listRv), ...(k.namespace ? { namespace: k.namespace } : {}) } };
      gone.push(toObservation(this.client.cluster, this.resource, 'DELETED', 'gap-fill', object, now));
    }
    await this.sink.push(this.resource, gone, listRv);
    this.position = listRv;
    this.unverified = false;
    this.failingSince = undefined;
    this.listener.onRelist?.(this.resource, reason, (Date.now() - started) / 1000, count, gone.length);
    this.logger.info({ resource: this.key, reason, objects: count, deleted: gone.length, resourceVersion: listRv, ms: Date.now() - started }, 'listed');
  }

  /**
   * One page of a list, its `limit` from `limit`. The API's reference promises a `continue` token
   * only with the parameters of the request that gave it: where a server refuses one (400) with
   * another `limit` than the page before's, the page is asked again with that one, and the rest of
   * the list too.
   */
  private async listPage(limit: ListPageLimit, cont: string | undefined): Promise<{ body: ListPage; bytes: number }> {
    const ask = (n: number) => this.client.jsonSized<ListPage>(this.path(), { limit: n, continue: cont }, { signal: this.abort.signal });
    const n = limit.next();
    try {
      return await ask(n);
    } catch (e) {
      const previous = cont !== undefined && e instanceof KubeError && e.status === 400 ? limit.keepPrevious() : undefined;
      if (previous === undefined) throw e;
      this.logger.warn({ resource: this.key, limit: n, previous, err: e }, 'the server refused a continue token with another limit: listing the rest by the limit of the page before (WATCH_PAGE_BYTES does not apply)');
      return ask(previous);
    }
  }

  /**
   * Asks the server whether it has reached the position (a one-item list, `NotOlderThan` it) before a
   * watch resumes from it. A watch from a resourceVersion the server has not reached is accepted and
   * silent on a real apiserver (the watch cache checks no upper bound), so a cluster replaced behind
   * the URL would never be noticed by the watch itself; the list is served by etcd (it has a limit)
   * and answers 504 Too large resource version at once. resourceVersions are opaque: no number is
   * compared here, the server decides. One cheap request per reconnection.
   */
  private async verifyPosition(): Promise<void> {
    await this.client.json(this.path(), { limit: 1, resourceVersion: this.position, resourceVersionMatch: 'NotOlderThan' }, { signal: this.abort.signal });
    this.unverified = false;
    this.failingSince = undefined;
  }

  /** One watch connection from the current position; resolves when the server ends it. */
  private async watch(): Promise<void> {
    const local = new AbortController();
    const signal = AbortSignal.any([this.abort.signal, local.signal]);
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => local.abort(new KubeError('STALLED', `no event or bookmark for ${this.options.stallTimeoutMs} ms`)), this.options.stallTimeoutMs);
    };
    arm();
    // Servers end watches after timeoutSeconds; spread reconnections like client-go does.
    const timeoutSeconds = 300 + Math.floor(Math.random() * 300);
    try {
      await this.client.stream(
        this.path(),
        { watch: 1, resourceVersion: this.position, allowWatchBookmarks: true, timeoutSeconds },
        async (raw, size) => {
          arm();
          this.markSynced();
          this.failingSince = undefined;
          await this.onLine(raw as WatchLine, size);
        },
        signal,
      );
    } finally {
      clearTimeout(timer);
    }
  }

  private async onLine(line: WatchLine, size: number): Promise<void> {
    const type = line.type;
    if (type === 'BOOKMARK') {
      const rv = line.object?.metadata?.resourceVersion;
      if (rv) {
        await this.sink.push(this.resource, [], rv);
        this.position = rv;
      }
      return;
    }
    if (type === 'ERROR') throw kubeErrorFromStatus(line.object?.code ?? 0, line.object, `watch ${this.path()}`);
    if (type !== 'ADDED' && type !== 'MODIFIED' && type !== 'DELETED') return;
    this.listener.onEvent?.(this.resource, type);
    const o = asKubeObject(line.object);
    if (!o) {
      this.logger.warn({ resource: this.key, type }, 'watched object without uid, name or resourceVersion: skipped');
      return;
    }
    const rv = o.metadata.resourceVersion;
    const kept = this.keep(o);
    await this.sink.push(this.resource, kept ? [toObservation(this.client.cluster, this.resource, type, 'watch', o)] : [], rv, kept ? size : 0);
    this.position = rv;
  }

  private path(): string {
    return `${groupVersionPath(this.resource)}/${this.resource.resource}`;
  }
}
