import { kubectlConflictStderr } from '../../../libs/audit/src/kubectl-apply-output.js';
import { ownerLabel } from './owner-label.js';
import type { Paint } from './paint.js';
import type { SimulateAnswer } from './service-api.types.js';

/** What a command prints, on which stream, and how it exits. */
export interface Printed {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: 0 | 1;
}

/**
 * What `kubectl apply --server-side` prints for the simulated applies, byte for byte: a line
 * `<kind[.group]>/<name> serverside-applied` per object applied without a conflict on stdout (kubectl
 * goes on past a conflicting object), then the conflicts' messages with kubectl's advice on stderr, exit 1.
 */
export function kubectlApplyOutput(applies: readonly { readonly objectName: string; readonly answer: SimulateAnswer }[]): Printed {
  let stdout = '';
  const conflicts: string[] = [];
  for (const { objectName, answer } of applies) {
    if (answer.message !== null) conflicts.push(answer.message);
    else stdout += `${objectName} serverside-applied\n`;
  }
  return { stdout, stderr: kubectlConflictStderr(conflicts), code: conflicts.length > 0 ? 1 : 0 };
}

/** The prediction kubectl does not print: which released fields go away and which stay (and who keeps them). */
export function formatPrediction(applies: readonly { readonly objectName: string; readonly answer: SimulateAnswer }[], p: Paint): string {
  const lines: string[] = [];
  for (const { objectName, answer } of applies) {
    if (answer.message !== null) continue; // kubectl goes on past a conflicting object: so does the prediction
    if (answer.pruned.length === 0 && answer.kept.length === 0) continue;
    lines.push(`# ${objectName}`);
    for (const path of answer.pruned) lines.push(`#   pruned ${path}`);
    for (const k of answer.kept) lines.push(`#   kept   ${k.path}  (still owned by ${k.owners.map((o) => ownerLabel(o, p)).join(', ')})`);
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}
