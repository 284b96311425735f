import type { Paint } from './paint.js';

/** A field manager's identity as the answers name it (no subresource: empty, null or absent). */
export interface ManagerIdentity {
  readonly manager: string;
  readonly operation: string;
  readonly subresource?: string | null | undefined;
}

/** `kubectl-set (Update)`, `horizontal-pod-autoscaler (Update, /scale)`: a field manager's identity. */
export function ownerLabel(o: ManagerIdentity, p: Paint): string {
  const extra = [o.operation, ...(o.subresource ? [`/${o.subresource}`] : [])].join(', ');
  return `${p.manager(o.manager)} (${extra})`;
}

/** A field's value as one line (JSON, so strings are quoted and nothing spans lines). */
export function valueLabel(present: boolean, value: unknown): string {
  if (!present) return '<absent>';
  return value === undefined ? '<set>' : JSON.stringify(value);
}
