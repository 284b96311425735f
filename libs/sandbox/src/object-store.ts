import type { KubeObject } from '../../ssa-engine/src/index.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One change in the store, in resourceVersion order. */
export interface StoreEvent {
  readonly resourceVersion: number;
  readonly type: WatchEventType;
  /** `group/resource` (see `resourceKey`). */
  readonly resource: string;
  readonly namespace: string;
  readonly object: KubeObject;
  /** The object before a MODIFIED or DELETED change. */
  readonly previous?: KubeObject;
}

export interface StoreOptions {
  /** How many events a watch can resume from; older resourceVersions answer 410 Gone. */
  readonly historySize?: number;
}

export interface WatchFilter {
  readonly resource: string;
  /** Only this namespace; undefined for all. */
  readonly namespace?: string;
}

/** Raised when a watch asks for a resourceVersion older than the kept history. */
export class ResourceVersionTooOldError extends Error {
  constructor(
    readonly requested: number,
    readonly oldest: number,
  ) {
    super(`too old resource version: ${requested} (${oldest})`);
  }
}

function meta(o: KubeObject): Record<string, unknown> {
  return (o['metadata'] ?? {}) as Record<string, unknown>;
}

function setResourceVersion(o: KubeObject, resourceVersion: string): KubeObject {
  return { ...o, metadata: { ...meta(o), resourceVersion } };
}

const objectKey = (namespace: string, name: string) => `${namespace}/${name}`;

/**
 * The sandbox's storage: objects by resource, namespace and name, one resourceVersion counter for
 * all of them (as etcd's revision), and a bounded history of changes that watches replay from.
 * Objects are copied on the way in and out, so callers can never change what is stored.
 */
export class ObjectStore {
  private revision = 1;
  private readonly objects = new Map<string, Map<string, KubeObject>>();
  private history: StoreEvent[] = [];
  /** Highest resourceVersion whose event is no longer in `history`. */
  private compactedThrough = 0;
  private readonly watchers = new Set<{ filter: WatchFilter; send: (e: StoreEvent) => void }>();
  private readonly waiters = new Set<() => void>();
  private readonly historySize: number;

  constructor(opts: StoreOptions = {}) {
    this.historySize = opts.historySize ?? 10_000;
  }

  /** The resourceVersion of the latest change (a list's resourceVersion). */
  get resourceVersion(): number {
    return this.revision;
  }

  get(resource: string, namespace: string, name: string): KubeObject | undefined {
    const o = this.objects.get(resource)?.get(objectKey(namespace, name));
    return o ? structuredClone(o) : undefined;
  }

  /** Objects of a resource (in one namespace when given), sorted by namespace and name. */
  list(resource: string, namespace?: string): KubeObject[] {
    const all = this.objects.get(resource);
    if (!all) return [];
    const out: [string, KubeObject][] = [];
    for (const [k, o] of all) if (namespace === undefined || k.startsWith(namespace + '/')) out.push([k, o]);
    out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return out.map(([, o]) => structuredClone(o));
  }

  /**
   * Stores `object` (new or replacing), stamping the next resourceVersion with `stamp` (by default
   * `metadata.resourceVersion` is set where it stands, or last); returns the stored copy.
   */
  put(resource: string, object: KubeObject, stamp: (o: KubeObject, resourceVersion: string) => KubeObject = setResourceVersion): KubeObject {
    const md = meta(object);
    const namespace = String(md['namespace'] ?? '');
    const key = objectKey(namespace, String(md['name']));
    let byName = this.objects.get(resource);
    if (!byName) this.objects.set(resource, (byName = new Map()));
    const previous = byName.get(key);
    const rv = ++this.revision;
    const stored = structuredClone(stamp(object, String(rv)));
    byName.set(key, stored);
    this.record({ resourceVersion: rv, type: previous ? 'MODIFIED' : 'ADDED', resource, namespace, object: stored, ...(previous ? { previous } : {}) });
    return structuredClone(stored);
  }

  /** Removes an object; returns it with the deletion's resourceVersion, or undefined when absent. */
  delete(resource: string, namespace: string, name: string): KubeObject | undefined {
    const byName = this.objects.get(resource);
    const previous = byName?.get(objectKey(namespace, name));
    if (!byName || !previous) return undefined;
    byName.delete(objectKey(namespace, name));
    const rv = ++this.revision;
    const gone = setResourceVersion(previous, String(rv));
    this.record({ resourceVersion: rv, type: 'DELETED', resource, namespace, object: gone, previous });
    return structuredClone(gone);
  }

  /** Forgets all history: every resourceVersion before now answers 410 Gone to a watch. */
  compact(): void {
    this.compactedThrough = this.revision;
    this.history = [];
  }

  /**
   * Resolves true once the store's resourceVersion is at least `resourceVersion`, false when `ms`
   * pass first (the watch cache's bounded wait for freshness).
   */
  reached(resourceVersion: number, ms: number): Promise<boolean> {
    if (this.revision >= resourceVersion) return Promise.resolve(true);
    if (ms <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const check = () => {
        if (this.revision < resourceVersion) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        resolve(false);
      }, ms);
      this.waiters.add(check);
    });
  }

  /**
   * Subscribes to changes after `since` (replaying kept history first); `since` undefined means
   * from now. Throws `ResourceVersionTooOldError` when history after `since` was compacted.
   */
  watch(filter: WatchFilter, since: number | undefined, send: (e: StoreEvent) => void): () => void {
    if (since !== undefined && since < this.compactedThrough) throw new ResourceVersionTooOldError(since, this.compactedThrough + 1);
    const matches = (e: StoreEvent) => e.resource === filter.resource && (filter.namespace === undefined || e.namespace === filter.namespace);
    if (since !== undefined) for (const e of this.history) if (e.resourceVersion > since && matches(e)) send(e);
    // Never an event at or below the asked resourceVersion, also when it is ahead of the store (the
    // watch cache's contract: it delivers only what is newer than the watch's resourceVersion).
    const w = { filter, send: (e: StoreEvent) => matches(e) && (since === undefined || e.resourceVersion > since) && send(e) };
    this.watchers.add(w);
    return () => this.watchers.delete(w);
  }

  private record(e: StoreEvent): void {
    this.history.push(e);
    if (this.history.length > this.historySize) {
      const drop = this.history.length - this.historySize;
      this.compactedThrough = this.history[drop - 1]!.resourceVersion;
      this.history = this.history.slice(drop);
    }
    for (const w of [...this.watchers]) {
      try {
        w.send(e);
      } catch {
        // A broken watcher must not fail the write that notified it.
      }
    }
    for (const wake of [...this.waiters]) wake();
  }
}
