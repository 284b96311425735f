import {
  builtinConverterFor,
  canConvert,
  compare,
  ConflictError,
  entriesAtOtherVersions,
  decodeManagedFields,
  entryIdentity,
  FieldManager,
  FieldSet,
  isBuiltinKind,
  normalizerFor,
  ownersAt,
  pathToHuman,
  restoreUnchangedTimestamps,
  SsaEngineError,
  type KubeObject,
  type ManagedFieldsEntry,
  type ManagerRef,
  type Operation,
  type Path,
  type ResolvedType,
  type Value,
} from '../../ssa-engine/src/index.js';
import { AuditError } from './audit.error.js';
import { decodedSnapshot } from './object-ownership.projection.js';
import type { AnswerNote } from './other-version.notes.js';
import { defaultSchemaResolver, schemaUsed, type SchemaResolver, type SchemaUsed } from './schema-resolver.port.js';
import { isRfc3339 } from './seq.util.js';

/** A dry-run server-side apply against a stored object. */
export interface SimulateApplyCommand {
  /** The latest stored object with its `metadata.managedFields`; absent for a create. */
  readonly live?: unknown;
  /** The manifest as parsed JSON (the API parses YAML before calling). */
  readonly config: unknown;
  /** The field manager (`kubectl` when the user runs `kubectl apply --server-side`). */
  readonly manager: string;
  readonly force?: boolean;
  /** The cluster's schemas (default: bundled built-ins, deduced otherwise). */
  readonly schema?: SchemaResolver;
  readonly cluster?: string;
  /** The type to apply with, overriding `schema`. */
  readonly type?: ResolvedType;
  /** The write time for managedFields (RFC 3339, whole seconds); default: the current time. */
  readonly now?: string;
}

/** One conflict, as kubectl names it. */
export interface SimulatedConflict {
  readonly manager: string;
  readonly operation: Operation;
  readonly apiVersion: string | null;
  readonly subresource: string | null;
  /** kubectl form. */
  readonly path: string;
}

/** A field the applier released that stays because others own it. */
export interface SurvivingField {
  readonly path: string;
  readonly owners: readonly ManagerRef[];
}

/** The answer of `simulateApply` (`POST /v1/simulate/apply`). */
export interface SimulatedApply {
  readonly conflicts: readonly SimulatedConflict[];
  /** Exactly what kubectl prints for the conflict, `null` when the apply succeeds. */
  readonly message: string | null;
  /** The 409 `Status` body the apiserver would answer, `null` when the apply succeeds. */
  readonly status: Record<string, unknown> | null;
  /** Paths the apply removes from the object (topmost removed paths). */
  readonly pruned: readonly string[];
  /** Paths the applier stops owning that stay because other managers own them. */
  readonly survivors: readonly SurvivingField[];
  /** The same list under the name issue 7 gives it. */
  readonly kept: readonly SurvivingField[];
  readonly result: { readonly object: KubeObject; readonly managedFields: readonly ManagedFieldsEntry[] } | null;
  /** The schema the apply was computed with; `null` when the command gave the type itself. */
  readonly schema: SchemaUsed | null;
  /** `entry-at-other-version`: managers of the live object recorded at another API version, converted or left out. */
  readonly notes: readonly AnswerNote[];
}

/**
 * Deepest nesting of objects and lists a simulated manifest may have (the manifest itself is level 1).
 * The engine walks values recursively: a deeper one would cost stack and time for no real manifest.
 */
export const MAX_MANIFEST_DEPTH = 64;

/** True when `value` nests objects or lists more than `max` levels deep; iterative, so any depth is safe to check. */
function deeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

function isObject(v: unknown): v is KubeObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function withoutBookkeeping(o: KubeObject): KubeObject {
  const meta = o['metadata'];
  if (!isObject(meta)) return o;
  const m: Record<string, Value> = {};
  for (const k of Object.keys(meta)) {
    // defineProperty: an own `__proto__` key stays a key.
    if (k !== 'managedFields' && k !== 'resourceVersion') Object.defineProperty(m, k, { value: meta[k], enumerable: true, writable: true, configurable: true });
  }
  return { ...o, metadata: m };
}

function topmost(set: FieldSet): Path[] {
  const out: Path[] = [];
  for (const p of set.paths()) {
    const last = out[out.length - 1];
    if (last && last.length < p.length && last.every((pe, i) => pe.str === p[i]!.str)) continue;
    out.push(p);
  }
  return out;
}

function applierSet(obj: unknown, manager: string): FieldSet {
  if (!isObject(obj) || !isObject(obj['metadata'])) return FieldSet.EMPTY;
  const id = entryIdentity({ manager, operation: 'Apply', apiVersion: '', subresource: '' });
  return decodeManagedFields((obj['metadata'] as KubeObject)['managedFields']).get(id)?.set ?? FieldSet.EMPTY;
}

function ref(o: ManagerRef): ManagerRef {
  return { manager: o.manager, operation: o.operation, apiVersion: o.apiVersion, subresource: o.subresource };
}

/**
 * What a server-side apply of `config` by `manager` would do to `live`, computed with the engine's
 * `FieldManager` (the apiserver's stack, kubectl's last-applied auto-force included) without
 * storing anything: conflicts with kubectl's exact message and the 409 body, or the resulting
 * object with the fields pruned and those that survive because others co-own them. Throws
 * `AuditError('invalid-manifest')` (with the engine's code) for a manifest the apiserver would refuse.
 */
export function simulateApply(cmd: SimulateApplyCommand): SimulatedApply {
  const config = cmd.config;
  if (!isObject(config)) throw new AuditError('invalid-manifest', 'the manifest must be a JSON object', 'manifest');
  if (deeperThan(config, MAX_MANIFEST_DEPTH)) {
    throw new AuditError('invalid-manifest', `the manifest is nested deeper than ${MAX_MANIFEST_DEPTH} levels (objects and lists)`, 'manifest');
  }
  const apiVersion = config['apiVersion'];
  const kind = config['kind'];
  if (typeof apiVersion !== 'string' || apiVersion === '' || typeof kind !== 'string' || kind === '') {
    throw new AuditError('invalid-manifest', 'the manifest needs apiVersion and kind', 'manifest');
  }
  if (typeof cmd.manager !== 'string' || cmd.manager === '') throw new AuditError('invalid-manifest', 'manager is required', 'manager');
  if (cmd.live !== undefined && cmd.live !== null && !isObject(cmd.live)) throw new AuditError('invalid-manifest', 'the live object must be a JSON object', 'live');
  if (cmd.now !== undefined && !isRfc3339(cmd.now)) throw new AuditError('invalid-manifest', 'now must be an RFC 3339 time', 'now');
  const live = isObject(cmd.live) ? cmd.live : undefined;
  const choice = cmd.type ? null : (cmd.schema ?? defaultSchemaResolver)(apiVersion, kind, cmd.cluster ?? '');
  const type = cmd.type ?? choice!.type;
  const schema = choice && schemaUsed(choice);
  const builtin = isBuiltinKind(apiVersion, kind);
  const now = cmd.now ?? new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  // Managers at another version are compared in theirs where Kubernetes converts the kind (HPA v1 ↔ v2); the others are dropped, as the apiserver drops a version it no longer serves.
  const conversion = builtinConverterFor(apiVersion, kind);
  const notes = live ? otherVersionSimulationNotes(live, type, apiVersion, kind) : [];
  const fm = new FieldManager({
    type,
    apiVersion,
    kind,
    isServedVersion: (v) => canConvert(kind, apiVersion, v),
    ...(conversion ? { conversion } : {}),
    now: () => now,
    ...normalizerFor({ apiVersion, kind }, builtin),
    fieldsV1Order: builtin ? 'smd' : 'sorted-keys',
  });

  let object: KubeObject;
  try {
    object = fm.apply(live, config, cmd.manager, cmd.force ?? false);
    // The registry keeps the old timestamps when a write changes nothing but them (05 §2 step 5).
    if (live) object = restoreUnchangedTimestamps(live, object);
  } catch (e) {
    if (e instanceof ConflictError) {
      return {
        conflicts: e.conflicts.map((c) => ({
          manager: c.manager,
          operation: c.operation,
          apiVersion: c.apiVersion ?? null,
          subresource: c.subresource ?? null,
          path: c.field,
        })),
        message: e.message,
        status: e.toStatus(),
        pruned: [],
        survivors: [],
        kept: [],
        result: null,
        schema,
        notes,
      };
    }
    if (e instanceof SsaEngineError) throw new AuditError('invalid-manifest', e.message, 'manifest', e.code);
    throw e;
  }

  const before = live ? withoutBookkeeping(live) : undefined;
  const pruned = before ? topmost(compare(before, withoutBookkeeping(object), type).removed).map(pathToHuman) : [];
  const released = applierSet(live, cmd.manager).difference(applierSet(object, cmd.manager));
  const survivors: SurvivingField[] = [];
  for (const p of released.paths()) {
    const o = ownersAt({ object, type }, p);
    if (o.present && o.effectiveOwners.length > 0) survivors.push({ path: o.path, owners: o.effectiveOwners.map(ref) });
  }
  const meta = object['metadata'];
  const managedFields = (isObject(meta) && Array.isArray(meta['managedFields']) ? meta['managedFields'] : []) as unknown as ManagedFieldsEntry[];
  return { conflicts: [], message: null, status: null, pruned, survivors, kept: survivors, result: { object, managedFields }, schema, notes };
}

/** What the simulation does with the live object's managers recorded at another API version. */
function otherVersionSimulationNotes(live: KubeObject, type: ResolvedType, apiVersion: string, kind: string): AnswerNote[] {
  // Nothing to say (and nothing to decode) when every entry is at the manifest's version: the usual case.
  const entries = isObject(live['metadata']) ? live['metadata']['managedFields'] : undefined;
  if (entries === undefined || (Array.isArray(entries) && entries.every((e) => isObject(e) && e['apiVersion'] === apiVersion))) return [];
  let decoded;
  try {
    decoded = decodedSnapshot(live, type);
  } catch (e) {
    if (e instanceof SsaEngineError) return []; // the apply itself reports unreadable managedFields
    throw e;
  }
  return entriesAtOtherVersions(decoded, apiVersion, kind).map((o) => {
    const manager = decoded.entries.get(o.identity)!.manager;
    return {
      code: 'entry-at-other-version',
      message:
        o.reading === 'convertible'
          ? `${manager} is recorded at ${o.apiVersion}: its fields were compared after converting the object to ${o.apiVersion}, as the apiserver does`
          : `${manager} is recorded at ${o.apiVersion}, which cannot be converted to ${apiVersion} here: the simulation leaves it out, as the apiserver does on the next write when ${o.apiVersion} is no longer served`,
    };
  });
}
