import type { ObjectOwnershipState } from './object-ownership.projection.js';
import type { OwnershipProjectionStore, ProjectedBatch } from './project-events.use-case.js';

/**
 * Lets a walk of the log fold its next page while the previous page is still being written: the
 * fold is Node's work, the write Postgres's, so the two overlap instead of taking turns.
 *
 * `wrap(target)` gives one page's store. Its `save` waits for the previous page's write to finish
 * (surfacing its error), starts this page's and returns without waiting for it; its `load` answers
 * the objects of a write still in flight from memory (their newest state) and the others from
 * `target`. Writes keep page order, one in flight at a time, so a checkpoint still never passes an
 * event whose projection is not stored; a failed write fails the next `save` or `flush`, and
 * nothing after it is written. One walk, one instance; the walk is not reentrant.
 */
export class WriteBehindProjectionStore {
  private pending: Promise<void> = Promise.resolve();
  /** The newest state of every object whose write has not finished. */
  private readonly unsaved = new Map<string, ObjectOwnershipState>();

  /** The store of one page; `afterSave` runs once its write has committed (progress, metrics). */
  wrap(target: OwnershipProjectionStore, afterSave?: (batch: ProjectedBatch) => void | Promise<void>): OwnershipProjectionStore {
    return {
      load: async (ids) => {
        const known = new Map<string, ObjectOwnershipState>();
        const missing: string[] = [];
        for (const id of ids) {
          const s = this.unsaved.get(id);
          if (s) known.set(id, s);
          else missing.push(id);
        }
        if (missing.length === 0) return known;
        const loaded = await target.load(missing);
        for (const [id, s] of loaded) known.set(id, s);
        return known;
      },
      save: async (batch: ProjectedBatch) => {
        await this.pending;
        for (const s of batch.states) this.unsaved.set(s.objectId, s);
        const write = (async () => {
          await target.save(batch);
          // Newer states of the same objects (a later page) stay until their own write finishes.
          for (const s of batch.states) if (this.unsaved.get(s.objectId) === s) this.unsaved.delete(s.objectId);
          await afterSave?.(batch);
        })();
        // Awaited by the next save or by flush; never left unhandled in between.
        write.catch(() => undefined);
        this.pending = write;
      },
    };
  }

  /** The newest state of an object whose write has not finished. */
  unsavedState(objectId: string): ObjectOwnershipState | undefined {
    return this.unsaved.get(objectId);
  }

  /** Waits for the last write; throws its error. */
  flush(): Promise<void> {
    return this.pending;
  }
}
