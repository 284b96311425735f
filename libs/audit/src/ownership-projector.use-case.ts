import { stampOf, type ProjectedStamp } from './append-time-projection.js';
import { ProjectEventsUseCase } from './project-events.use-case.js';
import { ProjectionConflictError } from './projection-conflict.error.js';
import type { EventPosition, LoggedEvent, ProjectionLog, ProjectionTables, SchemaCatalogSource, SeqRange } from './projection-log.port.js';
import type { SchemaResolver } from './schema-resolver.port.js';
import { foldedWithChosenSchema, staleSchemaGroups } from './schema-staleness.js';
import { replayChunks } from './replay-chunks.js';
import { compareSeq } from './seq.util.js';
import { WriteBehindProjectionStore } from './write-behind.projection-store.js';

/** What a walk of the log did. */
export interface CatchUpResult {
  readonly generation: number;
  readonly events: number;
  readonly transitions: number;
  readonly position: EventPosition;
  /** The last event folded, if any (for the last-processed age metric). */
  readonly lastEvent: LoggedEvent | null;
  /** Committed events left after the position: held back behind an older transaction still open. */
  readonly heldBack: number;
  /** Objects projected again from their events because the schema of their kind changed. */
  readonly reprojected: number;
  /** Objects projected again from all their events because the log gave them out of seq order (a catch-up's total). */
  readonly reordered: number;
}

export interface CatchUpOptions {
  /** Called after every page. */
  readonly onPage?: (r: CatchUpResult) => void | Promise<void>;
  /**
   * Keep polling this long while committed events are held back behind an older open transaction
   * (xids are server-wide: it may be in another database). 0: return at once.
   */
  readonly waitForHeldBackMs?: number;
  /** Called after every object re-projected for a changed schema, with how many are done of how many. */
  readonly onReproject?: (done: number, total: number) => void;
}

const HELD_BACK_POLL_MS = 100;
/** Walks in a row that may lose a state to an append folding the same object (each walk then starts again from the checkpoint). */
const CONFLICT_TRIES = 10;

/** Progress of a replay, reported after every page (`all`) or every chunk of objects (`cluster`, `object`). */
export interface ReplayProgress {
  readonly scope: ReplayScope['kind'];
  readonly events: number;
  readonly objects: number;
  /** Estimated share done, 0–100. */
  readonly percent: number;
}

export type ReplayScope =
  | { readonly kind: 'all' }
  | { readonly kind: 'cluster'; readonly cluster: string }
  | { readonly kind: 'object'; readonly objectId: string };

const PAGE = 500;
/**
 * A page's bodies, as stored, at most (estimated by the log; one larger event alone is a page): pages
 * of large objects (CRDs, dashboards in ConfigMaps: up to about 1.5 MB each) would otherwise be
 * rebuilt into gigabytes at once, more than a worker's memory limit. Rebuilding objects from their
 * events (`replayObjects`) reads them in pages of the same bounds.
 */
const PAGE_BODY_BYTES = 16 * 2 ** 20;

/** How many objects' history lengths a replay of objects reads at once, to cut them into chunks. */
const LENGTHS_AHEAD = 5_000;

/**
 * Runs the ownership projection over the event log: the live catch-up from the active generation's
 * checkpoint, and replays (one object, one cluster, or everything into a fresh generation swapped in
 * when caught up). Not reentrant: the caller serialises runs (the `project` queue has one lane).
 */
export class OwnershipProjector<E extends LoggedEvent = LoggedEvent> {
  /** Objects projected again because the log gave them out of seq order, since this projector was built. */
  private reordered = 0;
  /** The catalog and generation last checked for objects folded with another schema. */
  private checked: { catalog: object; generation: number } | null = null;

  constructor(
    private readonly log: ProjectionLog<E>,
    private readonly tables: ProjectionTables,
    private readonly schemas: SchemaCatalogSource,
    private readonly pageSize = PAGE,
    private readonly pageBodyBytes = PAGE_BODY_BYTES,
  ) {}

  /** Folds every readable event after the active generation's checkpoint. */
  async catchUp(options: CatchUpOptions = {}): Promise<CatchUpResult> {
    const deadline = Date.now() + (options.waitForHeldBackMs ?? 0);
    let events = 0;
    let transitions = 0;
    let reprojected = 0;
    const reorderedBefore = this.reordered;
    for (;;) {
      const generation = await this.tables.activeGeneration();
      const { resolve, reprojected: n } = await this.resolverFor(generation, options.onReproject);
      reprojected += n;
      const r = await this.walkUntilWritten(generation, resolve, options.onPage);
      events += r.events;
      transitions += r.transitions;
      const heldBack = await this.lag();
      if (heldBack === 0 || Date.now() >= deadline) return { ...r, events, transitions, heldBack, reprojected, reordered: this.reordered - reorderedBefore };
      await new Promise((resolve) => setTimeout(resolve, HELD_BACK_POLL_MS));
    }
  }

  /** Rebuilds the projections of `scope` from events; returns how many events were folded. */
  async replay(scope: ReplayScope, onProgress?: (p: ReplayProgress) => void | Promise<void>): Promise<ReplayProgress> {
    if (scope.kind === 'all') {
      const total = await this.log.estimatedSize();
      const generation = await this.tables.beginRebuild();
      const { resolve } = await this.schemas.current();
      let events = 0;
      const report = (page: CatchUpResult) => onProgress?.({ scope: 'all', events: events + page.events, objects: 0, percent: percent(events + page.events, total) });
      for (;;) {
        events += (await this.walkUntilWritten(generation, resolve, report)).events;
        // Caught up means nothing committed is left, not merely nothing readable: wait out older open transactions.
        if ((await this.lag(generation)) === 0) break;
        await new Promise((resolve) => setTimeout(resolve, HELD_BACK_POLL_MS));
      }
      // Swap the fresh generation in; the live catch-up continues from its checkpoint.
      await this.tables.swapIn(generation);
      const objects = await this.tables.stateCount(generation);
      return { scope: 'all', events, objects, percent: 100 };
    }
    const generation = await this.tables.activeGeneration();
    const { resolve } = await this.schemas.current();
    const ids = scope.kind === 'object' ? [scope.objectId] : await this.log.objectsOfCluster(scope.cluster);
    let events = 0;
    let objects = 0;
    await this.replayObjects(generation, ids, resolve, async (chunk, read) => {
      events += read;
      objects += chunk.length;
      await onProgress?.({ scope: scope.kind, events, objects, percent: percent(objects, ids.length) });
    });
    return { scope: scope.kind, events, objects, percent: 100 };
  }

  /**
   * Objects from scratch, in the chunks {@link replayChunks} cuts (up to 100 objects and 1,000 of
   * their events; an object of a longer history alone), each chunk's rows replaced in one
   * transaction (queries see the old or the new rows, never a mix), their events folded a page at a
   * time (the walk's bounds: an object's history has no bound of its own). The objects' rows are
   * held meanwhile: an append, which folds the events it stores, waits, then finds this replay's
   * state. `onChunk` after each chunk, with the events it read.
   */
  private async replayObjects(
    generation: number, objectIds: readonly string[], resolve: SchemaResolver, onChunk?: (chunk: readonly string[], events: number) => void | Promise<void>,
  ): Promise<number> {
    let events = 0;
    // Lengths read a few thousand objects ahead: a cluster's list of ids may be long.
    for (let from = 0; from < objectIds.length; from += LENGTHS_AHEAD) {
      const ahead = objectIds.slice(from, from + LENGTHS_AHEAD);
      for (const chunk of replayChunks(ahead, await this.log.historyLengths(ahead))) {
        const read = await this.tables.rewriteObjects(generation, chunk, { events: this.pageSize, bodyBytes: this.pageBodyBytes }, async ({ events, store }) => {
          await new ProjectEventsUseCase(store, resolve).execute({ events });
        });
        events += read;
        await onChunk?.(chunk, read);
      }
    }
    return events;
  }

  /**
   * The schemas to fold with now. When the stored documents changed since the last check (or the
   * process started), the objects folded with another schema than the one chosen now are projected
   * again first (a CRD's schema that arrived after its objects, a changed CRD): before any newer
   * event is folded, so every object's rows come from one schema. A crash part-way leaves the rest
   * for the next check (their recorded schema still differs).
   */
  private async resolverFor(generation: number, onReproject?: (done: number, total: number) => void): Promise<{ resolve: SchemaResolver; reprojected: number }> {
    const catalog = await this.schemas.current();
    if (this.checked?.catalog === catalog && this.checked.generation === generation) return { resolve: catalog.resolve, reprojected: 0 };
    const stale = staleSchemaGroups(await this.tables.schemaGroups(generation), catalog.resolve);
    const total = stale.reduce((n, g) => n + g.objects, 0);
    let done = 0;
    for (const g of stale) {
      await this.replayObjects(generation, await this.tables.objectsOf(generation, g), catalog.resolve, (chunk) => {
        done += chunk.length;
        onReproject?.(done, total);
      });
    }
    this.checked = { catalog, generation };
    return { resolve: catalog.resolve, reprojected: done };
  }

  /** {@link walk}, again from the checkpoint where an append stored a state the walk had folded too. */
  private async walkUntilWritten(generation: number, resolve: SchemaResolver, onPage?: (r: CatchUpResult) => void | Promise<void>): Promise<CatchUpResult> {
    // Pages written by a walk that then lost a state stay written: counted once, from their reports.
    const before = { events: 0, transitions: 0 };
    for (let attempt = 1; ; attempt++) {
      const written = { events: 0, transitions: 0 };
      try {
        const r = await this.walk(generation, resolve, (page) => {
          written.events = page.events;
          written.transitions = page.transitions;
          return onPage?.({ ...page, events: before.events + page.events, transitions: before.transitions + page.transitions });
        });
        return { ...r, events: before.events + r.events, transitions: before.transitions + r.transitions };
      } catch (e) {
        if (!(e instanceof ProjectionConflictError) || attempt >= CONFLICT_TRIES) throw e;
        before.events += written.events;
        before.transitions += written.transitions;
      }
    }
  }

  /**
   * Walks the log from the checkpoint. An event an append already folded (its object's state is at
   * or past it) is passed over without reading its body; the state's schema is checked on the way,
   * and an object folded with a schema no longer chosen is projected again.
   */
  private async walk(generation: number, resolve: SchemaResolver, onPage?: (r: CatchUpResult) => void | Promise<void>): Promise<CatchUpResult> {
    let position = await this.tables.checkpoint(generation);
    let events = 0;
    let transitions = 0;
    let lastEvent: E | null = null;
    // Page n+1 is read and folded while page n is written (in order, one write in flight).
    const writes = new WriteBehindProjectionStore();
    try {
      for (;;) {
        const page = await this.log.readAfter(position, this.pageSize, this.pageBodyBytes);
        if (page.length === 0) break;
        const last = page[page.length - 1]!;
        const next = { xid: last.xid, seq: last.seq };
        const unfolded = await this.unfolded(page, next, generation, resolve, writes);
        const folded = await this.log.load(unfolded);
        // The checkpoint is written with the batch, in its transaction: it only passes events that are fully applied.
        const target = this.tables.pageStore(generation, next);
        const done = { events: events + page.length, transitions };
        const store = writes.wrap(target, (batch) =>
          onPage?.({ generation, events: done.events, transitions: done.transitions + batch.transitions.length, position: next, lastEvent: last, heldBack: 0, reprojected: 0, reordered: 0 }),
        );
        const r = await new ProjectEventsUseCase(store, resolve).execute({ events: folded });
        position = next;
        events += page.length;
        transitions += r.transitions;
        lastEvent = last;
      }
      await writes.flush();
    } catch (e) {
      // Nothing goes on in the background once the walk has failed.
      await writes.flush().catch(() => undefined);
      throw e;
    }
    return { generation, events, transitions, position, lastEvent, heldBack: 0, reprojected: 0, reordered: 0 };
  }

  /**
   * The events of `page` (which ends at `end`) no state holds yet. Objects folded with another
   * schema than `resolve`'s are projected again first; so is an object the log would give out of
   * seq order, the rest of whose events then need no fold.
   */
  private async unfolded(page: readonly E[], end: EventPosition, generation: number, resolve: SchemaResolver, writes: WriteBehindProjectionStore): Promise<E[]> {
    const stampsOf = async (ids: readonly string[]): Promise<Map<string, ProjectedStamp>> => {
      const out = new Map<string, ProjectedStamp>();
      const stored: string[] = [];
      for (const id of ids) {
        const s = writes.unsavedState(id);
        if (s) out.set(id, stampOf(s));
        else stored.push(id);
      }
      for (const [id, s] of await this.tables.stamps(generation, stored)) out.set(id, s);
      return out;
    };
    const ids = [...new Set(page.map((e) => e.objectId))];
    let stamps = await stampsOf(ids);
    const stale = [...stamps].filter(([, s]) => !foldedWithChosenSchema(s, resolve)).map(([id]) => id);
    if (stale.length > 0) {
      // Folded at append with another schema than this walk's (an append reads its catalog at another moment): project them again now.
      await writes.flush();
      await this.replayObjects(generation, stale, resolve);
      stamps = await stampsOf(ids);
    }
    const pending = page.filter((e) => {
      const s = stamps.get(e.objectId);
      return s === undefined || compareSeq(e.seq, s.lastSeq) > 0;
    });
    // The log is in (xid, seq) order, an object's events in seq order: they differ where a transaction
    // that started first committed second (it waited for the object's row). A lower seq still to come
    // would be taken for one already folded once the page's higher seq is: such an object is
    // projected again from all its events, in seq order, instead.
    const ranges = new Map<string, SeqRange>();
    for (const e of pending) {
      const r = ranges.get(e.objectId);
      if (r === undefined) ranges.set(e.objectId, { above: stamps.get(e.objectId)?.lastSeq ?? '0', below: e.seq });
      else if (compareSeq(e.seq, r.below) > 0) ranges.set(e.objectId, { above: r.above, below: e.seq });
    }
    const outOfOrder = ranges.size > 0 ? await this.log.objectsOutOfOrder(end, ranges) : [];
    if (outOfOrder.length === 0) return pending;
    await writes.flush();
    await this.replayObjects(generation, outOfOrder, resolve);
    this.reordered += outOfOrder.length;
    const replayed = new Set(outOfOrder);
    return pending.filter((e) => !replayed.has(e.objectId));
  }

  /** Committed events after a generation's checkpoint (the active one by default; counted up to 1,000,000). */
  async lag(generation?: number): Promise<number> {
    return this.log.countAfter(await this.tables.checkpoint(generation ?? (await this.tables.activeGeneration())));
  }
}

const percent = (done: number, total: number) => (total <= 0 ? 100 : Math.min(100, Math.round((done / total) * 1000) / 10));
