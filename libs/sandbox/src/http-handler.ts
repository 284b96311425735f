import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseYaml } from 'yaml';
import type { KubeObject } from '../../ssa-engine/src/index.js';
import { ApiError, badRequest, tooLargeResourceVersion } from './api-error.js';
import { Cluster, PATCH_CONTENT_TYPES, parseJson, type DeleteOptions, type ObjectRef, type WriteOptions } from './cluster.js';
import { aggregatedDiscovery, aggregatedDiscoveryVersion, apiGroupDoc, apiGroupList, apiResourceList, apiVersions } from './discovery.js';
import { ResourceVersionTooOldError, type StoreEvent } from './object-store.js';
import { decodeKubernetesProtobuf, PROTOBUF_CONTENT_TYPE } from './protobuf/decode-protobuf.js';
import { tableVersion, toTable } from './table.js';
import { openApiV2Document, openApiV3Document, openApiV3Index } from './openapi.js';
import type { ResourceType } from './resource-type.js';
import { fieldSelector, labelSelector, selectableFields, type Selector } from './selectors.js';
import { type Obj, isObject } from './json.js';
import { authenticate, authorizeRequest, createToken, reviewSelf, reviewSelfSubjectAccess, reviewSubjectAccess, reviewToken } from './auth-api.js';
import { requestAttributes } from './request-info.js';

const MAX_BODY = 3 * 1024 * 1024;

export interface HandlerOptions {
  /** How often a watch with `allowWatchBookmarks` gets a BOOKMARK event. */
  readonly bookmarkIntervalMs: number;
  /** The `host:port` clients reach the server at (for `/api`). */
  readonly serverAddress: () => string;
  /** Receives one line per finished request (method, path, status, milliseconds). */
  readonly log?: (line: RequestLogLine) => void;
  /**
   * How long a read from the "watch cache" waits for a resourceVersion the store has not reached
   * before answering Too large resource version (the apiserver's blockTimeout: 3 s).
   */
  readonly freshnessWaitMs?: number;
  /** Serves `POST /sandbox/replace` (see `Sandbox.replace`). */
  readonly replace?: () => void;
}

export interface RequestLogLine {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly ms: number;
  readonly userAgent?: string;
}

/** Field-selectable fields per kind beyond `metadata.name` / `metadata.namespace`. */
const SELECTABLE: Record<string, readonly string[]> = {
  'v1/Pod': ['spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'spec.hostNetwork', 'status.phase', 'status.podIP', 'status.nominatedNodeName'],
  'v1/Secret': ['type'],
  'v1/Namespace': ['status.phase'],
  'batch/v1/Job': ['status.successful'],
};

const VERSION = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.0-ssa-sandbox',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2026-01-01T00:00:00Z',
  goVersion: 'go1.23.0',
  compiler: 'gc',
  platform: 'linux/amd64',
};

function send(res: ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-cache, private' });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new ApiError('BadRequest', 'Request entity too large: limit is 3145728', undefined, undefined, 413));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** A resource URL taken apart: `/apis/apps/v1/namespaces/ns/deployments/web/scale`. */
interface ResourcePath {
  readonly group: string;
  readonly version: string;
  readonly namespace?: string;
  readonly plural: string;
  readonly name?: string;
  readonly subresource?: string;
}

function parseResourcePath(segs: string[]): ResourcePath | undefined {
  let group = '';
  let version: string;
  let rest: string[];
  if (segs[0] === 'api' && segs.length >= 3) {
    version = segs[1]!;
    rest = segs.slice(2);
  } else if (segs[0] === 'apis' && segs.length >= 4) {
    group = segs[1]!;
    version = segs[2]!;
    rest = segs.slice(3);
  } else return undefined;
  let namespace: string | undefined;
  // `/namespaces/{ns}/{resource}…`; `/namespaces/{name}[/status]` is the Namespace resource itself.
  if (rest[0] === 'namespaces' && rest.length >= 3 && !(group === '' && rest.length === 3 && (rest[2] === 'status' || rest[2] === 'finalize'))) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  if (rest.length < 1 || rest.length > 3) return undefined;
  return { group, version, ...(namespace !== undefined ? { namespace } : {}), plural: rest[0]!, ...(rest[1] !== undefined ? { name: rest[1] } : {}), ...(rest[2] !== undefined ? { subresource: rest[2] } : {}) };
}

/** Whether an Accept header allows plain JSON (the only encoding the sandbox writes; Tables are not served). */
function acceptsJson(accept: string | undefined): boolean {
  if (!accept) return true;
  return accept.split(',').some((range) => {
    const [type, ...params] = range.split(';').map((x) => x.trim().toLowerCase());
    if (params.some((p) => p.startsWith('as=') && p !== 'as=table' && p !== 'as=apigroupdiscoverylist')) return false;
    return type === 'application/json' || type === '*/*' || type === 'application/*' || type === '';
  });
}

/** The apiserver's answer to a path it does not serve. */
const noSuchResource = () => new ApiError('NotFound', 'the server could not find the requested resource');

const FIELD_VALIDATION = new Set(['Strict', 'Warn', 'Ignore']);
const PROPAGATION = new Set(['Orphan', 'Background', 'Foreground']);

function bool(v: string | null): boolean {
  return v === 'true' || v === '1';
}

/**
 * The HTTP face of a `Cluster`: discovery, OpenAPI, and the REST verbs of every served resource,
 * with Status bodies for every failure. Plain `node:http`: paths are data here, not routes.
 */
/** Paged lists kept for their continue tokens: how many, and how long (then the token is too old: 410). */
const LIST_SNAPSHOTS_KEPT = 64;
const LIST_SNAPSHOT_TTL_MS = 5 * 60_000;

export class HttpHandler {
  private openApiCache = new Map<string, string>();
  /**
   * Every page of a paged list is as of its first page's resourceVersion, as etcd serves it (one
   * revision for all chunks): the matched objects are kept at the first page and the next pages
   * are cut from them, so an object changed meanwhile never shows up newer than the list's version.
   */
  private listSnapshots = new Map<string, { items: KubeObject[]; at: number }>();
  private listSnapshotCount = 0;

  constructor(
    private cluster: Cluster,
    private readonly opts: HandlerOptions,
  ) {
    cluster.onResourcesChanged = () => this.openApiCache.clear();
  }

  /** Serves another cluster from now on (a new cluster behind the same URL). */
  replaceCluster(cluster: Cluster): void {
    this.cluster.onResourcesChanged = () => {};
    this.cluster = cluster;
    this.openApiCache.clear();
    this.listSnapshots.clear();
    cluster.onResourcesChanged = () => this.openApiCache.clear();
  }

  /** Handles one request; never throws. */
  handle = (req: IncomingMessage, res: ServerResponse): void => {
    const log = this.opts.log;
    if (log) {
      const start = Date.now();
      res.on('close', () =>
        log({ method: req.method ?? '', url: req.url ?? '', status: res.statusCode, ms: Date.now() - start, ...(req.headers['user-agent'] ? { userAgent: req.headers['user-agent'] } : {}) }),
      );
    }
    this.route(req, res).catch((e: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const err = e instanceof ApiError ? e : new ApiError('InternalError', `Internal error occurred: ${(e as Error)?.message ?? String(e)}`);
      send(res, err.code, err.toStatus());
    });
  };

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Authentication, then authorization, before anything else (as the apiserver's filter chain).
    const user = authenticate(this.cluster, req.headers.authorization);
    const url = new URL(req.url ?? '/', 'http://sandbox');
    authorizeRequest(this.cluster, requestAttributes(user, req.method ?? 'GET', url.pathname.replace(/\/+$/, '') || '/', url.searchParams));
    if (!acceptsJson(req.headers.accept))
      throw new ApiError('NotAcceptable', `only the following media types are accepted: application/json`);
    let segs: string[];
    try {
      segs = url.pathname.split('/').filter((s) => s !== '').map(decodeURIComponent);
    } catch {
      throw badRequest(`malformed URL path: ${url.pathname}`);
    }
    const method = req.method ?? 'GET';
    const p = url.pathname.replace(/\/+$/, '') || '/';
    if (method === 'GET') {
      if (p === '/version') return send(res, 200, VERSION);
      if (p === '/healthz' || p === '/readyz' || p === '/livez') {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.end('ok');
        return;
      }
      if (p === '/api' || p === '/apis') {
        const aggregated = aggregatedDiscoveryVersion(req.headers.accept);
        if (aggregated) {
          const text = JSON.stringify(aggregatedDiscovery(this.cluster.resources(), p === '/api', aggregated));
          const [, v] = aggregated.split('/');
          res.writeHead(200, { 'Content-Type': `application/json;g=apidiscovery.k8s.io;v=${v};as=APIGroupDiscoveryList`, 'Content-Length': Buffer.byteLength(text), Vary: 'Accept' });
          res.end(text);
          return;
        }
        return send(res, 200, p === '/api' ? apiVersions(this.opts.serverAddress()) : apiGroupList(this.cluster.resources()));
      }
      if (segs[0] === 'apis' && segs.length === 2) {
        const g = apiGroupDoc(this.cluster.resources(), segs[1]!);
        if (g) return send(res, 200, g);
      }
      if ((segs[0] === 'api' && segs.length === 2) || (segs[0] === 'apis' && segs.length === 3)) {
        const [group, version] = segs[0] === 'api' ? ['', segs[1]!] : [segs[1]!, segs[2]!];
        const l = apiResourceList(this.cluster.resources(), group, version);
        if (l) return send(res, 200, l);
      }
      if (p === '/openapi/v2') return this.sendCached(res, 'v2', () => openApiV2Document(this.cluster.resources()));
      if (p === '/openapi/v3') return send(res, 200, openApiV3Index(this.cluster.resources(), (path) => this.openApiDoc(path)));
      if (segs[0] === 'openapi' && segs[1] === 'v3' && segs.length > 2) {
        const doc = this.openApiDoc(segs.slice(2).join('/'));
        if (doc !== undefined) {
          res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(doc), 'Cache-Control': 'public, immutable' });
          res.end(doc);
          return;
        }
      }
    }
    // Not Kubernetes: lets a test that runs the sandbox in another process make old resourceVersions expire.
    if (method === 'POST' && p === '/sandbox/compact') {
      this.cluster.store.compact();
      return send(res, 200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', message: `compacted through ${this.cluster.store.resourceVersion}`, code: 200 });
    }
    // Not Kubernetes: the same for a new cluster behind this URL (`Sandbox.replace`), once this answer is sent.
    if (method === 'POST' && p === '/sandbox/replace' && this.opts.replace) {
      const replace = this.opts.replace;
      res.on('finish', () => replace());
      return send(res, 200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', message: 'replaced by a new cluster', code: 200 });
    }
    const rp = parseResourcePath(segs);
    if (!rp) throw noSuchResource();
    if (method === 'POST' && rp.version === 'v1' && rp.name === undefined) {
      // The review APIs: created and answered, never stored.
      const review =
        rp.group === 'authentication.k8s.io' && rp.plural === 'tokenreviews' && rp.namespace === undefined
          ? (body: unknown) => reviewToken(this.cluster, body)
          : rp.group === 'authentication.k8s.io' && rp.plural === 'selfsubjectreviews' && rp.namespace === undefined
            ? () => reviewSelf(user)
          : rp.group === 'authorization.k8s.io' && rp.plural === 'subjectaccessreviews' && rp.namespace === undefined
            ? (body: unknown) => reviewSubjectAccess(this.cluster, body)
            : rp.group === 'authorization.k8s.io' && rp.plural === 'selfsubjectaccessreviews' && rp.namespace === undefined
              ? (body: unknown) => reviewSelfSubjectAccess(this.cluster, user, body)
              : rp.group === 'authorization.k8s.io' && rp.plural === 'localsubjectaccessreviews' && rp.namespace !== undefined
                ? (body: unknown) => reviewSubjectAccess(this.cluster, body, 'LocalSubjectAccessReview', rp.namespace)
                : undefined;
      if (review) return send(res, 201, review(this.decodeObject(req, await readBody(req))));
    }
    const rt = this.cluster.resourceFor(rp.group, rp.version, rp.plural);
    if (!rt) throw noSuchResource();
    if (!rt.namespaced && rp.namespace !== undefined) throw noSuchResource();
    if (rt.group === '' && rt.plural === 'serviceaccounts' && rp.subresource === 'token' && rp.name !== undefined && rp.namespace !== undefined) {
      if (method !== 'POST') throw new ApiError('MethodNotAllowed', 'the server does not allow this method on the requested resource');
      return send(res, 201, createToken(this.cluster, rp.namespace, rp.name, this.decodeObject(req, await readBody(req))));
    }
    const q = url.searchParams;
    const namespace = rt.namespaced ? rp.namespace : undefined;
    const sub = rp.subresource ?? '';
    if (sub !== '' && sub !== 'status' && sub !== 'scale') throw noSuchResource();
    if ((sub === 'status' && !rt.status) || (sub === 'scale' && !rt.scale)) throw noSuchResource();
    const warnings: string[] = [];
    const write: WriteOptions = {
      // RFC 7234 warn-code 299, the way the apiserver sends admission and field-validation warnings.
      warn: (message) => {
        warnings.push(`299 - ${JSON.stringify(message)}`);
        res.setHeader('Warning', warnings);
      },
      ...(q.get('fieldManager') ? { fieldManager: q.get('fieldManager')! } : {}),
      ...(req.headers['user-agent'] ? { userAgent: req.headers['user-agent'] } : {}),
      ...(q.has('force') ? { force: bool(q.get('force')) } : {}),
      dryRun: q.getAll('dryRun').includes('All'),
      ...(q.get('fieldValidation') ? { fieldValidation: q.get('fieldValidation') as WriteOptions['fieldValidation'] } : {}),
    };
    if (write.fieldValidation && !FIELD_VALIDATION.has(write.fieldValidation))
      throw badRequest(`fieldValidation: Unsupported value: "${write.fieldValidation}": supported values: "Ignore", "Strict", "Warn"`);
    if (rp.name === undefined) {
      if (rt.namespaced && namespace === undefined && method !== 'GET') throw noSuchResource();
      switch (method) {
        case 'GET': {
          const table = tableVersion(req.headers.accept);
          if (bool(q.get('watch'))) return await this.watch(req, res, rt, namespace, q, table);
          const { items, metadata } = await this.list(rt, namespace, q);
          if (table) return send(res, 200, toTable(rt, items, table, metadata));
          // Typed lists of built-ins carry no kind/apiVersion on their items; unstructured lists do.
          const out = rt.builtin ? items.map(({ kind: _k, apiVersion: _a, ...rest }) => rest) : items;
          return send(res, 200, { kind: `${rt.kind}List`, apiVersion: rt.apiVersion, metadata, items: out });
        }
        case 'POST':
          return send(res, 201, this.cluster.create(rt, namespace ?? '', this.decodeObject(req, await readBody(req)), write));
        case 'DELETE': {
          const items = this.cluster.list(rt, namespace).items.filter((o) => this.selector(rt, q)(o));
          for (const o of items) {
            const md = o['metadata'] as Obj;
            this.cluster.delete({ resource: rt, namespace: String(md['namespace'] ?? ''), name: String(md['name']) }, { dryRun: write.dryRun ?? false });
          }
          return send(res, 200, { kind: `${rt.kind}List`, apiVersion: rt.apiVersion, metadata: { resourceVersion: String(this.cluster.store.resourceVersion) }, items });
        }
        default:
          throw new ApiError('MethodNotAllowed', `the server does not allow this method on the requested resource`);
      }
    }
    const ref: ObjectRef = { resource: rt, namespace: namespace ?? '', name: rp.name };
    switch (method) {
      case 'GET': {
        if (sub === 'scale') return send(res, 200, this.cluster.getScale(ref));
        const obj = this.cluster.get(ref);
        const table = tableVersion(req.headers.accept);
        if (table) return send(res, 200, toTable(rt, [obj], table, { resourceVersion: String((obj['metadata'] as Obj)['resourceVersion']) }));
        return send(res, 200, obj);
      }
      case 'PUT': {
        const body = this.decodeObject(req, await readBody(req));
        if (sub === 'scale') return send(res, 200, this.cluster.updateScale(ref, body, write));
        return send(res, 200, this.cluster.update(ref, sub as '' | 'status', body, write));
      }
      case 'PATCH': {
        const ct = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
        const type = PATCH_CONTENT_TYPES[ct];
        if (!type)
          throw new ApiError(
            'UnsupportedMediaType',
            `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml${rt.builtin ? ', application/strategic-merge-patch+json' : ''}`,
          );
        const body = (await readBody(req)).toString('utf8');
        const existed = type === 'apply' && this.exists(ref);
        const out = this.cluster.patch(ref, sub as '' | 'status' | 'scale', type, body, write);
        return send(res, type === 'apply' && !existed ? 201 : 200, out);
      }
      case 'DELETE': {
        if (sub) throw new ApiError('MethodNotAllowed', 'the server does not allow this method on the requested resource');
        const raw = (await readBody(req)).toString('utf8');
        const opts = raw.trim() ? parseJson(raw) : {};
        const policy = (isObject(opts) && typeof opts['propagationPolicy'] === 'string' ? opts['propagationPolicy'] : q.get('propagationPolicy')) ?? undefined;
        if (policy !== undefined && !PROPAGATION.has(policy))
          throw badRequest(`propagationPolicy: Unsupported value: "${policy}": supported values: "Background", "Foreground", "Orphan"`);
        const orphan = isObject(opts) && opts['orphanDependents'] === true;
        const gone = this.cluster.delete(ref, {
          ...(policy ? { propagationPolicy: policy as NonNullable<DeleteOptions['propagationPolicy']> } : orphan ? { propagationPolicy: 'Orphan' } : {}),
          dryRun: write.dryRun ?? false,
        });
        return send(res, 200, gone);
      }
      default:
        throw new ApiError('MethodNotAllowed', 'the server does not allow this method on the requested resource');
    }
  }

  private exists(ref: ObjectRef): boolean {
    try {
      this.cluster.get(ref);
      return true;
    } catch {
      return false;
    }
  }

  private sendCached(res: ServerResponse, key: string, build: () => unknown): void {
    let text = this.openApiCache.get(key);
    if (text === undefined) this.openApiCache.set(key, (text = JSON.stringify(build())));
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  }

  private openApiDoc(path: string): string | undefined {
    const cached = this.openApiCache.get(path);
    if (cached !== undefined) return cached;
    const segs = path.split('/');
    const [group, version] = segs[0] === 'api' && segs.length === 2 ? ['', segs[1]!] : segs[0] === 'apis' && segs.length === 3 ? [segs[1]!, segs[2]!] : [undefined, undefined];
    if (version === undefined) return undefined;
    const doc = openApiV3Document(this.cluster.resources(), group!, version);
    if (!doc) return undefined;
    const text = JSON.stringify(doc);
    this.openApiCache.set(path, text);
    return text;
  }

  /** Request bodies of create and update: JSON, YAML, or Kubernetes protobuf (kubectl's typed clients). */
  private decodeObject(req: IncomingMessage, raw: Buffer): unknown {
    const ct = (req.headers['content-type'] ?? 'application/json').split(';')[0]!.trim().toLowerCase();
    if (ct === PROTOBUF_CONTENT_TYPE) return decodeKubernetesProtobuf(raw);
    const body = raw.toString('utf8');
    if (ct === 'application/yaml') {
      try {
        return parseYaml(body);
      } catch (e) {
        throw badRequest(`error decoding YAML: ${(e as Error).message.split('\n')[0]}`);
      }
    }
    if (ct !== 'application/json' && ct !== '*/*' && ct !== '')
      throw new ApiError('UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf`);
    try {
      return JSON.parse(body);
    } catch (e) {
      throw badRequest(`Object 'Kind' is missing in '${body.slice(0, 200)}': ${(e as Error).message}`);
    }
  }

  private selector(rt: ResourceType, q: URLSearchParams): (o: Obj) => boolean {
    const labels: Selector = labelSelector(q.get('labelSelector') ?? undefined);
    const extra = SELECTABLE[`${rt.apiVersion}/${rt.kind}`] ?? [];
    const fields: Selector = fieldSelector(q.get('fieldSelector') ?? undefined, (f) => f === 'metadata.name' || f === 'metadata.namespace' || extra.includes(f));
    return (o) => {
      const md = isObject(o['metadata']) ? o['metadata'] : {};
      return labels((isObject(md['labels']) ? md['labels'] : {}) as Record<string, string>) && fields(selectableFields(o, extra));
    };
  }

  /** The objects a list request selects (one page of them) and the list's metadata. */
  private async list(rt: ResourceType, namespace: string | undefined, q: URLSearchParams): Promise<{ items: KubeObject[]; metadata: Obj }> {
    const rv = q.get('resourceVersion');
    let current = this.cluster.store.resourceVersion;
    if (rv && rv !== '0') {
      const n = Number(rv);
      if (!Number.isInteger(n) || n < 0) throw badRequest(`invalid resource version: ${rv}`);
      if (n > current) {
        // Paged and Exact lists go to etcd, which answers at once (no retry hint); the others are
        // served by the watch cache, which first waits a little for the resourceVersion to arrive.
        const fromEtcd = Number(q.get('limit') ?? 0) > 0 || q.has('continue') || q.get('resourceVersionMatch') === 'Exact';
        if (fromEtcd || !(await this.cluster.store.reached(n, this.freshnessWaitMs))) throw tooLargeResourceVersion(n, current, fromEtcd ? 0 : 1);
        current = this.cluster.store.resourceVersion;
      }
    }
    const match = this.selector(rt, q);
    let items: KubeObject[];
    let resourceVersion = String(current);
    let snapshot: string;
    const cont = q.get('continue');
    if (cont) {
      let token: { rv: string; start: string; snapshot?: string };
      try {
        token = JSON.parse(Buffer.from(cont, 'base64').toString('utf8')) as { rv: string; start: string; snapshot?: string };
      } catch {
        throw badRequest('continue key is not valid: illegal base64 data');
      }
      if (typeof token?.start !== 'string') throw badRequest('continue key is not valid');
      const kept = token.snapshot === undefined ? undefined : this.listSnapshots.get(token.snapshot);
      if (!kept || Date.now() - kept.at > LIST_SNAPSHOT_TTL_MS) {
        // The apiserver's answer once etcd compacted the list's revision.
        throw new ApiError(
          'Expired',
          'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.',
        );
      }
      snapshot = token.snapshot!;
      resourceVersion = String(token.rv);
      items = kept.items.filter((o) => objectKey(o) > token.start);
    } else {
      items = this.cluster.list(rt, namespace).items.filter(match);
      snapshot = '';
    }
    const limit = Number(q.get('limit') ?? 0);
    const metadata: Obj = { resourceVersion };
    if (Number.isInteger(limit) && limit > 0 && items.length > limit) {
      if (snapshot === '') snapshot = this.keepListSnapshot(items);
      const remaining = items.length - limit;
      items = items.slice(0, limit);
      metadata['continue'] = Buffer.from(JSON.stringify({ rv: resourceVersion, start: objectKey(items[items.length - 1]!), snapshot })).toString('base64');
      metadata['remainingItemCount'] = remaining;
    }
    return { items, metadata };
  }

  /** Keeps a paged list's objects as they are now (the store's list hands out copies) for its next pages. */
  private keepListSnapshot(items: KubeObject[]): string {
    const id = String(++this.listSnapshotCount);
    this.listSnapshots.set(id, { items, at: Date.now() });
    while (this.listSnapshots.size > LIST_SNAPSHOTS_KEPT) this.listSnapshots.delete(this.listSnapshots.keys().next().value!);
    return id;
  }

  private get freshnessWaitMs(): number {
    return this.opts.freshnessWaitMs ?? 3_000;
  }

  private async watch(req: IncomingMessage, res: ServerResponse, rt: ResourceType, namespace: string | undefined, q: URLSearchParams, table?: string): Promise<void> {
    const match = this.selector(rt, q);
    const rvParam = q.get('resourceVersion') ?? '';
    const sendInitial = q.get('sendInitialEvents') === 'true';
    const bookmarks = bool(q.get('allowWatchBookmarks'));
    const timeout = Number(q.get('timeoutSeconds') ?? 0);
    const asked = Number(rvParam);
    // A resourceVersion the store has not reached. With sendInitialEvents the watch cache waits for it
    // (blockTimeout), then the watch is one ERROR event (504 Timeout, cause ResourceVersionTooLarge).
    // A plain watch is accepted as is: it delivers only what is newer than the asked resourceVersion,
    // and no bookmark older than it, so it stays silent until the store gets there.
    const ahead = rvParam !== '' && Number.isInteger(asked) && asked > this.cluster.store.resourceVersion;
    const tooLarge = ahead && sendInitial && !(await this.cluster.store.reached(asked, this.freshnessWaitMs)) ? tooLargeResourceVersion(asked, this.cluster.store.resourceVersion, 1) : undefined;
    res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked', 'Cache-Control': 'no-cache, private' });
    res.flushHeaders();
    const write = (type: string, object: unknown) => {
      const o = table && (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED') ? toTable(rt, [object as KubeObject], table, {}) : object;
      if (!res.writableEnded) res.write(JSON.stringify({ type, object: o }) + '\n');
    };
    if (tooLarge) {
      write('ERROR', tooLarge.toStatus());
      res.end();
      return;
    }
    const bookmark = (extra?: Obj) => {
      const rv = this.cluster.store.resourceVersion;
      if (ahead && rv < asked) return;
      write('BOOKMARK', { kind: rt.kind, apiVersion: rt.apiVersion, metadata: { resourceVersion: String(rv), ...(extra ?? {}) } });
    };
    let since: number | undefined;
    if (rvParam === '' || rvParam === '0' || sendInitial) {
      for (const o of this.cluster.list(rt, namespace).items) if (match(o)) write('ADDED', o);
      if (sendInitial) bookmark({ annotations: { 'k8s.io/initial-events-end': 'true' } });
      since = undefined;
    } else {
      since = Number(rvParam);
      if (!Number.isInteger(since) || since < 0) {
        write('ERROR', new ApiError('BadRequest', `invalid resource version: ${rvParam}`).toStatus());
        res.end();
        return;
      }
    }
    const onEvent = (e: StoreEvent) => {
      const now = match(e.object);
      const before = e.previous ? match(e.previous) : false;
      if (e.type === 'DELETED') {
        if (before || now) write('DELETED', e.object);
      } else if (e.type === 'ADDED') {
        if (now) write('ADDED', e.object);
      } else if (now && before) write('MODIFIED', e.object);
      else if (now) write('ADDED', e.object);
      else if (before) write('DELETED', e.object);
    };
    let stop: () => void = () => {};
    try {
      stop = this.cluster.watch(rt, namespace, since, onEvent);
    } catch (e) {
      if (e instanceof ResourceVersionTooOldError) {
        write('ERROR', new ApiError('Expired', e.message).toStatus());
        res.end();
        return;
      }
      throw e;
    }
    const timers: NodeJS.Timeout[] = [];
    if (bookmarks) timers.push(setInterval(() => bookmark(), this.opts.bookmarkIntervalMs));
    if (timeout > 0) timers.push(setTimeout(() => res.end(), timeout * 1000));
    const done = () => {
      stop();
      for (const t of timers) clearTimeout(t);
    };
    res.on('close', done);
    req.on('close', done);
  }
}

function objectKey(o: KubeObject | Obj): string {
  const md = isObject(o['metadata']) ? o['metadata'] : {};
  return `${String(md['namespace'] ?? '')}/${String(md['name'] ?? '')}`;
}
