import { SsaEngineError } from '../errors.js';
import { pathToHuman, type Path } from '../fieldpath/field-set.js';
import { goQuote } from '../value/go-format.js';
import { compareStrings } from '../value/compare.js';
import { parseIdentity } from '../managed-fields/managed-fields.js';

/** One conflict: the manager (identity) that owns `path`, which the apply would change. */
export interface Conflict {
  /** Manager identity (05 §1). */
  readonly identity: string;
  readonly manager: string;
  readonly operation: 'Apply' | 'Update';
  readonly apiVersion?: string;
  readonly subresource?: string;
  readonly path: Path;
  /** Human form of `path` (01 §2.5). */
  readonly field: string;
}

export function makeConflict(identity: string, path: Path): Conflict {
  const id = parseIdentity(identity);
  return {
    identity,
    manager: id.manager,
    operation: id.operation,
    ...(id.apiVersion ? { apiVersion: id.apiVersion } : {}),
    ...(id.subresource ? { subresource: id.subresource } : {}),
    path,
    field: pathToHuman(path),
  };
}

/** How a conflict message names a manager (06 §2). */
export function managerDisplay(c: Pick<Conflict, 'manager' | 'operation' | 'apiVersion' | 'subresource'>): string {
  let s = goQuote(c.manager);
  if (c.subresource) s += ` with subresource ${goQuote(c.subresource)}`;
  if (c.operation === 'Update') s += ` using ${c.apiVersion ?? ''}`;
  return s;
}

/** The apiserver's message for a list of conflicts (06 §3). */
export function conflictMessage(conflicts: readonly Conflict[]): string {
  if (conflicts.length === 1) {
    const c = conflicts[0]!;
    return `Apply failed with 1 conflict: conflict with ${managerDisplay(c)}: ${c.field}`;
  }
  const byManager = new Map<string, Conflict[]>();
  for (const c of conflicts) {
    const g = byManager.get(c.identity);
    if (g) g.push(c);
    else byManager.set(c.identity, [c]);
  }
  const lines = [`Apply failed with ${conflicts.length} conflicts: `];
  let first = true;
  for (const id of [...byManager.keys()].sort(compareStrings)) {
    const g = byManager.get(id)!;
    const head = `conflicts with ${managerDisplay(g[0]!)}:`;
    if (first) {
      lines[0] += head;
      first = false;
    } else lines.push(head);
    for (const c of g) lines.push(`- ${c.field}`);
  }
  return lines.join('\n');
}

/** The 409 `Status` object the apiserver answers with (06 §1). */
export function conflictStatus(conflicts: readonly Conflict[]): Record<string, unknown> {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: conflictMessage(conflicts),
    reason: 'Conflict',
    details: {
      causes: conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${managerDisplay(c)}`, field: c.field })),
    },
    code: 409,
  };
}

/** An apply that would change fields other managers own. Carries the conflicts as data. */
export class ConflictError extends SsaEngineError {
  override readonly name = 'ConflictError';
  constructor(readonly conflicts: readonly Conflict[]) {
    super('conflict', conflictMessage(conflicts));
  }

  /** The 409 Status body. */
  toStatus(): Record<string, unknown> {
    return conflictStatus(this.conflicts);
  }
}
