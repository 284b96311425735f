import { getKey, isMap } from '../value/value.js';
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
  /** Remove a stale Update entry with a guarded JSON patch (by its index in the current list). */
  | 'remove-managed-fields-entry'
  /** `kubectl apply --server-side` with the default manager `kubectl` folds client-side-apply entries in. */
  | 'csa-migration'
  /** Reset all ownership with `managedFields: [{}]` (blunt: the object becomes untracked). */
  | 'reset-managed-fields';

/** One JSON patch operation (RFC 6902) of a remedy. */
export interface JsonPatchOp {
  readonly op: 'test' | 'remove';
  readonly path: string;
  readonly value?: string;
}

/** A concrete remediation: a description, and where possible the exact command or patch. */
export interface Remedy {
  readonly kind: RemedyKind;
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
    description: `apply ${path} with force as ${manager}: it takes ownership from the other owners`,
    manager: null,
    commands: [`kubectl apply --server-side --force-conflicts --field-manager=${shellQuote(manager)}${nsFlag(t)} -f <manifest with ${path}>`],
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

/** Delete `path` in two steps: take it with force, then stop applying it. */
export function forceThenDrop(manager: string, path: string, t: RemedyTarget): Remedy {
  const m = shellQuote(manager);
  return {
    kind: 'force-then-drop',
    description: `take ${path} with force as ${manager}, then apply without it: as sole owner ${manager}'s release prunes it`,
    manager: null,
    commands: [
      `kubectl apply --server-side --force-conflicts --field-manager=${m}${nsFlag(t)} -f <manifest with ${path}>`,
      `kubectl apply --server-side --field-manager=${m}${nsFlag(t)} -f <manifest without ${path}>`,
    ],
    patch: null,
    warning: null,
  };
}

/**
 * Removes the managedFields entry of `m` at `index` with a JSON patch guarded by `test` ops on the
 * identity members. Refuses (no patch, a warning) when it is the only entry: an empty list is a
 * reset and stops tracking.
 */
export function removeEntry(m: ManagerRef, index: number, listLength: number, t: RemedyTarget): Remedy {
  const description = `remove the stale ${m.operation} entry of ${m.manager} (managedFields[${index}]) with a non-apply write, so the next apply can prune what only it kept alive`;
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

/** kubectl's automatic CSA→SSA migration (05 §8). */
export function csaMigration(t: RemedyTarget): Remedy {
  return {
    kind: 'csa-migration',
    description: 'apply server-side with the default manager kubectl: kubectl folds the kubectl-client-side-apply entry into its own Apply entry; later applies without the field prune it',
    manager: null,
    commands: [`kubectl apply --server-side${nsFlag(t)} -f <manifest>`],
    patch: null,
    warning: null,
  };
}

/** The blunt reset (07 §4 remediation 5). */
export function resetManagedFields(t: RemedyTarget): Remedy {
  return {
    kind: 'reset-managed-fields',
    description: 'reset all ownership: the object becomes untracked until the next apply, which creates before-first-apply owning everything',
    manager: null,
    commands: [`kubectl patch ${t.resource}${nsFlag(t)} --type=merge -p ${shellQuote('{"metadata":{"managedFields":[{}]}}')}`],
    patch: null,
    warning: 'blunt: every manager loses its ownership history',
  };
}
