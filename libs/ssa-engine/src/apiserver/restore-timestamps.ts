import { valueEquals } from '../value/compare.js';
import type { Value, ValueMap } from '../value/value.js';
import type { KubeObject } from './field-manager.js';
import { metadataOf, withoutManagedFields } from './object-meta.js';

function managedFieldsOf(o: KubeObject): readonly ValueMap[] | undefined {
  const mf = metadataOf(o)['managedFields'];
  return Array.isArray(mf) ? (mf as ValueMap[]) : undefined;
}

/**
 * The registry's entry equality: Go's `reflect.DeepEqual` on two `ManagedFieldsEntry` structs
 * with `Time` cleared. The members are compared by value, but `FieldsV1` is raw bytes, so the
 * same set written with its keys in another order (as a `/scale` write leaves it) is a change.
 * (Custom resources compare re-sorted copies there, but their entries are always key-sorted.)
 */
function sameEntryButTime(a: ValueMap, b: ValueMap): boolean {
  const { time: _ta, fieldsV1: fa, ...ra } = a as Record<string, Value>;
  const { time: _tb, fieldsV1: fb, ...rb } = b as Record<string, Value>;
  return valueEquals(ra, rb) && JSON.stringify(fa ?? null) === JSON.stringify(fb ?? null);
}


/**
 * The apiserver's "ignore managed-fields timestamps" step on updates (05 §2 step 5): when a write
 * changes nothing but managedFields timestamps, the old timestamps are kept, so a no-op write
 * (e.g. an apply whose config only restates defaults) leaves the stored object as it was.
 * Entries must be equal as the server holds them, FieldsV1 bytes included: after a `/scale`
 * write (keys in byte order) the next write re-encodes them in element order, and is kept whole.
 */
export function restoreUnchangedTimestamps(oldObj: KubeObject, newObj: KubeObject): KubeObject {
  const oldMf = managedFieldsOf(oldObj);
  const newMf = managedFieldsOf(newObj);
  if (!oldMf || !newMf || oldMf.length === 0 || oldMf.length !== newMf.length) return newObj;
  let timesDiffer = false;
  for (let i = 0; i < oldMf.length; i++) {
    if (!sameEntryButTime(oldMf[i]!, newMf[i]!)) return newObj;
    if (oldMf[i]!['time'] !== newMf[i]!['time']) timesDiffer = true;
  }
  if (!timesDiffer) return newObj;
  if (!valueEquals(withoutManagedFields(oldObj), withoutManagedFields(newObj))) return newObj;
  return oldObj;
}
