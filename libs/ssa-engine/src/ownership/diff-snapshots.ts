import { assertUnreachable } from '../errors.js';
import { FieldSet, pathToHuman, type Path } from '../fieldpath/field-set.js';
import { fieldName } from '../fieldpath/path-element.js';
import { compare } from '../typed/compare.js';
import type { ResolvedType } from '../schema/resolved-schema.js';
import { valueEquals } from '../value/compare.js';
import { getKey, isMap, type Value } from '../value/value.js';
import { note, type Note } from './notes.js';
import { atomicAncestor, pathForms, pathKind, valueAt, type PathForms } from './path-info.js';
import { isPresent, managerRef, readSnapshot, type DecodedSnapshot, type IndexedEntry, type ManagerRef, type Snapshot } from './snapshot.js';

/**
 * What happened to one path for one manager between two snapshots (07 §2):
 * - `acquired`: starts owning a field nobody owned;
 * - `shared`: starts owning a field others keep owning (co-ownership);
 * - `taken`: an Update (non-apply write) took it from its previous owners;
 * - `forced`: an Apply took it from its previous owners (force inferred);
 * - `pruned`: an applier stopped applying it and, nobody else owning it, it left the object;
 * - `kept`: a manager stopped owning it but it stayed because others still own it;
 * - `removed`: a write deleted it from the object and its owners lost it;
 * - `orphaned`: a manager stopped owning it, nobody owns it any more, yet it is still there.
 */
export type TransitionType = 'acquired' | 'shared' | 'taken' | 'forced' | 'pruned' | 'kept' | 'removed' | 'orphaned';

/** One ownership transition of one path. */
export interface Transition extends PathForms {
  readonly type: TransitionType;
  /**
   * Who acted: the gaining manager (acquired/shared/taken/forced), the releasing one
   * (pruned/kept/orphaned), the writer for `removed` (`null` when the writer is unknown).
   */
  readonly manager: ManagerRef | null;
  /** Owners that lost the path in this transition. */
  readonly from: readonly ManagerRef[];
  /** Direct owners in the earlier snapshot. */
  readonly ownersBefore: readonly ManagerRef[];
  /**
   * Owners in the later snapshot. For `kept` these are the owners that keep the field alive: for a
   * struct field also owners of descendants, for list items and map keys only owners of the item
   * (07 §3/§4), plus owners of an atomic ancestor.
   */
  readonly owners: readonly ManagerRef[];
  readonly valueChanged: boolean;
  readonly presentBefore: boolean;
  readonly presentAfter: boolean;
  /** Codes of notes that qualify this transition. */
  readonly notes: readonly Note['code'][];
}

/** How the writer of a transition was recognised (07 §2). */
export type WriterBasis = 'time-changed' | 'appeared-with-time' | 'appeared-without-time' | 'set-changed';

/** The identity that most likely made the write between two snapshots. */
export interface Writer {
  readonly manager: ManagerRef;
  readonly basis: WriterBasis;
  readonly time: string | null;
}

/** The result of `diffSnapshots`: plain, JSON-serialisable data. */
export interface SnapshotDiff {
  readonly writer: Writer | null;
  readonly transitions: readonly Transition[];
  readonly notes: readonly Note[];
  /** The object changed (ignoring managedFields and resourceVersion). */
  readonly objectChanged: boolean;
  readonly managedFieldsChanged: boolean;
}

const ANCIENT = 'ancient-changes';
const BEFORE_FIRST_APPLY = 'before-first-apply';
export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const LAST_APPLIED_PATH: Path = [fieldName('metadata'), fieldName('annotations'), fieldName(LAST_APPLIED)];

/**
 * Derives the ownership transitions between two consecutive observations `before → after` of one
 * object, without the request (07 §2). `before` may be `undefined` (first observation). Both
 * snapshots are read with `type` when given, else with `after.type`. Throws `SsaEngineError` for
 * malformed input.
 */
export function diffSnapshots(before: Snapshot | undefined, after: Snapshot, type?: ResolvedType): SnapshotDiff {
  const t = type ?? after?.type;
  const a = readSnapshot(after && t ? { object: after.object, type: t } : after);
  return diffDecodedSnapshots(before === undefined ? undefined : readSnapshot({ object: before?.object, type: a.type }), a);
}

/** What a diff may leave out when its caller does not need it. */
export interface DiffOptions {
  /**
   * `false`: a first observation's diff has no transitions (its notes as ever). It would report an
   * `acquired` transition per owned path and owner, which a caller that keeps the snapshot's
   * ownership itself (a projection's baseline) never reads.
   */
  readonly firstObservationTransitions?: boolean;
}

/**
 * `diffSnapshots` on snapshots already decoded with the same type (a fold decodes each observation
 * once and reuses it as the next one's `before`). `before` may be `undefined` (first observation).
 */
export function diffDecodedSnapshots(before: DecodedSnapshot | undefined, after: DecodedSnapshot, options: DiffOptions = {}): SnapshotDiff {
  return before === undefined ? firstObservation(after, options.firstObservationTransitions ?? true) : diffDecoded(before, after);
}

/** `diffSnapshots` on already decoded snapshots. */
export function diffDecoded(b: DecodedSnapshot, a: DecodedSnapshot): SnapshotDiff {
  const notes: Note[] = [];
  const cmp = compare(b.body, a.body, a.type);
  const changedSet = cmp.added.union(cmp.modified).union(cmp.removed);
  const objectChanged = !changedSet.isEmpty;
  const changed = (p: Path): boolean => changedSet.has(p) || changedSet.hasDescendantsOf(p) || changedAbove(changedSet, p);

  const managedFieldsChanged = !sameEntries(b, a);
  if (a.entries.size === 0) {
    if (b.entries.size > 0) {
      notes.push(
        note(
          'managed-fields-reset',
          'every managedFields entry disappeared: managedFields were reset (e.g. [{}]); the object is untracked until the next apply, which creates before-first-apply; ownership changes in this write cannot be known',
          [...b.entries.values()].map(managerRef),
        ),
      );
    } else notes.push(note('untracked-object', 'the object carries no managedFields: nothing is tracked'));
    if (objectChanged && b.entries.size === 0) {
      notes.push(note('object-changed-without-writer', 'the object changed but is untracked: the writer cannot be known'));
    }
    return { writer: null, transitions: [], notes, objectChanged, managedFieldsChanged };
  }

  // Sets before the write, with entries that were folded into another one re-attributed to it.
  const beforeSets = new Map<string, FieldSet>();
  for (const [id, e] of b.entries) beforeSets.set(id, e.set);
  const vanished = [...b.entries.values()].filter((e) => !a.entries.has(e.identity));
  const appeared = [...a.entries.values()].filter((e) => !b.entries.has(e.identity));
  const folded = new Set<string>();

  for (const bucket of a.entries.values()) {
    if (bucket.manager !== ANCIENT || bucket.operation !== 'Update') continue;
    for (const v of vanished) {
      if (v.operation !== 'Update' || v.apiVersion !== bucket.apiVersion || v.subresource !== bucket.subresource) continue;
      if (!v.set.difference(bucket.set).isEmpty) continue;
      beforeSets.set(bucket.identity, (beforeSets.get(bucket.identity) ?? FieldSet.EMPTY).union(v.set));
      beforeSets.delete(v.identity);
      folded.add(v.identity);
      notes.push(
        note(
          'entry-merged-into-ancient-changes',
          `${v.manager} (Update, ${v.apiVersion}) was merged into the ancient-changes bucket: more than 10 Update entries`,
          [managerRef(v)],
          v.set.toHumanPaths(),
        ),
      );
    }
  }

  const kubectlApply = [...a.entries.values()].find((e) => e.manager === 'kubectl' && e.operation === 'Apply' && e.subresource === '');
  if (kubectlApply && !objectChanged) {
    for (const v of vanished) {
      if (folded.has(v.identity) || v.operation !== 'Update' || v.subresource !== '' || !v.set.has(LAST_APPLIED_PATH)) continue;
      if (!v.set.difference(kubectlApply.set).isEmpty) continue;
      beforeSets.set(kubectlApply.identity, (beforeSets.get(kubectlApply.identity) ?? FieldSet.EMPTY).union(v.set));
      beforeSets.delete(v.identity);
      folded.add(v.identity);
      notes.push(
        note(
          'entry-folded-by-csa-migration',
          `kubectl's client-side → server-side apply migration folded ${v.manager} (Update, ${v.apiVersion}) into the kubectl Apply entry`,
          [managerRef(v), managerRef(kubectlApply)],
          v.set.toHumanPaths(),
        ),
      );
    }
  }

  const bfa = appeared.find((e) => e.manager === BEFORE_FIRST_APPLY && e.operation === 'Update');
  if (bfa) {
    notes.push(
      note(
        'before-first-apply-appeared',
        'before-first-apply appeared: the first apply on an object without managedFields; it owned every field that existed then, and the applier took from it what it changed',
        [managerRef(bfa)],
      ),
    );
  }

  for (const e of a.entries.values()) {
    const prev = b.entries.get(e.identity);
    if (e.operation === 'Apply' && prev && prev.apiVersion !== e.apiVersion) {
      notes.push(
        note(
          'apply-version-changed',
          `${e.manager} applied with ${e.apiVersion} (was ${prev.apiVersion}): its fields were re-expressed in the new version; paths that differ only by version are not real changes, and without the conversion this cannot be told apart`,
          [managerRef(e)],
        ),
      );
    }
    if (e.time === undefined && (!prev || prev.time !== undefined || !prev.set.equals(e.set))) {
      notes.push(
        note(
          'entry-without-time',
          `${e.manager} has no time: created by a no-op apply (object unchanged) or through the scale subresource`,
          [managerRef(e)],
        ),
      );
    }
  }

  const writer = findWriter(b, a, beforeSets, appeared, notes);
  if (bfa && writer && writer.manager.operation === 'Apply') {
    // 05 §3 step 4: before-first-apply owned everything that existed before the apply ran.
    const w = a.entries.get(identityOf(a, writer.manager))!;
    beforeSets.set(bfa.identity, bfa.set.union(b.present.intersection(w.set)));
  }
  if (writer === null && objectChanged) {
    notes.push(
      note(
        'object-changed-without-writer',
        'the object changed but no entry changed its time: mutating admission, a strategy reset, an Update whose changes were all removals, or a write that reset managedFields',
      ),
    );
  }
  if (!objectChanged && managedFieldsChanged) {
    notes.push(
      note(
        'ownership-only-change',
        'only managedFields changed: a no-op apply by a new or changed configuration (sharing or releasing), a managedFields edit, or the CSA migration',
        writer ? [writer.manager] : [],
      ),
    );
  }

  const transitions = pathTransitions(b, a, beforeSets, writer, changed, notes);

  for (const v of vanished) {
    if (folded.has(v.identity)) continue;
    const ref = managerRef(v);
    const explained = transitions
      .filter((t) => t.from.some((f) => sameRef(f, ref)))
      .every((t) => t.type === 'taken' || t.type === 'forced' || t.type === 'removed' || t.type === 'pruned');
    const lostAll = [...v.set.paths()].every((p) => transitions.some((t) => t.path === pathToHuman(p) && t.from.some((f) => sameRef(f, ref))));
    if (explained && lostAll) {
      notes.push(note('entry-emptied', `${v.manager} disappeared: the write took or deleted everything it owned`, [ref], v.set.toHumanPaths()));
    } else {
      notes.push(
        note(
          'entry-disappeared',
          `${v.manager} disappeared and the snapshots cannot tell why: it released everything (an apply of an empty configuration), its apiVersion ${v.apiVersion} is no longer served, or managedFields were edited`,
          [ref],
          v.set.toHumanPaths(),
        ),
      );
    }
  }

  return { writer, transitions, notes, objectChanged, managedFieldsChanged };
}

function changedAbove(changedSet: FieldSet, p: Path): boolean {
  // A changed atomic ancestor or a removed/added container changes everything below it.
  for (let i = 1; i < p.length; i++) if (changedSet.has(p.slice(0, i))) return true;
  return false;
}

function firstObservation(a: DecodedSnapshot, withTransitions: boolean): SnapshotDiff {
  const notes: Note[] = [
    note('first-observation', 'no earlier snapshot: ownership history before this observation is unknown; every owned field is reported as acquired'),
  ];
  if (a.entries.size === 0) notes.push(note('untracked-object', 'the object carries no managedFields: nothing is tracked'));
  const transitions: Transition[] = [];
  const all = [...a.entries.values()];
  let union = FieldSet.EMPTY;
  if (withTransitions) for (const e of all) union = union.union(e.set);
  for (const p of union.paths()) {
    const owners = all.filter((e) => e.set.has(p)).map(managerRef);
    for (const m of owners) {
      transitions.push({ type: 'acquired', ...pathForms(p), manager: m, from: [], ownersBefore: [], owners, valueChanged: true, presentBefore: false, presentAfter: isPresent(a, p), notes: [] });
    }
  }
  for (const e of all) {
    if (e.time === undefined) notes.push(note('entry-without-time', `${e.manager} has no time: created by a no-op apply or through the scale subresource`, [managerRef(e)]));
    if (e.manager === BEFORE_FIRST_APPLY) notes.push(note('before-first-apply-appeared', 'before-first-apply: the object was untracked before its first apply; earlier ownership is unknown', [managerRef(e)]));
  }
  return { writer: null, transitions, notes, objectChanged: false, managedFieldsChanged: false };
}

/** Every entry in both, with the same apiVersion and set, and (as asked) the same time or the same position. */
function entriesAlike(b: DecodedSnapshot, a: DecodedSnapshot, also: (p: IndexedEntry, e: IndexedEntry) => boolean): boolean {
  if (b.entries.size !== a.entries.size) return false;
  for (const [id, e] of a.entries) {
    const p = b.entries.get(id);
    if (!p || p.apiVersion !== e.apiVersion || !also(p, e) || !p.set.equals(e.set)) return false;
  }
  return true;
}

/** managedFields changed in nothing but their order: the same entries with the same times and sets. */
function sameEntries(b: DecodedSnapshot, a: DecodedSnapshot): boolean {
  return entriesAlike(b, a, (p, e) => p.time === e.time);
}

/**
 * Nobody's ownership moved between the snapshots: the same entries (identity, apiVersion, position
 * in the list) own the same sets, whatever their times (a fold keeps every owned field as it was).
 */
export function sameOwnership(b: DecodedSnapshot, a: DecodedSnapshot): boolean {
  return entriesAlike(b, a, (p, e) => p.index === e.index);
}

/** Ref equality on identity parts (apiVersion counts only for Update, as in identities). */
export function sameRef(x: ManagerRef, y: ManagerRef): boolean {
  return (
    x.manager === y.manager &&
    x.operation === y.operation &&
    x.subresource === y.subresource &&
    (x.operation === 'Apply' || x.apiVersion === y.apiVersion)
  );
}

function identityOf(s: DecodedSnapshot, ref: ManagerRef): string {
  for (const e of s.entries.values()) if (sameRef(managerRef(e), ref)) return e.identity;
  return '';
}

function findWriter(
  b: DecodedSnapshot,
  a: DecodedSnapshot,
  beforeSets: ReadonlyMap<string, FieldSet>,
  appeared: readonly IndexedEntry[],
  notes: Note[],
): Writer | null {
  const gained = (e: IndexedEntry): boolean => !e.set.difference(beforeSets.get(e.identity) ?? FieldSet.EMPTY).isEmpty;
  const eligible = (e: IndexedEntry): boolean => e.manager !== ANCIENT && e.manager !== BEFORE_FIRST_APPLY;
  const timed: { e: IndexedEntry; basis: WriterBasis }[] = [];
  for (const e of a.entries.values()) {
    if (!eligible(e) || e.time === undefined) continue;
    const prev = b.entries.get(e.identity);
    if (!prev) timed.push({ e, basis: 'appeared-with-time' });
    else if (prev.time !== e.time) timed.push({ e, basis: 'time-changed' });
  }
  if (timed.length > 0) {
    const preferred = timed.filter((c) => gained(c.e));
    const pool = preferred.length > 0 ? preferred : timed;
    const latest = pool.reduce((x, y) => (Date.parse(y.e.time!) > Date.parse(x.e.time!) ? y : x));
    if (pool.length > 1) {
      notes.push(
        note(
          'writer-ambiguous',
          'several entries changed time between the snapshots (lost watch events or several writes): the latest one is reported as the writer',
          pool.map((c) => managerRef(c.e)),
        ),
      );
    }
    return { manager: managerRef(latest.e), basis: latest.basis, time: latest.e.time ?? null };
  }
  const untimed = appeared.filter((e) => eligible(e) && e.time === undefined);
  if (untimed.length === 1) return { manager: managerRef(untimed[0]!), basis: 'appeared-without-time', time: null };
  const setChanged = [...a.entries.values()].filter((e) => {
    if (!eligible(e)) return false;
    const prev = beforeSets.get(e.identity);
    return prev !== undefined && !prev.equals(e.set);
  });
  if (setChanged.length === 1 && untimed.length === 0) return { manager: managerRef(setChanged[0]!), basis: 'set-changed', time: setChanged[0]!.time ?? null };
  if (setChanged.length + untimed.length > 1) {
    notes.push(note('writer-ambiguous', 'several entries changed without a time change: the writer cannot be told', [...setChanged, ...untimed].map(managerRef)));
  }
  return null;
}

function pathTransitions(
  b: DecodedSnapshot,
  a: DecodedSnapshot,
  beforeSets: ReadonlyMap<string, FieldSet>,
  writer: Writer | null,
  changed: (p: Path) => boolean,
  notes: Note[],
): Transition[] {
  const before = [...beforeSets.entries()].map(([id, set]) => ({ ref: refOf(b, a, id), set }));
  const after = [...a.entries.values()].map((e) => ({ ref: managerRef(e), set: e.set }));
  let union = FieldSet.EMPTY;
  for (const x of before) union = union.union(x.set);
  for (const x of after) union = union.union(x.set);
  const out: Transition[] = [];
  const lastApplied = parseLastApplied(b);
  const autoForcePaths: string[] = [];
  const orphanPaths: string[] = [];
  const untrackedPaths: string[] = [];

  for (const p of union.paths()) {
    const B = before.filter((x) => x.set.has(p)).map((x) => x.ref);
    const A = after.filter((x) => x.set.has(p)).map((x) => x.ref);
    const G = A.filter((r) => !B.some((s) => sameRef(r, s)));
    const L = B.filter((r) => !A.some((s) => sameRef(r, s)));
    if (G.length === 0 && L.length === 0) continue;
    const forms = pathForms(p);
    const presentBefore = isPresent(b, p);
    const presentAfter = isPresent(a, p);
    const valueChanged = changed(p) || presentBefore !== presentAfter;
    const base = { ...forms, ownersBefore: B, owners: A, valueChanged, presentBefore, presentAfter };
    const covered: ManagerRef[] = [];

    for (const n of G) {
      const kept = B.filter((r) => !L.some((s) => sameRef(r, s)));
      const tnotes: Note['code'][] = [];
      let type: TransitionType;
      let from: ManagerRef[] = [];
      if (B.length === 0) type = 'acquired';
      else if (L.length > 0 && (valueChanged || kept.length === 0)) {
        type = n.operation === 'Update' ? 'taken' : 'forced';
        from = L;
        covered.push(...L);
        if (!valueChanged) tnotes.push('ownership-moved-without-change');
        if (type === 'forced') {
          tnotes.push('force-inferred');
          if (n.manager === 'kubectl' && lastApplied !== undefined && presentBefore) {
            const old = valueAt(b.body, p);
            const annotated = valueAt(lastApplied, p);
            if (old !== undefined && annotated !== undefined && valueEquals(old, annotated)) {
              tnotes.push('possible-last-applied-auto-force');
              autoForcePaths.push(forms.path);
            }
          }
        }
      } else type = 'shared';
      if (n.operation === 'Update' && !valueChanged && presentBefore) tnotes.push('update-gained-unchanged');
      out.push({ type, manager: n, from, ...base, notes: tnotes });
    }

    const released = L.filter((m) => !covered.some((c) => sameRef(c, m)));
    if (released.length === 0) continue;
    if (presentAfter && valueChanged && writer && A.some((r) => sameRef(r, writer.manager))) {
      // The writer already co-owned the path and changed it: the others lost it to the write (07 §2).
      const type: TransitionType = writer.manager.operation === 'Update' ? 'taken' : 'forced';
      out.push({ type, manager: writer.manager, from: released, ...base, notes: type === 'forced' ? ['force-inferred'] : [] });
      continue;
    }
    if (!presentAfter) {
      const applier = writer && writer.manager.operation === 'Apply' && released.some((m) => sameRef(m, writer.manager));
      if (applier) out.push({ type: 'pruned', manager: writer.manager, from: released, ...base, notes: [] });
      else out.push({ type: 'removed', manager: writer?.manager ?? null, from: released, ...base, notes: [] });
      continue;
    }
    const keepers = effectiveOwners(a, p);
    for (const m of released) {
      if (keepers.length > 0) out.push({ type: 'kept', manager: m, from: [m], ...base, owners: keepers, notes: [] });
      else {
        const tn: Note['code'][] = ['orphaned'];
        if (valueChanged) {
          tn.push('untracked-change');
          untrackedPaths.push(forms.path);
        }
        orphanPaths.push(forms.path);
        out.push({ type: 'orphaned', manager: m, from: [m], ...base, notes: tn });
      }
    }
  }
  if (autoForcePaths.length > 0) {
    notes.push(
      note(
        'possible-last-applied-auto-force',
        'kubectl (Apply) took fields whose old values matched the last-applied-configuration annotation: this may be the automatic client-side → server-side upgrade force rather than --force-conflicts',
        [],
        autoForcePaths,
      ),
    );
  }
  if (orphanPaths.length > 0) {
    notes.push(note('orphaned', 'fields lost their last owner but are still in the object: re-defaulted after pruning, pruning skipped (previous entry at an unserved version), or re-added by admission', [], orphanPaths));
  }
  if (untrackedPaths.length > 0) {
    notes.push(note('untracked-change', 'fields changed value while nobody gained them: a writer that is not tracked (admission webhook, strategy reset fields) or a managedFields reset', [], untrackedPaths));
  }
  return out;
}

function refOf(b: DecodedSnapshot, a: DecodedSnapshot, id: string): ManagerRef {
  const e = b.entries.get(id) ?? a.entries.get(id)!;
  return managerRef(e);
}

/**
 * Owners that keep `p` alive in `s` (07 §3): owners of `p`, owners of an atomic ancestor, and for a
 * struct field also owners of anything below it.
 */
export function effectiveOwners(s: DecodedSnapshot, p: Path): ManagerRef[] {
  const kind = pathKind(s.type, p);
  const anc = atomicAncestor(s.type, s.body, p);
  const out: ManagerRef[] = [];
  for (const e of s.entries.values()) {
    let owns = e.set.has(p);
    if (!owns && anc !== undefined) owns = e.set.has(p.slice(0, anc));
    switch (kind) {
      case 'struct-field':
      case 'root':
        if (!owns) owns = e.set.hasDescendantsOf(p);
        break;
      case 'map-element':
      case 'list-item':
        break;
      default:
        assertUnreachable(kind);
    }
    if (owns) out.push(managerRef(e));
  }
  return out;
}

function parseLastApplied(s: DecodedSnapshot): Value | undefined {
  const meta = getKey(s.body, 'metadata');
  const ann = isMap(meta) ? getKey(meta, 'annotations') : undefined;
  const raw = isMap(ann) ? getKey(ann, LAST_APPLIED) : undefined;
  if (typeof raw !== 'string') return undefined;
  try {
    return JSON.parse(raw) as Value;
  } catch {
    return undefined;
  }
}
