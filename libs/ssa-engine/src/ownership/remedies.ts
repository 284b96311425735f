import type { Path } from '../fieldpath/field-set.js';
import { FIELD, INDEX, KEY, VALUE } from '../fieldpath/path-element.js';
import { valueEquals } from '../value/compare.js';
import { getKey, isMap, type Value } from '../value/value.js';
import type { ManagerRef } from './snapshot.js';

/** The kinds of remediation 07 §4 lists. */
export type RemedyKind =
  /** Re-apply as the remaining Apply manager with a manifest that omits the field (release; prune if sole owner). */
  | 'apply-without-field'
  /** Apply the field with force from the manager that should own it (take ownership). */
  | 'force-apply'
  /** Apply the current value: co-own it, become sole owner when the other releases it. */
  | 'co-own-current-value'
  /** Force-apply the field, then apply without it (two steps) to delete it. */
  | 'force-then-drop'
  /** Delete the field with a non-apply write (`kubectl label|annotate … key-`, or a JSON patch): its owners lose it. */
  | 'delete-field'
  /** Remove a stale Update entry with a guarded JSON patch (by its index in the current list); the values stay. */
  | 'remove-managed-fields-entry'
  /** `kubectl apply --server-side` with the default manager `kubectl` folds client-side-apply entries in. */
  | 'csa-migration'
  /** Reset all ownership with `managedFields: [{}]` (blunt: the object becomes untracked). */
  | 'reset-managed-fields';

/** One JSON patch operation (RFC 6902) of a remedy. */
export interface JsonPatchOp {
  readonly op: 'test' | 'remove';
  readonly path: string;
  readonly value?: string | number | boolean;
}

/** A concrete remediation: a description, and where possible the exact command or patch. */
export interface Remedy {
  readonly kind: RemedyKind;
  /** Exactly what running the commands does to the field (and what it does not). */
  readonly description: string;
  /** The manager the remedy acts as or on, if any. */
  readonly manager: ManagerRef | null;
  /** Shell commands, in order (placeholders in angle brackets). */
  readonly commands: readonly string[];
  readonly patch: readonly JsonPatchOp[] | null;
  readonly warning: string | null;
}

/** The object a remedy addresses. */
export interface RemedyTarget {
  /** `kubectl` resource argument: `configmap/app-config`, `deployment.apps/web`. */
  readonly resource: string;
  readonly namespace: string | null;
}

/** The remedy target of an object (kind, group, name, namespace from its JSON). */
export function remedyTarget(object: unknown): RemedyTarget {
  const o = isMap(object) ? object : {};
  const str = (v: unknown): string => (typeof v === 'string' ? v : '');
  const kind = str(getKey(o, 'kind')).toLowerCase() || '<kind>';
  const apiVersion = str(getKey(o, 'apiVersion'));
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const meta = getKey(o, 'metadata');
  const name = isMap(meta) ? str(getKey(meta, 'name')) : '';
  const ns = isMap(meta) ? str(getKey(meta, 'namespace')) : '';
  return { resource: `${kind}${group ? '.' + group : ''}/${name || '<name>'}`, namespace: ns || null };
}

/** Quotes a string for a POSIX shell. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

function nsFlag(t: RemedyTarget): string {
  return t.namespace ? ` -n ${shellQuote(t.namespace)}` : '';
}

function subFlag(m: ManagerRef): string {
  return m.subresource ? ` --subresource=${shellQuote(m.subresource)}` : '';
}

/** Re-apply as Apply manager `m` without `path`. */
export function applyWithoutField(m: ManagerRef, path: string, t: RemedyTarget): Remedy {
  return {
    kind: 'apply-without-field',
    description: `apply as ${m.manager} a manifest that omits ${path}: ${m.manager} releases it, and it is pruned if nobody else owns it`,
    manager: m,
    commands: [`kubectl apply --server-side --field-manager=${shellQuote(m.manager)}${subFlag(m)}${nsFlag(t)} -f <manifest without ${path}>`],
    patch: null,
    warning: null,
  };
}

/** Take `path` with force as `manager` (the manager that should own it). */
export function forceApply(manager: string, path: string, t: RemedyTarget): Remedy {
  return {
    kind: 'force-apply',
    description: `apply ${path} with force as ${manager}, with a value other than its current one: ${manager} takes it from the other owners and becomes its sole owner (with the current value there is no conflict, and ${manager} only shares it)`,
    manager: null,
    commands: [`kubectl apply --server-side --force-conflicts --field-manager=${shellQuote(manager)}${nsFlag(t)} -f <manifest with a new value of ${path}>`],
    patch: null,
    warning: null,
  };
}

/** Co-own `path` by applying its current value as `manager`. */
export function coOwn(manager: string, path: string, t: RemedyTarget): Remedy {
  return {
    kind: 'co-own-current-value',
    description: `apply ${path} with its current value as ${manager}: no conflict, shared ownership; ${manager} becomes sole owner when the others release it`,
    manager: null,
    commands: [`kubectl apply --server-side --field-manager=${shellQuote(manager)}${nsFlag(t)} -f <manifest with the current value of ${path}>`],
    patch: null,
    warning: null,
  };
}

/**
 * Delete `path` in two steps: take it with force, then stop applying it. `owned`: others own it now,
 * so the first apply must change the value (an apply of the current value only shares it).
 */
export function forceThenDrop(manager: string, path: string, t: RemedyTarget, owned: boolean): Remedy {
  const m = shellQuote(manager);
  return {
    kind: 'force-then-drop',
    description: owned
      ? `apply ${path} with force as ${manager} with a value other than its current one (the current value would only be shared), so ${manager} owns it alone; then apply without it: ${manager}'s release prunes it`
      : `apply ${path} as ${manager} (nobody owns it, so ${manager} owns it alone), then apply without it: ${manager}'s release prunes it`,
    manager: null,
    commands: [
      `kubectl apply --server-side --force-conflicts --field-manager=${m}${nsFlag(t)} -f <manifest with ${owned ? `a new value of ${path}` : path}>`,
      `kubectl apply --server-side --field-manager=${m}${nsFlag(t)} -f <manifest without ${path}>`,
    ],
    patch: null,
    warning: null,
  };
}

const LABELS_OR_ANNOTATIONS: Readonly<Record<string, string>> = { labels: 'label', annotations: 'annotate' };

function pointerToken(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}

function isScalar(v: Value | undefined): v is string | number | boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

/**
 * A JSON patch deleting `p` from `object`: list items are addressed by their index in `object`,
 * guarded by `test` ops on their scalar keys (or value). `null` when `p` is not in `object` or an
 * item cannot be guarded.
 */
export function deletePatch(object: unknown, p: Path): JsonPatchOp[] | null {
  if (p.length === 0) return null;
  const tests: JsonPatchOp[] = [];
  let v = object as Value | undefined;
  let ptr = '';
  for (const pe of p) {
    if (pe.kind === FIELD) {
      if (!isMap(v) || getKey(v, pe.name) === undefined) return null;
      v = getKey(v, pe.name);
      ptr += '/' + pointerToken(pe.name);
      continue;
    }
    if (!Array.isArray(v)) return null;
    const items = v as readonly Value[];
    const i =
      pe.kind === INDEX
        ? pe.index
        : pe.kind === VALUE
          ? items.findIndex((x) => valueEquals(x, pe.value))
          : items.findIndex((x) => isMap(x) && pe.pairs.every((kp) => getKey(x, kp.name) !== undefined && valueEquals(getKey(x, kp.name)!, kp.value)));
    if (i < 0 || i >= items.length) return null;
    ptr += '/' + i;
    if (pe.kind === KEY) {
      for (const kp of pe.pairs) {
        if (!isScalar(kp.value)) return null;
        tests.push({ op: 'test', path: `${ptr}/${pointerToken(kp.name)}`, value: kp.value });
      }
    } else if (pe.kind === VALUE) {
      if (!isScalar(pe.value)) return null;
      tests.push({ op: 'test', path: ptr, value: pe.value });
    } else {
      return null; // a bare index names no item for sure
    }
    v = items[i];
  }
  return [...tests, { op: 'remove', path: ptr }];
}

/**
 * Deletes `p` (human form `path`) with a non-apply write: `kubectl label|annotate … key-` for a
 * label or annotation, else a JSON patch (see {@link deletePatch}). The write strips the field from
 * every owner's set (04 §2: an Update that deletes fields), so it stays gone unless someone writes it
 * again. `null` when no command can address it.
 */
export function deleteField(p: Path, path: string, object: unknown, owners: readonly ManagerRef[], t: RemedyTarget): Remedy | null {
  const [a, b, c] = p;
  const verb = p.length === 3 && a?.kind === FIELD && a.name === 'metadata' && b?.kind === FIELD && c?.kind === FIELD ? LABELS_OR_ANNOTATIONS[b.name] : undefined;
  const patch = verb ? null : deletePatch(object, p);
  if (!verb && !patch) return null;
  const who = owners.length > 0 ? owners.map((o) => `${o.manager} (${o.operation})`).join(', ') : 'nobody';
  return {
    kind: 'delete-field',
    description: `delete ${path} with a non-apply write: it is removed from the object and from every owner's fields (owners now: ${who})`,
    manager: null,
    commands: [
      verb
        ? `kubectl ${verb} ${t.resource}${nsFlag(t)} ${shellQuote(`${(c as { name: string }).name}-`)}`
        : `kubectl patch ${t.resource}${nsFlag(t)} --type=json -p ${shellQuote(JSON.stringify(patch))}`,
    ],
    patch,
    warning:
      owners.length > 0
        ? `it comes back if ${who} writes it again (a controller that keeps setting it, or a client-side kubectl apply of a manifest that has it)`
        : 'it comes back if it is a default or is added by admission',
  };
}

/**
 * Removes the managedFields entry of `m` at `index` with a JSON patch guarded by `test` ops on the
 * identity members. Refuses (no patch, a warning) when it is the only entry: an empty list is a
 * reset and stops tracking. The description says what becomes of `path`, given the `others` still
 * owning it: removing an entry deletes no value, and an apply prunes only what its applier owned
 * before (04 §3.4), so a field nobody owns afterwards stays until someone deletes it.
 */
export function removeEntry(m: ManagerRef, index: number, listLength: number, t: RemedyTarget, path: string, others: readonly ManagerRef[]): Remedy {
  const who = others.map((o) => `${o.manager} (${o.operation})`).join(', ');
  const appliers = others.filter((o) => o.operation === 'Apply');
  const after =
    others.length === 0
      ? `${path} stays in the object, owned by nobody; no apply prunes it (an apply prunes only fields its applier owned before), so to delete it, delete it explicitly (delete-field)`
      : appliers.length === others.length
        ? `${path} stays, owned by ${who} only; it is pruned once ${appliers.length > 1 ? 'they all apply' : `${who} applies`} without it`
        : `${path} stays, still owned by ${who}`;
  const description = `remove the ${m.operation} entry of ${m.manager} (managedFields[${index}]) with a non-apply write: ${m.manager} stops owning every field of that entry and no value changes; ${after}`;
  if (listLength <= 1) {
    return {
      kind: 'remove-managed-fields-entry',
      description,
      manager: m,
      commands: [],
      patch: null,
      warning: 'this is the only managedFields entry: removing it would leave the list empty, which counts as a reset (tracking stops until the next apply, which creates before-first-apply); apply the desired state first so another entry exists',
    };
  }
  const base = `/metadata/managedFields/${index}`;
  const patch: JsonPatchOp[] = [
    { op: 'test', path: `${base}/manager`, value: m.manager },
    { op: 'test', path: `${base}/operation`, value: m.operation },
  ];
  if (m.operation === 'Update') patch.push({ op: 'test', path: `${base}/apiVersion`, value: m.apiVersion });
  patch.push({ op: 'remove', path: base });
  return {
    kind: 'remove-managed-fields-entry',
    description,
    manager: m,
    commands: [`kubectl patch ${t.resource}${nsFlag(t)} --type=json -p ${shellQuote(JSON.stringify(patch))}`],
    patch,
    warning:
      m.operation === 'Apply'
        ? null
        : `an Update entry cannot be released by applying with the name ${m.manager}: an Apply under that name is a different identity`,
  };
}

/** kubectl's automatic CSA→SSA migration (05 §8), with the desired manifest that omits `path`. */
export function csaMigration(path: string, t: RemedyTarget): Remedy {
  return {
    kind: 'csa-migration',
    description: `apply server-side with the default manager kubectl: kubectl first moves the fields of the kubectl-client-side-apply entry into its own Apply entry, then applies the manifest, which prunes ${path} and every other moved field the manifest omits that nobody else owns`,
    manager: null,
    commands: [`kubectl apply --server-side${nsFlag(t)} -f <manifest without ${path}>`],
    patch: null,
    warning: null,
  };
}

/** The blunt reset (07 §4 remediation 5). */
export function resetManagedFields(t: RemedyTarget): Remedy {
  return {
    kind: 'reset-managed-fields',
    description: 'reset all ownership: every managedFields entry goes and no value changes; the object is untracked until the next apply, which creates before-first-apply owning everything',
    manager: null,
    commands: [`kubectl patch ${t.resource}${nsFlag(t)} --type=merge -p ${shellQuote('{"metadata":{"managedFields":[{}]}}')}`],
    patch: null,
    warning: 'blunt: every manager loses its ownership history',
  };
}
