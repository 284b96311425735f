import { entryIdentity, entrySeconds, type Managers } from '../managed-fields/managed-fields.js';
import { compareStrings } from '../value/compare.js';

const BUCKET = 'ancient-changes';


/**
 * After an Update, folds the oldest Update entries into `ancient-changes` buckets per apiVersion
 * until at most `max` Update entries remain (05 §3 step 5). Apply entries are never touched.
 */
export function capUpdateManagers(managers: Managers, max: number): Managers {
  const updaters = [...managers].filter(([, e]) => e.operation === 'Update').map(([id]) => id);
  if (updaters.length <= max) return managers;
  updaters.sort((a, b) => entrySeconds(managers.get(a)!.time) - entrySeconds(managers.get(b)!.time) || compareStrings(a, b));
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
    const id = updaters[i]!;
    const e = managers.get(id);
    if (!e) continue;
    const bucket = entryIdentity({ manager: BUCKET, operation: 'Update', apiVersion: e.apiVersion, subresource: '' });
    const first = firstOfVersion.get(e.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(e.apiVersion, id);
      continue;
    }
    if (!managers.has(bucket)) {
      const f = managers.get(first)!;
      managers.delete(first);
      managers.set(bucket, { ...f, manager: BUCKET, subresource: '' });
    }
    const b = managers.get(bucket)!;
    managers.set(bucket, { ...b, set: e.set.union(b.set), apiVersion: e.apiVersion, time: e.time });
    managers.delete(id);
    length--;
  }
  return managers;
}
