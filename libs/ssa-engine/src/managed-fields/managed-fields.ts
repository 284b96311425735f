import { SsaEngineError } from '../errors.js';
import { FieldSet } from '../fieldpath/field-set.js';
import { parseFieldsV1, serializeFieldsV1, type FieldsV1 } from '../fieldpath/fields-v1.js';
import { compareStrings } from '../value/compare.js';
import { quoteHtmlSafe } from '../value/json-encode.js';

export type Operation = 'Apply' | 'Update';

/** One `metadata.managedFields` entry as the API carries it (05 §1). */
export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: FieldsV1 | null;
  subresource?: string;
}

/** A decoded entry: its identity parts, time and field set. */
export interface ManagerEntry {
  readonly manager: string;
  readonly operation: Operation;
  readonly apiVersion: string;
  readonly subresource: string;
  readonly time: string | undefined;
  readonly set: FieldSet;
}

/**
 * The identity of an entry (05 §1): Go `json.Marshal` of manager, operation, apiVersion (Update
 * entries only) and subresource, empty members omitted, strings HTML-escaped.
 */
export function entryIdentity(e: { manager: string; operation: Operation; apiVersion: string; subresource: string }): string {
  let s = '{"manager":' + quoteHtmlSafe(e.manager) + ',"operation":' + quoteHtmlSafe(e.operation);
  if (e.operation === 'Update' && e.apiVersion) s += ',"apiVersion":' + quoteHtmlSafe(e.apiVersion);
  if (e.subresource) s += ',"subresource":' + quoteHtmlSafe(e.subresource);
  return s + '}';
}

/** The parts of an identity string (the inverse of `entryIdentity`). */
export function parseIdentity(id: string): { manager: string; operation: Operation; apiVersion?: string; subresource?: string } {
  return JSON.parse(id) as { manager: string; operation: Operation; apiVersion?: string; subresource?: string };
}

/** Managers by identity, in the order they were decoded (later duplicates replace earlier ones). */
export type Managers = Map<string, ManagerEntry>;

/** True for the two shapes a write uses to reset ownership: `[]` and `[{}]` (05 §5). */
export function isResetManagedFields(list: unknown): boolean {
  if (!Array.isArray(list)) return false;
  if (list.length === 0) return true;
  if (list.length !== 1) return false;
  const e = list[0];
  return typeof e === 'object' && e !== null && !Array.isArray(e) && Object.keys(e).length === 0;
}

/**
 * FieldSets by FieldsV1 document, by identity: observations of an object that share an unchanged
 * entry's document (read from one stored blob) parse it once. Documents are never changed once read.
 */
const PARSED = new WeakMap<object, FieldSet>();

function parsedFieldsV1(doc: object): FieldSet {
  let set = PARSED.get(doc);
  if (set === undefined) PARSED.set(doc, (set = parseFieldsV1(doc)));
  return set;
}

/**
 * Decodes a `metadata.managedFields` list (05 §4); `undefined`/`null` is the empty list.
 * Throws `invalid-managed-fields` naming the entry for a malformed one.
 */
export function decodeManagedFields(list: unknown): Managers {
  const out: Managers = new Map();
  if (list === undefined || list === null) return out;
  if (!Array.isArray(list)) throw new SsaEngineError('invalid-managed-fields', 'managedFields must be a list');
  list.forEach((raw: unknown, i) => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new SsaEngineError('invalid-managed-fields', `managed fields entry ${i} is not an object`);
    }
    const e = raw as ManagedFieldsEntry;
    const str = (k: keyof ManagedFieldsEntry): string => {
      const v = e[k];
      if (v === undefined || v === null) return '';
      if (typeof v !== 'string') throw new SsaEngineError('invalid-managed-fields', `managed fields entry ${i}: ${k} must be a string`);
      return v;
    };
    const operation = str('operation');
    if (operation !== 'Apply' && operation !== 'Update') {
      throw new SsaEngineError('invalid-managed-fields', `managed fields entry ${i}: operation must be \`Apply\` or \`Update\``);
    }
    const apiVersion = str('apiVersion');
    if (!apiVersion) throw new SsaEngineError('invalid-managed-fields', `managed fields entry ${i}: apiVersion must not be empty`);
    const fieldsType = str('fieldsType');
    if (!fieldsType) throw new SsaEngineError('invalid-managed-fields', `missing fieldsType in managed fields entry ${i}`);
    if (fieldsType !== 'FieldsV1') {
      throw new SsaEngineError('invalid-managed-fields', `invalid fieldsType ${JSON.stringify(fieldsType)} in managed fields entry ${i}`);
    }
    const time = str('time') || undefined;
    if (time !== undefined && Number.isNaN(Date.parse(time))) {
      throw new SsaEngineError('invalid-managed-fields', `managed fields entry ${i}: invalid time ${JSON.stringify(time)}`);
    }
    let set: FieldSet;
    try {
      set = e.fieldsV1 === undefined || e.fieldsV1 === null ? FieldSet.EMPTY : parsedFieldsV1(e.fieldsV1 as object);
    } catch (err) {
      throw new SsaEngineError('invalid-managed-fields', `managed fields entry ${i}: ${(err as Error).message}`);
    }
    const entry: ManagerEntry = { manager: str('manager'), operation, apiVersion, subresource: str('subresource'), time, set };
    out.set(entryIdentity(entry), entry);
  });
  return out;
}

/** An entry time in whole Unix seconds; a missing time counts as 0 (05 §4). */
export function entrySeconds(t: string | undefined): number {
  return t === undefined ? 0 : Math.floor(Date.parse(t) / 1000);
}

/** The apiserver's entry order (05 §4): operation, time in seconds (none first), manager, apiVersion, subresource. */
export function compareEntries(a: ManagerEntry, b: ManagerEntry): number {
  if (a.operation !== b.operation) return a.operation < b.operation ? -1 : 1;
  const ta = entrySeconds(a.time);
  const tb = entrySeconds(b.time);
  if (ta !== tb) return ta - tb;
  return (
    compareStrings(a.manager, b.manager) || compareStrings(a.apiVersion, b.apiVersion) || compareStrings(a.subresource, b.subresource)
  );
}

export type FieldsV1Order = 'smd' | 'sorted-keys';

/**
 * Encodes managers as the apiserver writes them (05 §4): sorted entries, members in Go struct
 * order, empty ones omitted, FieldsV1 in canonical bytes. `sorted-keys` writes every FieldsV1
 * object's keys in byte order instead, as happens when entries pass through a Go
 * `map[string]interface{}` (scale subresource writes). Returns `undefined` for no entries.
 */
export function encodeManagedFields(managers: Managers, order: FieldsV1Order = 'smd'): ManagedFieldsEntry[] | undefined {
  if (managers.size === 0) return undefined;
  const entries = [...managers.values()].sort(compareEntries);
  return entries.map((e) => {
    const out: ManagedFieldsEntry = {};
    if (e.manager) out.manager = e.manager;
    out.operation = e.operation;
    if (e.apiVersion) out.apiVersion = e.apiVersion;
    if (e.time) out.time = e.time;
    out.fieldsType = 'FieldsV1';
    const fv = JSON.parse(serializeFieldsV1(e.set)) as FieldsV1;
    out.fieldsV1 = order === 'sorted-keys' ? sortKeysDeep(fv) : fv;
    if (e.subresource) out.subresource = e.subresource;
    return out;
  });
}

function sortKeysDeep(o: FieldsV1): FieldsV1 {
  const out: Record<string, FieldsV1> = {};
  for (const k of Object.keys(o).sort(compareStrings)) {
    const v = o[k];
    const sub = v ? sortKeysDeep(v) : {};
    if (k === '__proto__') Object.defineProperty(out, k, { value: sub, enumerable: true, writable: true, configurable: true });
    else out[k] = sub;
  }
  return out;
}
