import { SsaEngineError } from '../errors.js';
import { FieldSet, type Path } from '../fieldpath/field-set.js';
import { decodeManagedFields, entryIdentity, type ManagerEntry, type Operation } from '../managed-fields/managed-fields.js';
import type { ResolvedType } from '../schema/resolved-schema.js';
import { toFieldSet } from '../typed/to-field-set.js';
import { valueAt } from './path-info.js';
import { getKey, isMap, type Value, type ValueMap } from '../value/value.js';

/** One observation of an object: its JSON (with `metadata.managedFields`) and the schema type to read it with. */
export interface Snapshot {
  readonly object: unknown;
  readonly type: ResolvedType;
}

/** A manager identity as plain data (05 §1). `apiVersion` is the entry's, also for Apply entries. */
export interface ManagerRef {
  readonly manager: string;
  readonly operation: Operation;
  readonly apiVersion: string;
  readonly subresource: string;
}

/** A decoded entry with its identity and its position in the observed list. */
export interface IndexedEntry extends ManagerEntry {
  readonly identity: string;
  /** Position in the observed `metadata.managedFields` list (what a JSON patch addresses). */
  readonly index: number;
}

/** A snapshot decoded once: entries by identity, the object without `managedFields`, its field set. */
export interface DecodedSnapshot {
  readonly object: ValueMap;
  /** The object without `metadata.managedFields` and `metadata.resourceVersion` (for change detection). */
  readonly body: ValueMap;
  readonly type: ResolvedType;
  readonly entries: ReadonlyMap<string, IndexedEntry>;
  /** Length of the observed list (0 when absent). */
  readonly listLength: number;
  /** Every path the object sets (what exists), 03 §2. */
  readonly present: FieldSet;
}

/** The plain-data identity parts of an entry. */
export function managerRef(e: ManagerEntry): ManagerRef {
  return { manager: e.manager, operation: e.operation, apiVersion: e.apiVersion, subresource: e.subresource };
}

/**
 * Decodes a snapshot. Throws `invalid-object` when the object is not a JSON object and
 * `invalid-managed-fields` (never a raw `TypeError`) for a malformed `managedFields` list.
 */
export function readSnapshot(s: Snapshot): DecodedSnapshot {
  if (typeof s !== 'object' || s === null) throw new SsaEngineError('invalid-object', 'a snapshot must be { object, type }');
  const object = s.object;
  if (!isMap(object)) throw new SsaEngineError('invalid-object', 'the observed object must be a JSON object');
  const meta = getKey(object, 'metadata');
  if (meta !== undefined && meta !== null && !isMap(meta)) throw new SsaEngineError('invalid-object', 'metadata must be an object');
  const list = meta ? getKey(meta, 'managedFields') : undefined;
  let managers;
  try {
    managers = decodeManagedFields(list);
  } catch (e) {
    if (e instanceof SsaEngineError) throw e;
    throw new SsaEngineError('invalid-managed-fields', `managedFields: ${(e as Error).message}`);
  }
  // Later duplicates win (05 §1); the index is the winning entry's position.
  const entries = new Map<string, IndexedEntry>();
  const raw = Array.isArray(list) ? list : [];
  let i = 0;
  for (const e of managers.values()) {
    const identity = entryIdentity(e);
    entries.set(identity, { ...e, identity, index: indexOf(raw, e, i) });
    i++;
  }
  const body = stripBookkeeping(object);
  let present: FieldSet;
  try {
    present = toFieldSet(body, s.type);
  } catch (e) {
    if (e instanceof SsaEngineError) throw e;
    throw new SsaEngineError('invalid-object', `object: ${(e as Error).message}`);
  }
  return { object, body, type: s.type, entries, listLength: raw.length, present };
}

function indexOf(raw: readonly unknown[], e: ManagerEntry, fallback: number): number {
  for (let j = raw.length - 1; j >= 0; j--) {
    const r = raw[j];
    if (!isMap(r)) continue;
    const str = (k: string): string => {
      const v = getKey(r, k);
      return typeof v === 'string' ? v : '';
    };
    if (
      str('manager') === e.manager &&
      str('operation') === e.operation &&
      str('subresource') === e.subresource &&
      (e.operation === 'Apply' || str('apiVersion') === e.apiVersion)
    ) {
      return j;
    }
  }
  return fallback;
}

const BOOKKEEPING = new Set(['managedFields', 'resourceVersion']);

function stripBookkeeping(o: ValueMap): ValueMap {
  const meta = getKey(o, 'metadata');
  if (!isMap(meta)) return o;
  const m: Record<string, Value> = {};
  for (const k of Object.keys(meta)) if (!BOOKKEEPING.has(k)) defineKey(m, k, meta[k]!);
  const out: Record<string, Value> = {};
  for (const k of Object.keys(o)) defineKey(out, k, k === 'metadata' ? m : o[k]!);
  return out;
}

function defineKey(m: Record<string, Value>, k: string, v: Value): void {
  Object.defineProperty(m, k, { value: v, enumerable: true, writable: true, configurable: true });
}

/** True iff `p` exists in the object (a set field, something set below it, or inside an atomic value). */
export function isPresent(s: DecodedSnapshot, p: Path): boolean {
  return s.present.has(p) || s.present.hasDescendantsOf(p) || (p.length > 0 && valueAt(s.body, p) !== undefined);
}
