import { ownerLabel } from './owner-label.js';
import type { Paint } from './paint.js';
import { objectLabel } from './resource-ref.js';
import type { Finding } from './service-api.types.js';

/** Findings grouped by object: `kind/name -n ns`, then one line per finding. */
export function formatFindings(findings: readonly Finding[], p: Paint): string {
  if (findings.length === 0) return 'no findings\n';
  const lines: string[] = [];
  let object = '';
  for (const f of findings) {
    const label = objectLabel(f, f.name, f.namespace);
    if (label !== object) {
      lines.push(p.bold(label));
      object = label;
    }
    lines.push(`  ${f.type}  ${f.path}  ${f.managers.map((m) => ownerLabel(m, p)).join(', ')}`);
  }
  return `${lines.join('\n')}\n`;
}
