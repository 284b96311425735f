import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import {
  ACCESS_REVIEWER,
  CLUSTER_WIDE_ACCESS,
  objectAccess,
  scopeAccess,
  scopedView,
  type AccessReviewer,
  type ScopedView,
  type Caller,
  type ObjectAccessIdentity,
} from '../../../libs/audit/src/index.js';
import { OwnershipQueries } from '../../../libs/store/src/index.js';

/** How many objects' access identities stay cached (an id's cluster, resource, namespace and name never change). */
const IDENTITY_CACHE_SIZE = 100_000;

/**
 * What a caller may see, asked of the cluster's RBAC through the {@link AccessReviewer} (which caches
 * every answer briefly): one object by id, the objects of a page, and the scopes that aggregates count.
 * Holders of the cluster-wide grant (`list objects.ssa-audit.io`) see everything without further reviews.
 */
@Injectable()
export class ObjectVisibility {
  private readonly identities = new LRUCache<string, ObjectAccessIdentity>({ max: IDENTITY_CACHE_SIZE });
  /** Look-ups in flight, by id. */
  private readonly lookups = new Map<string, Promise<ReadonlyMap<string, ObjectAccessIdentity>>>();

  constructor(
    @Inject(ACCESS_REVIEWER) private readonly reviewer: AccessReviewer | null,
    @Inject(OwnershipQueries) private readonly queries: OwnershipQueries,
  ) {}

  /** `unknown` when no object has this id: the caller gets the same 404 either way. */
  async object(caller: Caller, id: string): Promise<'visible' | 'hidden' | 'unknown'> {
    if (this.reviewer === null) return 'visible';
    const identity = (await this.identitiesOf([id])).get(id);
    if (!identity) return 'unknown';
    return (await this.sees(caller, identity)) ? 'visible' : 'hidden';
  }

  /** The items whose object (by `idOf`) the caller may `get`, in order. */
  async visible<T>(caller: Caller, items: readonly T[], idOf: (item: T) => string): Promise<T[]> {
    if (this.reviewer === null || items.length === 0 || (await this.seesAll(caller))) return [...items];
    const identities = await this.identitiesOf(items.map(idOf));
    const allowed = await Promise.all(
      items.map(async (item) => {
        const identity = identities.get(idOf(item));
        return identity !== undefined && (await this.sees(caller, identity));
      }),
    );
    return items.filter((_, k) => allowed[k]);
  }

  /** What an aggregate may count for this caller; undefined: every object (no authorization, or the cluster-wide grant). */
  async scopes(caller: Caller): Promise<ScopedView | undefined> {
    const reviewer = this.reviewer;
    if (reviewer === null || (await this.seesAll(caller))) return undefined;
    const scopes = await this.queries.accessScopes();
    return scopedView(scopes, await Promise.all(scopes.map((s) => reviewer.allowed(caller, s.cluster, scopeAccess(s)))));
  }

  /**
   * Whether the caller may `get` the object a manifest names, decided without looking whether it exists
   * (so the answer reveals nothing): true when no object of its kind is tracked in that cluster. A
   * namespaced kind without a namespace is in "default", as an apply would put it.
   */
  async mayGetNamed(caller: Caller, cluster: string, group: string, kind: string, namespace: string | null, name: string): Promise<boolean> {
    if (this.reviewer === null) return true;
    const served = await this.queries.resourceOf(cluster, group, kind);
    if (served === undefined) return true;
    const ns = served.namespaced ? (namespace ?? 'default') : '';
    return this.reviewer.allowed(caller, cluster, objectAccess({ cluster, group, resource: served.resource, namespace: ns, name }));
  }

  private seesAll(caller: Caller): Promise<boolean> {
    return this.reviewer!.allowed(caller, null, CLUSTER_WIDE_ACCESS);
  }

  /** Every object of its resource in its namespace, or this one by name. */
  private async sees(caller: Caller, identity: ObjectAccessIdentity): Promise<boolean> {
    const reviewer = this.reviewer!;
    return (await reviewer.allowed(caller, identity.cluster, scopeAccess(identity))) || (await reviewer.allowed(caller, identity.cluster, objectAccess(identity)));
  }

  /** Access identities by id, cached; ids already being looked up (another stream, another request) are awaited, not asked again. */
  private async identitiesOf(ids: readonly string[]): Promise<Map<string, ObjectAccessIdentity>> {
    const found = new Map<string, ObjectAccessIdentity>();
    const missing: string[] = [];
    const waiting = new Set<Promise<ReadonlyMap<string, ObjectAccessIdentity>>>();
    for (const id of new Set(ids)) {
      const cached = this.identities.get(id);
      const pending = this.lookups.get(id);
      if (cached) found.set(id, cached);
      else if (pending) waiting.add(pending);
      else missing.push(id);
    }
    if (missing.length > 0) {
      const lookup = this.queries.accessIdentities(missing).then((rows) => {
        for (const [id, identity] of rows) this.identities.set(id, identity);
        return rows;
      });
      for (const id of missing) this.lookups.set(id, lookup);
      const done = () => {
        for (const id of missing) if (this.lookups.get(id) === lookup) this.lookups.delete(id);
      };
      lookup.then(done, done);
      waiting.add(lookup);
    }
    const wanted = new Set(ids);
    for (const rows of await Promise.all(waiting)) for (const [id, identity] of rows) if (wanted.has(id)) found.set(id, identity);
    return found;
  }
}
