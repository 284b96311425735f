import type { DataSource } from 'typeorm';
import { defaultSchemaResolver, ProjectEventsUseCase, type SchemaResolver } from '../../../audit/src/index.js';
import { CheckpointRepository } from '../events/checkpoint.repository.js';
import type { EventPosition } from '../events/event-position.js';
import { EventReader, type StoredEvent } from '../events/event-reader.js';
import { ObservedEventLoader } from '../events/observed-event.loader.js';
import { ownershipCheckpoint, PostgresOwnershipProjectionStore } from './ownership-projection.store.js';
import { ProjectionGenerationsRepository } from './projection-generations.repository.js';
import { WriteBehindProjectionStore } from './write-behind.projection-store.js';

/** What a walk of the log did. */
export interface CatchUpResult {
  readonly generation: number;
  readonly events: number;
  readonly transitions: number;
  readonly position: EventPosition;
  /** The last event folded, if any (for the last-processed age metric). */
  readonly lastEvent: StoredEvent | null;
  /** Committed events left after the position: held back behind an older transaction still open. */
  readonly heldBack: number;
}

export interface CatchUpOptions {
  /** Called after every page. */
  readonly onPage?: (r: CatchUpResult) => void | Promise<void>;
  /**
   * Keep polling this long while committed events are held back behind an older open transaction
   * (xids are server-wide: it may be in another database). 0: return at once.
   */
  readonly waitForHeldBackMs?: number;
}

const HELD_BACK_POLL_MS = 100;

/** Progress of a replay, reported after every page (or object). */
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
 * Runs the ownership projection over the event log: the live catch-up from the active generation's
 * checkpoint, and replays (one object, one cluster, or everything into a fresh generation swapped in
 * when caught up). Not reentrant: the caller serialises runs (the `project` queue has one lane).
 */
export class OwnershipProjector {
  private readonly reader: EventReader;
  private readonly loader: ObservedEventLoader;
  private readonly checkpoints: CheckpointRepository;
  private readonly generations: ProjectionGenerationsRepository;

  constructor(
    private readonly dataSource: DataSource,
    private readonly schemaResolver: SchemaResolver = defaultSchemaResolver,
    private readonly pageSize = PAGE,
  ) {
    this.reader = new EventReader(dataSource);
    this.loader = new ObservedEventLoader(dataSource);
    this.checkpoints = new CheckpointRepository(dataSource);
    this.generations = new ProjectionGenerationsRepository(dataSource);
  }

  /** Folds every readable event after the active generation's checkpoint. */
  async catchUp(options: CatchUpOptions = {}): Promise<CatchUpResult> {
    const deadline = Date.now() + (options.waitForHeldBackMs ?? 0);
    let events = 0;
    let transitions = 0;
    for (;;) {
      const r = await this.walk(await this.generations.active(), options.onPage);
      events += r.events;
      transitions += r.transitions;
      const heldBack = await this.lag();
      if (heldBack === 0 || Date.now() >= deadline) return { ...r, events, transitions, heldBack };
      await new Promise((resolve) => setTimeout(resolve, HELD_BACK_POLL_MS));
    }
  }

  /** Rebuilds the projections of `scope` from events; returns how many events were folded. */
  async replay(scope: ReplayScope, onProgress?: (p: ReplayProgress) => void | Promise<void>): Promise<ReplayProgress> {
    if (scope.kind === 'all') {
      const total = await this.eventCount();
      const generation = await this.generations.beginRebuild();
      let events = 0;
      const report = (page: CatchUpResult) => onProgress?.({ scope: 'all', events: events + page.events, objects: 0, percent: percent(events + page.events, total) });
      for (;;) {
        events += (await this.walk(generation, report)).events;
        // Caught up means nothing committed is left, not merely nothing readable: wait out older open transactions.
        if ((await this.lag(generation)) === 0) break;
        await new Promise((resolve) => setTimeout(resolve, HELD_BACK_POLL_MS));
      }
      // Swap the fresh generation in; the live catch-up continues from its checkpoint.
      await this.generations.swapIn(generation);
      const objects = Number((await this.dataSource.query(`SELECT count(*) AS n FROM ownership_states WHERE generation = $1`, [generation]))[0].n);
      return { scope: 'all', events, objects, percent: 100 };
    }
    const generation = await this.generations.active();
    const ids: string[] =
      scope.kind === 'object'
        ? [scope.objectId]
        : (
            await this.dataSource.query(
              `SELECT o.id::text AS id FROM objects o JOIN clusters c ON c.id = o.cluster_id WHERE c.name = $1 ORDER BY o.id`,
              [scope.cluster],
            )
          ).map((r: { id: string }) => r.id);
    let events = 0;
    let objects = 0;
    for (const id of ids) {
      events += await this.replayObject(generation, id);
      objects++;
      await onProgress?.({ scope: scope.kind, events, objects, percent: percent(objects, ids.length) });
    }
    return { scope: scope.kind, events, objects, percent: 100 };
  }

  /** One object from scratch, replacing its rows in one transaction (queries see the old or the new rows, never a mix). */
  private async replayObject(generation: number, objectId: string): Promise<number> {
    const stored = await this.reader.objectHistory(objectId);
    if (stored.length === 0) return 0;
    const store = new PostgresOwnershipProjectionStore(this.dataSource, generation, null, true);
    await new ProjectEventsUseCase(store, this.schemaResolver).execute({ events: await this.loader.load(stored) });
    return stored.length;
  }

  private async walk(generation: number, onPage?: (r: CatchUpResult) => void | Promise<void>): Promise<CatchUpResult> {
    const name = ownershipCheckpoint(generation);
    let position = await this.checkpoints.get(name);
    let events = 0;
    let transitions = 0;
    let lastEvent: StoredEvent | null = null;
    // Page n+1 is read and folded while page n is written (in order, one write in flight).
    const writes = new WriteBehindProjectionStore();
    try {
      for (;;) {
        const page = await this.reader.readAfter(position, this.pageSize);
        if (page.length === 0) break;
        const last = page[page.length - 1]!;
        const next = { xid: last.xid, seq: last.seq };
        const folded = await this.loader.load(page);
        // The checkpoint is written with the batch, in its transaction: it only passes events that are fully applied.
        const target = new PostgresOwnershipProjectionStore(this.dataSource, generation, next);
        const done = { events: events + page.length, transitions };
        const store = writes.wrap(target, (batch) =>
          onPage?.({ generation, events: done.events, transitions: done.transitions + batch.transitions.length, position: next, lastEvent: last, heldBack: 0 }),
        );
        const r = await new ProjectEventsUseCase(store, this.schemaResolver).execute({ events: folded });
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
    return { generation, events, transitions, position, lastEvent, heldBack: 0 };
  }

  /** Committed events after a generation's checkpoint (the active one by default; counted up to 1,000,000). */
  async lag(generation?: number): Promise<number> {
    const position = await this.checkpoints.get(ownershipCheckpoint(generation ?? (await this.generations.active())));
    const rows: { n: string }[] = await this.dataSource.query(
      `SELECT count(*) AS n FROM (SELECT 1 FROM events WHERE (xid, seq) > ($1::xid8, $2::bigint) LIMIT 1000000) t`,
      [position.xid, position.seq],
    );
    return Number(rows[0]?.n ?? 0);
  }

  private async eventCount(): Promise<number> {
    // An estimate is enough for progress: the sequence is free where count(*) is not.
    const rows: { n: string }[] = await this.dataSource.query(`SELECT coalesce(last_value, 0) AS n FROM events_seq`);
    return Number(rows[0]?.n ?? 0);
  }
}

const percent = (done: number, total: number) => (total <= 0 ? 100 : Math.min(100, Math.round((done / total) * 1000) / 10));
