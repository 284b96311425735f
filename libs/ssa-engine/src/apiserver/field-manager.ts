import { SsaEngineError } from '../errors.js';
import { FieldSet } from '../fieldpath/field-set.js';
import { fieldName } from '../fieldpath/path-element.js';
import {
  decodeManagedFields,
  encodeManagedFields,
  entryIdentity,
  isResetManagedFields,
  type FieldsV1Order,
  type ManagerEntry,
  type Managers,
} from '../managed-fields/managed-fields.js';
import { ConflictError } from '../merge/conflict.js';
import { smdApply, smdUpdate, type WriteContext } from '../merge/updater.js';
import type { ResolvedType } from '../schema/resolved-schema.js';
import type { VersionConverter } from '../conversion/converter.js';
import { safeValidate, formatIssues } from '../typed/validate.js';
import { isMap, type Value, type ValueMap } from '../value/value.js';
import { metadataOf as meta, withoutManagedFields } from './object-meta.js';
import { buildLastApplied, hasLastApplied, LAST_APPLIED_ANNOTATION, annotationsOf, setLastApplied } from './last-applied.js';
import { toFieldSet } from '../typed/to-field-set.js';
import { compare } from '../typed/compare.js';
import { capUpdateManagers } from './cap-managers.js';

/** A Kubernetes object as JSON. */
export type KubeObject = ValueMap;

/** What the field manager needs to know about the endpoint it serves (05 §3). */
export interface FieldManagerOptions {
  /** The object's type at the endpoint's version. */
  readonly type: ResolvedType;
  /** `group/version` of the endpoint (`v1`, `apps/v1`). */
  readonly apiVersion: string;
  readonly kind: string;
  /** `status`, `scale`, … or empty for the main resource. */
  readonly subresource?: string;
  /** Paths the endpoint's strategy resets, ignored by ownership (05 §6). */
  readonly resetFields?: FieldSet;
  /** The current time as RFC 3339 with whole seconds, e.g. `2026-01-01T10:00:00Z`. */
  readonly now: () => string;
  /** How the server re-encodes an object (the Go types' JSON for built-ins; sorted keys for CRs). */
  readonly normalize: (obj: KubeObject) => KubeObject;
  /** The empty object a create starts from (the zero value of the kind). */
  readonly emptyObject: () => KubeObject;
  readonly maxUpdateManagers?: number;
  /** Versions the server still serves (see `WriteContext.isServedVersion`); default: only `apiVersion`. */
  readonly isServedVersion?: (apiVersion: string) => boolean;
  /** FieldsV1 key order of written entries; `sorted-keys` for unstructured objects (CRs). */
  readonly fieldsV1Order?: FieldsV1Order;
  /**
   * How the server converts the kind between its versions (see `WriteContext.conversion`, e.g.
   * `builtinConverterFor`): managers at other versions are then compared in their own version.
   */
  readonly conversion?: VersionConverter;
}

const STRIP = FieldSet.fromPaths(
  [
    ['apiVersion'],
    ['kind'],
    ['metadata'],
    ['metadata', 'name'],
    ['metadata', 'namespace'],
    ['metadata', 'creationTimestamp'],
    ['metadata', 'selfLink'],
    ['metadata', 'uid'],
    ['metadata', 'clusterName'],
    ['metadata', 'generation'],
    ['metadata', 'managedFields'],
    ['metadata', 'resourceVersion'],
  ].map((p) => p.map(fieldName)),
);

const BEFORE_FIRST_APPLY = 'before-first-apply';
const TEMP = 'current-operation';


function decodeOrEmpty(list: unknown): Managers {
  try {
    return decodeManagedFields(list);
  } catch {
    return new Map();
  }
}

function badRequest(message: string): SsaEngineError {
  return new SsaEngineError('invalid-apply', message);
}

/** Go's `GroupVersionKind.String()`: `group/version, Kind=kind` (`/v1, Kind=ConfigMap`). */
function gvkString(apiVersion: string, kind: string): string {
  const gv = apiVersion.includes('/') ? apiVersion : '/' + apiVersion;
  return `${gv}, Kind=${kind}`;
}

/**
 * The apiserver's field manager for one endpoint: Update for non-apply writes and Apply for
 * server-side apply, with the wrapper stack of 05 §3 (version check, last-applied handling for
 * `kubectl`, skip-non-applied and `before-first-apply`, the 10-entry cap, timestamps, stripped
 * metadata) around the ownership algorithms of 04.
 */
export class FieldManager {
  private readonly ctx: WriteContext;
  private readonly subresource: string;

  constructor(private readonly opts: FieldManagerOptions) {
    this.subresource = opts.subresource ?? '';
    this.ctx = {
      type: opts.type,
      apiVersion: opts.apiVersion,
      ...(opts.resetFields ? { resetFields: opts.resetFields } : {}),
      ...(opts.isServedVersion ? { isServedVersion: opts.isServedVersion } : {}),
      ...(opts.conversion ? { conversion: opts.conversion } : {}),
    };
  }

  private identity(manager: string, operation: 'Apply' | 'Update'): Omit<ManagerEntry, 'set' | 'time'> & { id: string } {
    const e = { manager: manager || 'unknown', operation, apiVersion: this.opts.apiVersion, subresource: this.subresource };
    return { ...e, id: entryIdentity(e) };
  }

  private encode(obj: KubeObject, managers: Managers): KubeObject {
    const md: Record<string, Value> = { ...meta(obj) };
    delete md['managedFields'];
    const entries = encodeManagedFields(managers, this.opts.fieldsV1Order);
    if (entries) md['managedFields'] = entries as unknown as Value;
    return this.opts.normalize({ ...obj, metadata: md });
  }

  /**
   * A non-apply write (create, PUT, JSON/merge/strategic patch). `live` is the stored object
   * (`undefined` on create); `next` the object the write produces, already decoded by the server.
   * Returns `next` with `metadata.managedFields` maintained. Never conflicts.
   */
  update(live: KubeObject | undefined, next: KubeObject, manager: string): KubeObject {
    const base = live ?? this.opts.emptyObject();
    let managers: Managers;
    if (this.subresource) managers = decodeOrEmpty(meta(base)['managedFields']);
    else if (isResetManagedFields(meta(next)['managedFields'])) managers = new Map();
    else {
      managers = decodeOrEmpty(meta(next)['managedFields']);
      if (managers.size === 0) managers = decodeOrEmpty(meta(base)['managedFields']);
    }
    const nextObj = withoutManagedFields(next);
    // Skip-non-applied: an existing object (it has a uid) with no managedFields stays untracked.
    if (managers.size === 0 && meta(base)['uid']) return this.encode(nextObj, managers);
    managers = this.runUpdate(withoutManagedFields(base), nextObj, managers, manager);
    managers = capUpdateManagers(managers, this.opts.maxUpdateManagers ?? 10);
    return this.encode(nextObj, managers);
  }

  /** Build-manager-info → timestamps → strip-meta → structured merge, for an Update. */
  private runUpdate(live: KubeObject, next: KubeObject, managers: Managers, manager: string): Managers {
    const who = this.identity(manager, 'Update');
    const tmp = { manager: TEMP, operation: 'Update' as const, apiVersion: this.opts.apiVersion, subresource: '', time: undefined };
    const m = smdUpdate(live, next, managers, TEMP, tmp, this.ctx);
    const vs = m.get(TEMP);
    if (vs) {
      m.delete(TEMP);
      const stripped = vs.set.difference(STRIP);
      if (!stripped.isEmpty) {
        const prev = m.get(who.id);
        const set = prev ? stripped.union(prev.set) : stripped;
        m.set(who.id, { manager: who.manager, operation: 'Update', apiVersion: vs.apiVersion, subresource: who.subresource, time: this.opts.now(), set });
      }
    }
    return m;
  }

  /**
   * Server-side apply of `config` (the applied configuration as sent) by `manager`. Returns the
   * stored object; throws `ConflictError` on conflicts (unless `force`), `SsaEngineError` with
   * code `invalid-apply` (HTTP 400) or `validation` (HTTP 500 in the apiserver) for a bad config.
   */
  apply(live: KubeObject | undefined, config: KubeObject, manager: string, force: boolean): KubeObject {
    if (!isMap(config)) throw badRequest('the applied configuration must be a JSON object');
    const base = live ?? this.opts.emptyObject();
    let managers = decodeManagedFields(meta(base)['managedFields']);
    if (config['apiVersion'] !== this.opts.apiVersion || config['kind'] !== this.opts.kind) {
      throw badRequest(`invalid object type: ${gvkString(String(config['apiVersion'] ?? ''), String(config['kind'] ?? ''))}`);
    }
    let baseObj = withoutManagedFields(base);
    // Skip-non-applied: the first apply on an untracked object attributes what exists to before-first-apply.
    if (managers.size === 0) managers = this.runUpdate(this.opts.emptyObject(), baseObj, managers, BEFORE_FIRST_APPLY);
    let result: { object: KubeObject; managers: Managers };
    try {
      result = this.runApply(baseObj, config, managers, manager, force);
    } catch (e) {
      if (!(e instanceof ConflictError) || manager !== 'kubectl') throw e;
      // Last-applied manager: conflicts covered by an unchanged last-applied annotation are forced.
      const allowed = this.allowedFromLastApplied(baseObj);
      if (!allowed) throw e;
      const remaining = e.conflicts.filter((c) => !allowed.has(c.path));
      if (remaining.length > 0) throw new ConflictError(remaining);
      result = this.runApply(baseObj, config, managers, manager, true);
    }
    let obj = result.object;
    if (manager === 'kubectl' && hasLastApplied(obj)) obj = setLastApplied(obj, buildLastApplied(config));
    return this.encode(obj, result.managers);
  }

  private runApply(live: KubeObject, config: KubeObject, managers: Managers, manager: string, force: boolean) {
    if ('managedFields' in meta(config) && meta(config)['managedFields'] !== null) {
      throw badRequest('metadata.managedFields must be nil');
    }
    const v = safeValidate(config, this.opts.type, { allowDuplicates: false });
    if (!v.success) {
      const md = meta(config);
      const where = `${String(md['namespace'] ?? '')}/${String(md['name'] ?? '')}`;
      throw new SsaEngineError(
        'validation',
        `failed to create typed patch object (${where}; ${gvkString(this.opts.apiVersion, this.opts.kind)}): ${formatIssues(v.issues)}`,
      );
    }
    const who = this.identity(manager, 'Apply');
    const prev = managers.get(who.id);
    const entry = { manager: who.manager, operation: 'Apply' as const, apiVersion: this.opts.apiVersion, subresource: who.subresource, time: prev?.time };
    const r = smdApply(live, config, new Map(managers), who.id, entry, force, this.ctx);
    const m = r.managers;
    let object: KubeObject;
    const mine = m.get(who.id);
    if (r.object !== undefined) {
      object = r.object as KubeObject; // normalised once, with its managedFields, by encode()
      if (mine) m.set(who.id, { ...mine, time: this.opts.now() });
    } else object = live;
    const now = m.get(who.id);
    if (now) {
      const stripped = now.set.difference(STRIP);
      if (stripped.isEmpty) m.delete(who.id);
      else if (stripped !== now.set) m.set(who.id, { ...now, set: stripped });
    }
    return { object, managers: m };
  }

  /** Paths of the last-applied annotation whose values still equal the live object (05 §3 step 3). */
  private allowedFromLastApplied(live: KubeObject): FieldSet | undefined {
    const raw = annotationsOf(live)?.[LAST_APPLIED_ANNOTATION];
    if (typeof raw !== 'string' || raw === '') return undefined;
    let last: unknown;
    try {
      last = JSON.parse(raw);
    } catch {
      return undefined;
    }
    if (!isMap(last) || last['apiVersion'] !== this.opts.apiVersion) return undefined;
    if (!safeValidate(last, this.opts.type, { allowDuplicates: false }).success) return undefined;
    const set = toFieldSet(last, this.opts.type);
    const c = compare(last, live, this.opts.type);
    return set.difference(c.modified).difference(c.added).difference(c.removed);
  }
}
