import { otherVersionOwnerNotes, type AnswerNote } from './other-version.notes.js';
import { FIELD, ownersAt, parsePE, pathToHuman, type OwnershipVia, type PathElement, type Value } from '../../ssa-engine/src/index.js';
import { resolvePath } from './field-path.util.js';
import type { ManagerRef, Since } from './observed-event.types.js';
import { identityOf } from './object-ownership.projection.js';
import type { OwnershipSnapshot } from './ownership-version.js';
import { defaultSchemaResolver, type SchemaResolver, type SchemaUsed } from './schema-resolver.port.js';
import { compareSeq } from './seq.util.js';
import { valueAt } from './value-at.util.js';

/** An owner as the API shows it. */
export interface OwnerView extends ManagerRef {
  readonly since: Since;
  /** The ownership existed at the object's first observation: it may be older than `since`. */
  readonly sinceFirstObservation: boolean;
}

/** An owner that keeps a path alive without (necessarily) owning it directly. */
export interface EffectiveOwnerView extends OwnerView {
  readonly via: OwnershipVia;
}

/** `GET /v1/objects/{id}/fields?path=` */
export interface FieldOwnersView {
  readonly path: string;
  readonly fieldsV1Path: string;
  readonly present: boolean;
  /** The current value (`null` when absent). */
  readonly value: Value | null;
  /** Direct owners (the path is in their managedFields set). */
  readonly owners: readonly OwnerView[];
  /** Owners that keep it alive on pruning: direct, owners of an atomic ancestor, of descendants (struct fields). */
  readonly effectiveOwners: readonly EffectiveOwnerView[];
  readonly deleted: boolean;
  readonly asOf: Since;
  /** Notes on the owners (`entry-at-other-version`: an owner recorded at another API version). */
  readonly notes: readonly AnswerNote[];
  /** The schema the object's projection was folded with. */
  readonly schema: SchemaUsed;
}

/** One node of `ownershipTree`. */
export interface OwnershipNode {
  /** The last element: a field name (`spec`) or an item in kubectl form (`[name="nginx"]`); `''` for the root. */
  readonly segment: string;
  readonly path: string;
  readonly fieldsV1Path: string;
  /** True when some manager owns this path itself (not only something below it). */
  readonly owned: boolean;
  readonly owners: readonly OwnerView[];
  readonly children: readonly OwnershipNode[];
  /** Only in a tree built with the object's body: a leaf's value there (no key when the object has none). */
  readonly value?: unknown;
}

interface MutableNode {
  segment: string;
  path: string;
  fieldsV1Path: string;
  owned: boolean;
  owners: OwnerView[];
  children: MutableNode[];
  index: Map<string, MutableNode>;
  elements: PathElement[];
}

function segmentOf(pe: PathElement): string {
  return pe.kind === FIELD ? pe.name : pathToHuman([pe]);
}

function view(o: OwnerView): OwnerView {
  return { manager: o.manager, operation: o.operation, apiVersion: o.apiVersion, subresource: o.subresource, since: o.since, sinceFirstObservation: o.sinceFirstObservation };
}

/**
 * `GET /v1/objects/{id}/ownership`: the object's owned field tree (root `''`), every node with its
 * direct owners and since when; intermediate nodes nobody owns have `owned: false`. Given the
 * object's body (`?values=true`), every leaf also carries its value there.
 */
export function ownershipTree(state: Pick<OwnershipSnapshot, 'fields'>, body?: unknown): OwnershipNode {
  const root: MutableNode = { segment: '', path: '', fieldsV1Path: '', owned: false, owners: [], children: [], index: new Map(), elements: [] };
  for (const f of state.fields) {
    let node = root;
    const elements: PathElement[] = [];
    for (const seg of f.segments) {
      elements.push(parsePE(seg)!);
      let child = node.index.get(seg);
      if (!child) {
        child = {
          segment: segmentOf(elements[elements.length - 1]!),
          path: pathToHuman(elements),
          fieldsV1Path: elements.map((pe) => pe.str).join('.'),
          owned: false,
          owners: [],
          children: [],
          index: new Map(),
          elements: [...elements],
        };
        node.index.set(seg, child);
        node.children.push(child);
      }
      node = child;
    }
    node.owned = f.owners.length > 0;
    node.owners = f.owners.map(view);
  }
  const freeze = (n: MutableNode): OwnershipNode => {
    const node = { segment: n.segment, path: n.path, fieldsV1Path: n.fieldsV1Path, owned: n.owned, owners: n.owners, children: n.children.map(freeze) };
    if (body === undefined || n.children.length > 0) return node;
    const value = valueAt(body, n.elements);
    return value === undefined ? node : { ...node, value };
  };
  return freeze(root);
}

function isPrefix(a: readonly string[], b: readonly string[]): boolean {
  if (a.length > b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Since when `owner` has held `segments`: its own `since` on the path, else the earliest since on
 * an owned ancestor or descendant (how an effective owner holds it). `undefined` when it owns neither.
 */
export function ownerSince(state: Pick<OwnershipSnapshot, 'fields'>, segments: readonly string[], owner: ManagerRef): OwnerView | undefined {
  const id = identityOf(owner);
  let best: OwnerView | undefined;
  for (const f of state.fields) {
    const exact = f.segments.length === segments.length && isPrefix(f.segments, segments);
    if (!exact && !isPrefix(f.segments, segments) && !isPrefix(segments, f.segments)) continue;
    const o = f.owners.find((x) => identityOf(x) === id);
    if (!o) continue;
    if (exact) return view(o);
    if (!best || compareSeq(o.since.seq, best.since.seq) < 0) best = view(o);
  }
  return best;
}

/**
 * `GET /v1/objects/{id}/fields?path=`: who owns `path` (kubectl or FieldsV1 form) in `state`, since
 * when, whether it is present and its value. Throws `AuditError('invalid-path')`.
 */
export function fieldOwners(state: OwnershipSnapshot, path: string, schemaResolver: SchemaResolver = defaultSchemaResolver): FieldOwnersView {
  const type = schemaResolver(state.apiVersion, state.kind, state.cluster).type;
  const p = resolvePath(path, type);
  const asOf = { seq: state.lastSeq, at: state.lastAt };
  const forms = { path: pathToHuman(p.elements), fieldsV1Path: p.fieldsV1Path };
  if (state.deleted || state.object === null) {
    return { ...forms, present: false, value: null, owners: [], effectiveOwners: [], deleted: state.deleted, asOf, notes: [], schema: state.schema };
  }
  const field = state.fields.find((f) => f.fieldsV1Path === p.fieldsV1Path);
  const at = ownersAt({ object: state.object, type }, p.elements);
  const segments = p.elements.map((pe) => pe.str);
  const effectiveOwners: EffectiveOwnerView[] = [];
  for (const o of at.effectiveOwners) {
    const s = ownerSince(state, segments, o);
    if (s) effectiveOwners.push({ ...s, via: o.via });
  }
  const value = valueAt(state.object, p.elements);
  const owners = field ? field.owners.map(view) : [];
  return {
    ...forms,
    present: at.present,
    value: value === undefined ? null : value,
    owners,
    effectiveOwners,
    deleted: false,
    asOf,
    notes: otherVersionOwnerNotes(state.object, type, state.apiVersion, state.kind, [...owners, ...effectiveOwners]),
    schema: state.schema,
  };
}
