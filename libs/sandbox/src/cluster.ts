import { randomUUID } from 'node:crypto';
import { ServiceAccountTokens } from './service-account-tokens.js';
import { parse as parseYaml } from 'yaml';
import {
  ConflictError,
  FieldManager,
  SsaEngineError,
  normalizerFor,
  resetFieldsFor,
  restoreUnchangedTimestamps,
  safeValidate,
  updateScale,
  BUILTIN_SCHEMA,
  FieldSet,
  FIELD,
  fieldName,
  type KubeObject,
} from '../../ssa-engine/src/index.js';
import { ApiError, alreadyExists, badRequest, conflict, invalid, notFound, type ErrorTarget } from './api-error.js';
import { ObjectStore, type StoreEvent } from './object-store.js';
import { builtinResourceTypes, resourceKey, type ResourceType } from './resource-type.js';
import { applyPatch } from './patch/apply-patch.js';
import { scaleOf } from './scale.js';
import { applyDefaults } from './defaults.js';
import { throughInternalVersion } from './conversion.js';
import { prepareForCreate, prepareForUpdate } from './strategy.js';
import { crdResourceTypes, type CrdSchemaConverter, defaultCrdSchemaConverter, pruneUnknownFields } from './crd.js';
import { validateObjectMeta } from './validation.js';
import { type Obj, isObject, metaOf } from './json.js';

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export const PATCH_CONTENT_TYPES: Record<string, PatchType> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
};

/** Who is writing, and how: the query parameters and headers every write carries. */
export interface WriteOptions {
  /** The `fieldManager` query parameter. */
  readonly fieldManager?: string;
  readonly userAgent?: string;
  readonly force?: boolean;
  readonly dryRun?: boolean;
  /** `Strict` rejects unknown fields; `Warn` (the default) and `Ignore` drop them. */
  readonly fieldValidation?: 'Strict' | 'Warn' | 'Ignore';
  /** Receives the warnings of the write (sent as `Warning` headers). */
  readonly warn?: (message: string) => void;
}

export interface DeleteOptions {
  readonly propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  readonly dryRun?: boolean;
}

/** The target of a request: a resource, a namespace (for namespaced ones), a name. */
export interface ObjectRef {
  readonly resource: ResourceType;
  readonly namespace: string;
  readonly name: string;
}

export interface ClusterOptions {
  readonly historySize?: number;
  readonly now?: () => Date;
  readonly crdSchemaConverter?: CrdSchemaConverter;
}

const DEFAULT_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];
const PRINTABLE = /^[\x20-\x7e\u00a0-\uffff]*$/;

/** The manager name of a write (05 §1): `fieldManager`, else the User-Agent up to its first `/`. */
export function managerName(fieldManager: string | undefined, userAgent: string | undefined): string {
  if (fieldManager) return fieldManager;
  const ua = (userAgent ?? '').split('/')[0]!.replace(/[^\x20-\x7e\u00a0-\uffff]/g, '');
  return Buffer.from(ua).subarray(0, 128).toString() || 'unknown';
}

function checkFieldManager(fm: string | undefined, isApply: boolean, force: boolean | undefined): void {
  const what = isApply ? 'PatchOptions.meta.k8s.io' : 'meta.k8s.io';
  if (isApply && !fm) throw invalid(what, '', '', [{ reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' }]);
  if (fm && (fm.length > 128 || !PRINTABLE.test(fm)))
    throw invalid(what, '', '', [{ reason: 'FieldValueInvalid', message: `Invalid value: "${fm}": must be ≤128 printable characters`, field: 'fieldManager' }]);
  if (force && !isApply) throw invalid(what, '', '', [{ reason: 'FieldValueForbidden', message: 'Forbidden: may not be specified for non-apply patch', field: 'force' }]);
}

const SCALE_TYPE_NAME = 'io.k8s.api.autoscaling.v1.Scale';

/**
 * The sandbox cluster without HTTP: the served resources (built-in and from CRDs), the store and
 * every verb, with managedFields maintained by the SSA engine as the apiserver does. Every
 * failure is an `ApiError` carrying the Status the apiserver would answer with.
 */
export class Cluster {
  readonly store: ObjectStore;
  private readonly types = new Map<string, ResourceType>();
  private readonly clock: () => Date;
  private readonly crdConverter: CrdSchemaConverter;
  private serviceIps = 0;
  /** The ServiceAccount tokens this cluster issued (TokenRequest); a new cluster has none. */
  readonly tokens: ServiceAccountTokens;
  /** Called when the set of served resources changes (discovery and OpenAPI caches). */
  onResourcesChanged: () => void = () => {};

  constructor(opts: ClusterOptions = {}) {
    this.store = new ObjectStore({ ...(opts.historySize !== undefined ? { historySize: opts.historySize } : {}) });
    this.clock = opts.now ?? (() => new Date());
    this.tokens = new ServiceAccountTokens(this.clock);
    this.crdConverter = opts.crdSchemaConverter ?? defaultCrdSchemaConverter;
    for (const t of builtinResourceTypes()) this.types.set(this.typeKey(t.group, t.version, t.plural), t);
    for (const ns of DEFAULT_NAMESPACES) {
      this.create(this.resourceFor('', 'v1', 'namespaces')!, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }, { fieldManager: 'kube-apiserver' });
    }
  }

  private typeKey(group: string, version: string, plural: string): string {
    return `${group}/${version}/${plural}`;
  }

  /** Every served resource type. */
  resources(): ResourceType[] {
    return [...this.types.values()];
  }

  resourceFor(group: string, version: string, plural: string): ResourceType | undefined {
    return this.types.get(this.typeKey(group, version, plural));
  }

  /** The cluster's clock, to the second, as timestamps are written. */
  now(): string {
    return this.clock().toISOString().replace(/\.\d+Z$/, 'Z');
  }

  private target(rt: ResourceType, name: string): ErrorTarget {
    return { resource: rt.plural, group: rt.group, name };
  }

  private fieldManager(rt: ResourceType, subresource: string): FieldManager {
    const norm = normalizerFor({ apiVersion: rt.apiVersion, kind: rt.kind }, rt.builtin);
    const reset = this.resetFields(rt, subresource);
    return new FieldManager({
      type: rt.type,
      apiVersion: rt.apiVersion,
      kind: rt.kind,
      subresource,
      ...(reset ? { resetFields: reset } : {}),
      now: () => this.now(),
      normalize: norm.normalize,
      emptyObject: norm.emptyObject,
      fieldsV1Order: rt.builtin ? 'smd' : 'sorted-keys',
    });
  }

  private resetFields(rt: ResourceType, subresource: string): FieldSet | undefined {
    if (rt.builtin) return resetFieldsFor(rt.apiVersion, rt.kind, subresource);
    if (!rt.status) return undefined;
    if (subresource === '') return FieldSet.fromPaths([[fieldName('status')]]);
    if (subresource === 'status') return FieldSet.fromPaths([[fieldName('spec')]]);
    return undefined;
  }

  private normalize(rt: ResourceType, obj: Obj): KubeObject {
    try {
      // Custom resources are pruned to their schema (structural pruning); built-ins by their Go types.
      const o = rt.builtin ? obj : (pruneUnknownFields(obj, rt.type) as Obj);
      return normalizerFor({ apiVersion: rt.apiVersion, kind: rt.kind }, rt.builtin).normalize(o as KubeObject);
    } catch (e) {
      if (e instanceof SsaEngineError) throw badRequest(e.message);
      throw e;
    }
  }

  // ---------------------------------------------------------------- reads

  get(ref: ObjectRef): KubeObject {
    const o = this.store.get(resourceKey(ref.resource), ref.namespace, ref.name);
    if (!o) throw notFound(this.target(ref.resource, ref.name));
    return o;
  }

  list(rt: ResourceType, namespace: string | undefined): { items: KubeObject[]; resourceVersion: string } {
    return { items: this.store.list(resourceKey(rt), namespace), resourceVersion: String(this.store.resourceVersion) };
  }

  /** The `autoscaling/v1` Scale view of an object. */
  getScale(ref: ObjectRef): KubeObject {
    if (!ref.resource.scale) throw notFound(this.target(ref.resource, ref.name));
    return scaleOf(this.get(ref), ref.resource.scale, ref.resource.builtin);
  }

  // ---------------------------------------------------------------- writes

  /** POST: creates an object (Update by the request's manager). */
  create(rt: ResourceType, namespace: string, body: unknown, opts: WriteOptions): KubeObject {
    checkFieldManager(opts.fieldManager, false, opts.force);
    const obj = this.decodeBody(rt, body);
    this.checkUnknownFields(rt, obj, opts);
    // Decoded to the internal version before the field manager runs (Secret stringData → data).
    throughInternalVersion(rt, obj);
    const md = { ...metaOf(obj) };
    if (rt.namespaced) {
      if (md['namespace'] !== undefined && md['namespace'] !== '' && md['namespace'] !== namespace)
        throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
      md['namespace'] = namespace;
    } else delete md['namespace'];
    if (!md['name'] && typeof md['generateName'] === 'string' && md['generateName']) md['name'] = md['generateName'] + randomSuffix();
    const name = typeof md['name'] === 'string' ? md['name'] : '';
    obj['metadata'] = md;
    this.validateMeta(rt, obj, name);
    if (rt.namespaced) this.requireNamespace(namespace);
    const key = resourceKey(rt);
    if (this.store.get(key, rt.namespaced ? namespace : '', name)) throw alreadyExists(this.target(rt, name));
    // System metadata is set by the registry, never by the client.
    for (const k of ['uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp', 'generation', 'selfLink']) delete md[k];
    applyDefaults(rt, obj);
    if (rt.status) obj['status'] = rt.builtin ? {} : undefined;
    if (obj['status'] === undefined) delete obj['status'];
    const out = this.engine(() => this.fieldManager(rt, '').update(undefined, this.normalize(rt, obj), managerName(opts.fieldManager, opts.userAgent)));
    return this.commitCreate(rt, out, opts);
  }

  /** The registry's part of a create after the field manager: system metadata, strategy, validation, storage. */
  private commitCreate(rt: ResourceType, obj: Obj, opts: WriteOptions): KubeObject {
    const md: Obj = { ...metaOf(obj), uid: randomUUID(), creationTimestamp: this.now() };
    if (rt.generation) md['generation'] = 1;
    const prepared: Obj = { ...obj, metadata: md };
    prepareForCreate(rt, prepared, () => this.allocateClusterIp());
    const out = this.normalize(rt, prepared);
    this.validateObject(rt, out);
    if (rt.kind === 'CustomResourceDefinition') this.checkCrd(out);
    if (opts.dryRun) return out;
    const stored = this.put(rt, out);
    this.afterWrite(rt, undefined, stored);
    return stored;
  }

  /** Stores an object with its new resourceVersion in the place the kind's encoding puts it. */
  private put(rt: ResourceType, obj: KubeObject): KubeObject {
    return this.store.put(resourceKey(rt), obj, (o, resourceVersion) => this.normalize(rt, { ...o, metadata: { ...metaOf(o), resourceVersion } }));
  }

  private allocateClusterIp(): string {
    const n = ++this.serviceIps;
    return `10.96.${Math.floor(n / 250)}.${(n % 250) + 1}`;
  }

  /** PUT of the main resource or the `status` subresource. */
  update(ref: ObjectRef, subresource: '' | 'status', body: unknown, opts: WriteOptions): KubeObject {
    checkFieldManager(opts.fieldManager, false, opts.force);
    const rt = ref.resource;
    const live = this.get(ref);
    const next = this.decodeBody(rt, body);
    const md = metaOf(next);
    if (md['name'] !== undefined && md['name'] !== ref.name)
      throw badRequest(`the name of the object (${String(md['name'])}) does not match the name on the URL (${ref.name})`);
    return this.writeUpdate(ref, subresource, live, next, opts);
  }

  /** PATCH in any of the four patch types, on the main resource, `status` or `scale`. */
  patch(ref: ObjectRef, subresource: '' | 'status' | 'scale', type: PatchType, body: string, opts: WriteOptions): KubeObject {
    const rt = ref.resource;
    checkFieldManager(opts.fieldManager, type === 'apply', opts.force);
    if (type === 'apply') return this.apply(ref, subresource, body, opts);
    if (type === 'strategic' && !rt.builtin)
      throw new ApiError('UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml`);
    const patch = parseJson(body);
    const live = this.get(ref);
    if (subresource === 'scale') return this.patchScale(ref, live, type, patch, opts);
    const patched = applyPatch(rt.type, live, type, patch);
    return this.writeUpdate(ref, subresource, live, patched, opts);
  }

  private patchScale(ref: ObjectRef, live: Obj, type: Exclude<PatchType, 'apply'>, patch: unknown, opts: WriteOptions): KubeObject {
    const rt = ref.resource;
    if (!rt.scale) throw notFound(this.target(rt, ref.name));
    const scale = scaleOf(live, rt.scale, rt.builtin);
    const patched = applyPatch(BUILTIN_SCHEMA.type(SCALE_TYPE_NAME), scale, type, patch);
    return this.writeScale(ref, live, patched, opts);
  }

  /** PUT of `/scale`. */
  updateScale(ref: ObjectRef, body: unknown, opts: WriteOptions): KubeObject {
    checkFieldManager(opts.fieldManager, false, opts.force);
    if (!ref.resource.scale) throw notFound(this.target(ref.resource, ref.name));
    if (!isObject(body)) throw badRequest('the body of the request was not a JSON object');
    return this.writeScale(ref, this.get(ref), body, opts);
  }

  private writeScale(ref: ObjectRef, live: Obj, scale: Obj, opts: WriteOptions): KubeObject {
    const rt = ref.resource;
    const rv = metaOf(scale)['resourceVersion'];
    if (rv !== undefined && rv !== '' && rv !== metaOf(live)['resourceVersion'])
      throw conflict(this.target(rt, ref.name), 'the object has been modified; please apply your changes to the latest version and try again');
    const spec = isObject(scale['spec']) ? scale['spec'] : {};
    if (spec['replicas'] !== undefined && (typeof spec['replicas'] !== 'number' || !Number.isInteger(spec['replicas']) || spec['replicas'] < 0))
      throw invalid('Scale', 'autoscaling', ref.name, [{ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(spec['replicas'])}: must be greater than or equal to 0`, field: 'spec.replicas' }]);
    const norm = normalizerFor({ apiVersion: rt.apiVersion, kind: rt.kind }, rt.builtin);
    let out = this.engine(() =>
      updateScale(live as KubeObject, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: {}, spec: { replicas: (spec['replicas'] as number) ?? 0 } } as KubeObject, managerName(opts.fieldManager, opts.userAgent), {
        now: () => this.now(),
        parentType: rt.type,
        normalize: norm.normalize,
      }),
    );
    out = restoreUnchangedTimestamps(live as KubeObject, out);
    const stored = this.commitUpdate(rt, live, out, opts);
    return scaleOf(stored, rt.scale!, rt.builtin);
  }

  private apply(ref: ObjectRef, subresource: string, body: string, opts: WriteOptions): KubeObject {
    const rt = ref.resource;
    if (subresource === 'scale') throw new ApiError('MethodNotAllowed', 'apply through the scale subresource is not supported by the sandbox');
    let config: unknown;
    try {
      config = parseYaml(body, { maxAliasCount: 100 });
    } catch (e) {
      throw badRequest(`error decoding YAML: ${(e as Error).message.split('\n')[0]}`);
    }
    if (!isObject(config)) throw badRequest('the body of the request was not a YAML or JSON object');
    const cmd = metaOf(config);
    if (cmd['name'] !== undefined && cmd['name'] !== ref.name)
      throw badRequest(`the name of the object (${String(cmd['name'])}) does not match the name on the URL (${ref.name})`);
    if (rt.namespaced && cmd['namespace'] !== undefined && cmd['namespace'] !== ref.namespace)
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    const key = resourceKey(rt);
    const live = this.store.get(key, ref.namespace, ref.name);
    if (!live && subresource !== '') throw notFound(this.target(rt, ref.name));
    // A resourceVersion in the applied config is a precondition, as on any write.
    if (live && typeof cmd['resourceVersion'] === 'string' && cmd['resourceVersion'] !== '' && cmd['resourceVersion'] !== metaOf(live)['resourceVersion'])
      throw conflict(this.target(rt, ref.name), 'the object has been modified; please apply your changes to the latest version and try again');
    const manager = opts.fieldManager!;
    const fm = this.fieldManager(rt, subresource);
    if (!live) {
      this.validateMeta(rt, { ...config, metadata: { ...cmd, name: ref.name } }, ref.name);
      if (rt.namespaced) this.requireNamespace(ref.namespace);
    }
    const applied = this.engine(() => fm.apply(live, config as KubeObject, manager, opts.force ?? false), true);
    const md = { ...metaOf(applied), name: ref.name, ...(rt.namespaced ? { namespace: ref.namespace } : {}) };
    const obj: Obj = { ...applied, metadata: md };
    // The apply config was typed at the versioned type, so the Apply entry owns what it wrote (a
    // Secret's stringData keys); only then is the result converted to the internal version.
    throughInternalVersion(rt, obj);
    // Defaults filled after the apply are owned by nobody (05 §2).
    applyDefaults(rt, obj);
    let out = obj as KubeObject;
    if (!live) {
      if (rt.status && rt.builtin) obj['status'] = {};
      else if (rt.status) delete obj['status'];
      return this.commitCreate(rt, this.normalize(rt, obj), opts);
    }
    out = this.resetFromLive(rt, subresource, live, out);
    out = restoreUnchangedTimestamps(live, this.carrySystemMeta(rt, live, out));
    return this.commitUpdate(rt, live, out, opts);
  }

  private writeUpdate(ref: ObjectRef, subresource: '' | 'status', live: KubeObject, next: Obj, opts: WriteOptions): KubeObject {
    const rt = ref.resource;
    const md = { ...metaOf(next) };
    const rv = md['resourceVersion'];
    if (rv !== undefined && rv !== '' && rv !== metaOf(live)['resourceVersion'])
      throw conflict(this.target(rt, ref.name), 'the object has been modified; please apply your changes to the latest version and try again');
    if (rt.namespaced && md['namespace'] !== undefined && md['namespace'] !== '' && md['namespace'] !== ref.namespace)
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    md['name'] = ref.name;
    if (rt.namespaced) md['namespace'] = ref.namespace;
    const obj: Obj = { ...next, metadata: md };
    for (const k of ['apiVersion', 'kind']) if (obj[k] === undefined) obj[k] = live[k];
    if (obj['apiVersion'] !== rt.apiVersion || obj['kind'] !== rt.kind)
      throw badRequest(`the API version in the data (${String(obj['apiVersion'])}) does not match the expected API version (${rt.apiVersion})`);
    this.checkUnknownFields(rt, obj, opts);
    throughInternalVersion(rt, obj);
    let reset = this.resetFromLive(rt, subresource, live, obj as KubeObject);
    reset = this.carrySystemMeta(rt, live, reset);
    applyDefaults(rt, reset);
    let out = this.engine(() => this.fieldManager(rt, subresource).update(live, this.normalize(rt, reset), managerName(opts.fieldManager, opts.userAgent)));
    out = restoreUnchangedTimestamps(live, out);
    this.validateMeta(rt, out, ref.name);
    this.validateObject(rt, out);
    return this.commitUpdate(rt, live, out, opts);
  }

  /**
   * The registry strategy: what an endpoint may not change is copied back from the live object —
   * the reset fields of built-ins (`.status` on the main resource; `.spec` and some metadata on
   * `/status`), and for custom resources everything but `.status` on `/status`.
   */
  private resetFromLive(rt: ResourceType, subresource: string, live: KubeObject, next: KubeObject): KubeObject {
    if (!rt.status) return next;
    const out: Obj = { ...next, metadata: { ...metaOf(next) } };
    const copy = (into: Obj, from: Obj, k: string) => {
      if (from[k] === undefined) delete into[k];
      else into[k] = from[k];
    };
    if (subresource === 'status' && !rt.builtin) {
      for (const k of new Set([...Object.keys(out), ...Object.keys(live)])) if (k !== 'status' && k !== 'metadata') copy(out, live, k);
      for (const k of ['labels', 'annotations', 'finalizers', 'ownerReferences']) copy(out['metadata'] as Obj, metaOf(live), k);
      return out as KubeObject;
    }
    const reset = this.resetFields(rt, subresource);
    for (const path of reset?.paths() ?? []) {
      const names = path.map((pe) => (pe.kind === FIELD ? pe.name : undefined));
      if (names.length === 1) copy(out, live, names[0]!);
      else if (names.length === 2 && names[0] === 'metadata') copy(out['metadata'] as Obj, metaOf(live), names[1]!);
    }
    return out as KubeObject;
  }

  /** uid, creationTimestamp, generation and the rest of the system metadata come from the live object. */
  private carrySystemMeta(rt: ResourceType, live: KubeObject, next: KubeObject): KubeObject {
    const lmd = metaOf(live);
    const md: Obj = { ...metaOf(next) };
    for (const k of ['uid', 'creationTimestamp', 'generation', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'resourceVersion']) {
      if (lmd[k] === undefined) delete md[k];
      else md[k] = lmd[k];
    }
    return this.normalize(rt, { ...next, metadata: md });
  }

  private commitUpdate(rt: ResourceType, live: Obj, out: KubeObject, opts: WriteOptions): KubeObject {
    const prepared: Obj = { ...out };
    prepareForUpdate(rt, live, prepared);
    out = this.bumpGeneration(rt, live, this.normalize(rt, prepared));
    if (JSON.stringify(out) === JSON.stringify(live)) return live as KubeObject;
    if (rt.kind === 'CustomResourceDefinition') this.checkCrd(out, live);
    if (opts.dryRun) return out;
    const stored = this.put(rt, out);
    this.afterWrite(rt, live, stored);
    const md = metaOf(stored);
    // A deleted object whose last finalizer was just removed goes away now.
    if (md['deletionTimestamp'] && !(Array.isArray(md['finalizers']) && md['finalizers'].length)) this.deleteObject(rt, stored, 'Background');
    return stored;
  }

  private bumpGeneration(rt: ResourceType, live: Obj, out: KubeObject): KubeObject {
    if (!rt.generation) return out;
    const body = (o: Obj) => JSON.stringify(Object.entries(o).filter(([k]) => k !== 'metadata' && k !== 'status' && k !== 'kind' && k !== 'apiVersion'));
    if (body(live) === body(out)) return out;
    const g = Number(metaOf(live)['generation'] ?? 0) + 1;
    return this.normalize(rt, { ...out, metadata: { ...metaOf(out), generation: g } });
  }

  /** Runs an engine call, turning its errors into the apiserver's answers. */
  private engine<T>(f: () => T, isApply = false): T {
    try {
      return f();
    } catch (e) {
      if (e instanceof ConflictError) throw new ApiError('Conflict', e.message, undefined, e.toStatus() as Record<string, unknown>, 409);
      if (e instanceof SsaEngineError) {
        if (e.code === 'validation' && isApply) throw new ApiError('InternalError', e.message, undefined, undefined, 500);
        if (e.code === 'validation') throw new ApiError('Invalid', e.message, undefined, undefined, 422);
        throw badRequest(e.message);
      }
      throw e;
    }
  }

  private decodeBody(rt: ResourceType, body: unknown): Obj {
    if (!isObject(body)) throw badRequest('the body of the request was not a JSON object');
    const obj = structuredClone(body);
    // The decoder takes a missing apiVersion or kind from the endpoint.
    obj['apiVersion'] ??= rt.apiVersion;
    obj['kind'] ??= rt.kind;
    if (obj['apiVersion'] !== rt.apiVersion || obj['kind'] !== rt.kind) {
      if (obj['kind'] !== undefined && obj['kind'] !== rt.kind && obj['apiVersion'] === rt.apiVersion)
        throw badRequest(`the kind in the data (${String(obj['kind'])}) does not match the expected kind (${rt.kind})`);
      throw badRequest(`the API version in the data (${String(obj['apiVersion'])}) does not match the expected API version (${rt.apiVersion})`);
    }
    if (obj['metadata'] !== undefined && !isObject(obj['metadata'])) throw badRequest('metadata: must be an object');
    return obj;
  }

  /** Type errors are 400s (the Go decoder fails); unknown fields fail only with `fieldValidation=Strict`. */
  private checkUnknownFields(rt: ResourceType, obj: Obj, opts: WriteOptions): void {
    const v = safeValidate(obj as KubeObject, rt.type, { allowDuplicates: true });
    if (v.success) return;
    const unknown = v.issues.filter((i) => i.code === 'field-not-declared');
    const other = v.issues.filter((i) => i.code !== 'field-not-declared');
    if (other.length) throw badRequest(`${rt.kind} in version "${rt.version}" cannot be handled as a ${rt.kind}: ${other.map((i) => `${i.path}: ${i.message}`).join(', ')}`);
    if (!unknown.length || opts.fieldValidation === 'Ignore') return;
    const fields = unknown.map((i) => `unknown field "${i.path.replace(/^\./, '')}"`);
    if (opts.fieldValidation === 'Strict') {
      const prefix = rt.builtin ? `${rt.kind} in version "${rt.version}" cannot be handled as a ${rt.kind}: ` : '';
      throw badRequest(`${prefix}strict decoding error: ${fields.join(', ')}`);
    }
    for (const f of fields) opts.warn?.(f);
  }

  private validateMeta(rt: ResourceType, obj: Obj, name: string): void {
    const causes = validateObjectMeta(rt, obj, name);
    if (causes.length) throw invalid(rt.kind, rt.group, name, causes);
  }

  private validateObject(rt: ResourceType, obj: Obj): void {
    const md = metaOf(obj);
    const v = safeValidate(obj as KubeObject, rt.type, { allowDuplicates: true });
    if (!v.success) {
      const bad = v.issues.filter((i) => i.code === 'duplicate-key' || i.code === 'invalid-list-item');
      if (bad.length)
        throw invalid(rt.kind, rt.group, String(md['name']), bad.map((i) => ({ reason: i.code === 'duplicate-key' ? 'FieldValueDuplicate' : 'FieldValueInvalid', message: i.message, field: i.path.replace(/^\./, '') })));
    }
  }

  private requireNamespace(namespace: string): void {
    if (!this.store.get('namespaces', '', namespace)) throw notFound({ resource: 'namespaces', group: '', name: namespace });
  }

  // ---------------------------------------------------------------- delete

  /** DELETE: removes the object, then collects its dependents (ownerReferences) and, for a namespace, its contents. */
  delete(ref: ObjectRef, opts: DeleteOptions): KubeObject {
    const live = this.get(ref);
    if (opts.dryRun) return live;
    return this.deleteObject(ref.resource, live, opts.propagationPolicy ?? 'Background');
  }

  /**
   * Deletes now, or — while finalizers remain — marks the object with a deletionTimestamp; it goes
   * away when an update removes its last finalizer.
   */
  private deleteObject(rt: ResourceType, live: Obj, policy: DeleteOptions['propagationPolicy']): KubeObject {
    const md = metaOf(live);
    const finalizers = Array.isArray(md['finalizers']) ? md['finalizers'] : [];
    if (finalizers.length > 0) {
      if (md['deletionTimestamp']) return live as KubeObject;
      const marked = this.normalize(rt, { ...live, metadata: { ...md, deletionTimestamp: this.now(), deletionGracePeriodSeconds: 0 } });
      return this.put(rt, marked);
    }
    if (rt.kind === 'Namespace' && rt.group === '') this.terminateNamespace(rt, live);
    const gone = this.store.delete(resourceKey(rt), String(md['namespace'] ?? ''), String(md['name']));
    if (!gone) return live as KubeObject;
    this.afterDelete(rt, gone, policy);
    return gone;
  }

  /**
   * What the namespace controller does, at once: the namespace turns Terminating (a MODIFIED event
   * watchers see), everything in it is deleted, then the namespace goes.
   */
  private terminateNamespace(rt: ResourceType, ns: Obj): void {
    const md = metaOf(ns);
    const terminating = this.normalize(rt, { ...ns, metadata: { ...md, deletionTimestamp: this.now() }, status: { phase: 'Terminating' } });
    this.put(rt, terminating);
    for (const t of this.resources()) if (t.namespaced) for (const o of this.store.list(resourceKey(t), String(md['name']))) this.deleteQuietly(t, o);
  }

  private afterDelete(rt: ResourceType, gone: KubeObject, policy: DeleteOptions['propagationPolicy']): void {
    const md = metaOf(gone);
    if (rt.kind === 'CustomResourceDefinition') this.unserveCrd(gone);
    this.collectGarbage(String(md['uid']), policy);
  }

  private deleteQuietly(rt: ResourceType, o: Obj): void {
    this.deleteObject(rt, o, 'Background');
  }

  /** The garbage collector: dependents whose owners are all gone are deleted; with Orphan they lose the reference. */
  private collectGarbage(ownerUid: string, policy: DeleteOptions['propagationPolicy']): void {
    for (const t of this.resources()) {
      for (const o of this.store.list(resourceKey(t))) {
        const md = metaOf(o);
        const refs = Array.isArray(md['ownerReferences']) ? (md['ownerReferences'] as Obj[]) : [];
        if (!refs.some((r) => r['uid'] === ownerUid)) continue;
        if (policy === 'Orphan') {
          const left = refs.filter((r) => r['uid'] !== ownerUid);
          const ref: ObjectRef = { resource: t, namespace: String(md['namespace'] ?? ''), name: String(md['name']) };
          const next = { ...o, metadata: { ...md, ownerReferences: left.length ? left : undefined } };
          if (!left.length) delete (next.metadata as Obj)['ownerReferences'];
          this.writeUpdate(ref, '', o as KubeObject, next, { fieldManager: 'kube-controller-manager' });
          continue;
        }
        const alive = refs.some((r) => r['uid'] !== ownerUid && this.uidExists(String(r['uid'])));
        if (!alive) this.deleteQuietly(t, o);
      }
    }
  }

  private uidExists(uid: string): boolean {
    for (const t of this.resources()) for (const o of this.store.list(resourceKey(t))) if (metaOf(o)['uid'] === uid) return true;
    return false;
  }

  // ---------------------------------------------------------------- CRDs

  private afterWrite(rt: ResourceType, live: Obj | undefined, stored: KubeObject): void {
    if (rt.kind !== 'CustomResourceDefinition' || rt.group !== 'apiextensions.k8s.io') return;
    if (live) for (const t of crdResourceTypes(live, this.crdConverter)) this.types.delete(this.typeKey(t.group, t.version, t.plural));
    for (const t of crdResourceTypes(stored, this.crdConverter)) this.types.set(this.typeKey(t.group, t.version, t.plural), t);
    this.onResourcesChanged();
    if (!live) this.establishCrd(rt, stored);
  }

  /** What the apiextensions controllers write to a new CRD's status (as kube-apiserver, through /status). */
  private establishCrd(rt: ResourceType, crd: KubeObject): void {
    const spec = metaOf({ metadata: crd['spec'] });
    const names = isObject(spec['names']) ? spec['names'] : {};
    const versions = Array.isArray(spec['versions']) ? (spec['versions'] as Obj[]) : [];
    const storage = versions.find((v) => v['storage'] === true) ?? versions[0];
    const now = this.now();
    const status = {
      acceptedNames: { ...names, singular: names['singular'] ?? String(names['kind'] ?? '').toLowerCase(), listKind: names['listKind'] ?? `${String(names['kind'])}List` },
      conditions: [
        { type: 'NamesAccepted', status: 'True', lastTransitionTime: now, reason: 'NoConflicts', message: 'no conflicts found' },
        { type: 'Established', status: 'True', lastTransitionTime: now, reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' },
      ],
      storedVersions: storage ? [storage['name']] : [],
    };
    const name = String(metaOf(crd)['name']);
    this.update({ resource: rt, namespace: '', name }, 'status', { ...crd, status }, { fieldManager: 'kube-apiserver' });
  }

  private checkCrd(obj: Obj, live?: Obj): void {
    let types: ResourceType[];
    try {
      types = crdResourceTypes(obj, this.crdConverter);
    } catch (e) {
      if (e instanceof ApiError) throw e;
      throw invalid('CustomResourceDefinition', 'apiextensions.k8s.io', String(metaOf(obj)['name']), [
        { reason: 'FieldValueInvalid', message: (e as Error).message, field: 'spec' },
      ]);
    }
    const liveKeys = new Set((live ? crdResourceTypes(live, this.crdConverter) : []).map((t) => this.typeKey(t.group, t.version, t.plural)));
    for (const t of types) {
      const k = this.typeKey(t.group, t.version, t.plural);
      if (this.types.has(k) && !liveKeys.has(k))
        throw invalid('CustomResourceDefinition', 'apiextensions.k8s.io', String(metaOf(obj)['name']), [
          { reason: 'FieldValueInvalid', message: `Invalid value: "${t.plural}": resource is already served`, field: 'spec.names.plural' },
        ]);
    }
  }

  private unserveCrd(crd: Obj): void {
    for (const t of crdResourceTypes(crd, this.crdConverter)) {
      for (const o of this.store.list(resourceKey(t))) this.deleteQuietly(t, o);
      this.types.delete(this.typeKey(t.group, t.version, t.plural));
    }
    this.onResourcesChanged();
  }

  /** Subscribes to the store (see `ObjectStore.watch`). */
  watch(rt: ResourceType, namespace: string | undefined, since: number | undefined, send: (e: StoreEvent) => void): () => void {
    return this.store.watch({ resource: resourceKey(rt), ...(namespace !== undefined ? { namespace } : {}) }, since, send);
  }
}

function randomSuffix(): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  let s = '';
  for (let i = 0; i < 5; i++) s += alphabet[Math.floor(Math.random() * alphabet.length)];
  return s;
}

/** Parses a JSON request body; malformed JSON is a 400. */
export function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch (e) {
    throw badRequest(`error decoding patch: ${(e as Error).message}`);
  }
}
