import { isMap, type Value, type ValueMap } from '../value/value.js';

/** An object's `metadata` map (`{}` when it has none). */
export function metadataOf(obj: Value | undefined): ValueMap {
  const m = isMap(obj) ? obj['metadata'] : undefined;
  return isMap(m) ? m : {};
}

/** A shallow copy of `obj` without `metadata.managedFields` (the same object when it has none). */
export function withoutManagedFields<T extends ValueMap>(obj: T): T {
  const m = metadataOf(obj);
  if (!('managedFields' in m)) return obj;
  const { managedFields: _drop, ...rest } = m as Record<string, Value>;
  return { ...obj, metadata: rest };
}
