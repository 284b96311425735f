import { parseFieldsV1 } from '../../libs/ssa-engine/src/index.js';
import { CM, NAMESPACE, type Created } from './fault-churn.js';

// The one verification every fault case ends with: the sandbox is the truth, the API must answer
// it. For every live sandbox ConfigMap: the API knows its uid, not as deleted; its ownership tree
// holds exactly the sandbox's managedFields (field path → owner identities manager / operation /
// subresource / apiVersion; `time` is not compared: the service does not store time-only changes);
// `.data` and `.metadata.labels` have the sandbox's values. Every object created and gone is not
// live in the API. Objects already correct are not asked again until a final full pass, which
// must find everything correct at once (the time until correct is when the last one was found right).

type Obj = Record<string, any>;

interface ApiObject {
  id: string;
  uid: string;
  deleted: boolean;
}
interface OwnershipNode {
  fieldsV1Path: string;
  owned: boolean;
  owners: { manager: string; operation: string; subresource: string; apiVersion: string }[];
  children: OwnershipNode[];
}

export interface VerifyOptions {
  /** How long to keep polling (default 60 s). */
  readonly deadlineMs?: number;
  /** `Date.now()` the time until correct is counted from (the last write, usually). */
  readonly since: number;
  /** uids not compared (an observation the service was made to refuse for good). */
  readonly exclude?: ReadonlySet<string>;
  /** Concurrent API requests (default 16). */
  readonly concurrency?: number;
}

export interface VerifyResult {
  readonly correct: boolean;
  /** From `since` until a pass found the last wrong objects right (confirmed by a full pass; null when never). */
  readonly correctAfterMs: number | null;
  readonly live: number;
  readonly gone: number;
  /** Mismatches left at the deadline, `uid name: reason`. */
  readonly mismatches: readonly string[];
}

/** The sandbox's managedFields as `fieldsV1Path → sorted owner identities`. */
export function expectedOwnership(obj: Obj): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const e of (obj['metadata']['managedFields'] ?? []) as Obj[]) {
    const who = identity(e['manager'], e['operation'], e['subresource'] ?? '', e['apiVersion'] ?? '');
    for (const path of parseFieldsV1(e['fieldsV1'] ?? {}).paths()) {
      const key = path.map((pe) => pe.str).join('.');
      out.set(key, [...(out.get(key) ?? []), who].sort());
    }
  }
  return out;
}

/** The API's ownership tree as `fieldsV1Path → sorted owner identities` (owned nodes only). */
export function apiOwnership(tree: OwnershipNode): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const walk = (n: OwnershipNode) => {
    if (n.owned) out.set(n.fieldsV1Path, n.owners.map((o) => identity(o.manager, o.operation, o.subresource, o.apiVersion)).sort());
    n.children.forEach(walk);
  };
  walk(tree);
  return out;
}

/** Equal as JSON, object keys in any order (values come from other realms: no prototype checks). */
function sameJson(a: unknown, b: unknown): boolean {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(canonical) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Obj)[k])])) : v;
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function identity(manager: string, operation: string, subresource: string, apiVersion: string): string {
  return `${manager}/${operation}/${subresource}/${apiVersion}`;
}

function firstDifference(expected: Map<string, string[]>, actual: Map<string, string[]>): string | null {
  for (const [path, who] of expected) {
    const got = actual.get(path);
    if (got === undefined || !sameJson(got, who)) return `${path}: sandbox ${who.join(',')}, API ${got?.join(',') ?? 'unowned'}`;
  }
  for (const [path, who] of actual) if (!expected.has(path)) return `${path}: API ${who.join(',')}, sandbox unowned`;
  return null;
}

async function getJson<T>(url: string): Promise<T> {
  const r = await fetch(url);
  if (r.status !== 200) throw new Error(`GET ${url}: ${r.status} ${(await r.text()).slice(0, 200)}`);
  return (await r.json()) as T;
}

/** Every ConfigMap the API knows (deleted ones too), by uid. */
async function apiObjects(api: string, namespace: string): Promise<Map<string, ApiObject[]>> {
  const out = new Map<string, ApiObject[]>();
  let cursor: string | null = null;
  do {
    const page: { items: ApiObject[]; nextCursor: string | null } = await getJson(
      `${api}/v1/objects?kind=ConfigMap&namespace=${namespace}&limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    for (const o of page.items) out.set(o.uid, [...(out.get(o.uid) ?? []), o]);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

/** Why the API's answer for a live sandbox object is wrong, or null when it is right. */
async function compareLive(api: string, obj: Obj, known: ApiObject[] | undefined): Promise<string | null> {
  const live = known?.filter((o) => !o.deleted) ?? [];
  if (!known) return 'not in the API';
  if (live.length !== 1) return live.length === 0 ? 'deleted in the API, live in the sandbox' : `${live.length} live objects in the API`;
  const id = live[0]!.id;
  const { tree } = await getJson<{ tree: OwnershipNode }>(`${api}/v1/objects/${id}/ownership`);
  const owners = firstDifference(expectedOwnership(obj), apiOwnership(tree));
  if (owners) return `managedFields differ at ${owners}`;
  for (const [path, expected] of [
    ['.data', obj['data'] ?? null],
    ['.metadata.labels', obj['metadata']['labels'] ?? null],
  ] as const) {
    const f = await getJson<{ value: unknown }>(`${api}/v1/objects/${id}/fields?path=${encodeURIComponent(path)}`);
    if (!sameJson(f.value ?? null, expected)) return `${path} is ${JSON.stringify(f.value)} in the API, ${JSON.stringify(expected)} in the sandbox`;
  }
  return null;
}

async function inParallel<T>(items: readonly T[], concurrency: number, f: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) await f(items[next++]!);
  }));
}

/**
 * Polls until the API answers every sandbox object as the sandbox does (see the file comment) or
 * the deadline passes; never throws for a mismatch (the caller asserts on `correct`).
 */
export async function verifyAgainstSandbox(sandboxUrl: string, api: string, created: Created, options: VerifyOptions): Promise<VerifyResult> {
  const deadline = Date.now() + (options.deadlineMs ?? 60_000);
  const concurrency = options.concurrency ?? 16;
  const exclude = options.exclude ?? new Set<string>();
  const list = await getJson<{ items: Obj[] }>(`${sandboxUrl}${CM}`);
  const live = list.items.filter((o) => !exclude.has(o['metadata']['uid']));
  const liveUids = new Set(list.items.map((o) => o['metadata']['uid'] as string));
  const gone = [...created.keys()].filter((uid) => !liveUids.has(uid) && !exclude.has(uid));
  let pendingLive = live;
  let pendingGone = gone;
  let mismatches: string[] = [];
  // The first pass asks about everything; later ones only about what was wrong, until a partial pass
  // finds nothing wrong (`cleanAt`), which a full pass must then confirm.
  let fullPass = true;
  let cleanAt: number | null = null;
  for (;;) {
    const known = await apiObjects(api, NAMESPACE).catch(() => undefined);
    const failedLive: Obj[] = [];
    const failedGone: string[] = [];
    const found: string[] = [];
    if (known) {
      await inParallel(pendingLive, concurrency, async (obj) => {
        const why = await compareLive(api, obj, known.get(obj['metadata']['uid'])).catch((e: Error) => `API error: ${e.message}`);
        if (why) {
          failedLive.push(obj);
          found.push(`${obj['metadata']['uid']} ${obj['metadata']['name']}: ${why}`);
        }
      });
      for (const uid of pendingGone) {
        if (known.get(uid)?.some((o) => !o.deleted)) {
          failedGone.push(uid);
          found.push(`${uid} ${created.get(uid)}: deleted in the sandbox, live in the API`);
        }
      }
    } else {
      failedLive.push(...pendingLive);
      failedGone.push(...pendingGone);
      found.push('the API does not answer GET /v1/objects');
    }
    mismatches = found;
    if (found.length === 0 && fullPass) {
      return { correct: true, correctAfterMs: (cleanAt ?? Date.now()) - options.since, live: live.length, gone: gone.length, mismatches: [] };
    }
    cleanAt = found.length === 0 ? Date.now() : null;
    fullPass = found.length === 0;
    pendingLive = fullPass ? live : failedLive;
    pendingGone = fullPass ? gone : failedGone;
    if (!fullPass && Date.now() > deadline) return { correct: false, correctAfterMs: null, live: live.length, gone: gone.length, mismatches };
    if (!fullPass) await new Promise((r) => setTimeout(r, 250));
  }
}
