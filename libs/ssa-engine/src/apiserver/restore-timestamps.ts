import { valueEquals } from '../value/compare.js';
import type { Value, ValueMap } from '../value/value.js';
import type { KubeObject } from './field-manager.js';
import { metadataOf, withoutManagedFields } from './object-meta.js';

function managedFieldsOf(o: KubeObject): readonly ValueMap[] | undefined {
  const mf = metadataOf(o)['managedFields'];
  return Array.isArray(mf) ? (mf as ValueMap[]) : undefined;
}

function withoutTime(e: ValueMap): ValueMap {
  const { time: _t, ...rest } = e as Record<string, Value>;
  return rest;
}


/**
 * The apiserver's "ignore managed-fields timestamps" step on updates (05 §2 step 5): when a write
 * changes nothing but managedFields timestamps, the old timestamps are kept, so a no-op write
 * (e.g. an apply whose config only restates defaults) leaves the stored object as it was.
 */
export function restoreUnchangedTimestamps(oldObj: KubeObject, newObj: KubeObject): KubeObject {
  const oldMf = managedFieldsOf(oldObj);
  const newMf = managedFieldsOf(newObj);
  if (!oldMf || !newMf || oldMf.length === 0 || oldMf.length !== newMf.length) return newObj;
  let timesDiffer = false;
  for (let i = 0; i < oldMf.length; i++) {
    if (!valueEquals(withoutTime(oldMf[i]!), withoutTime(newMf[i]!))) return newObj;
    if (oldMf[i]!['time'] !== newMf[i]!['time']) timesDiffer = true;
  }
  if (!timesDiffer) return newObj;
  if (!valueEquals(withoutManagedFields(oldObj), withoutManagedFields(newObj))) return newObj;
  return oldObj;
}
