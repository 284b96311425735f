import { formatLocalTime } from './local-time.js';
import { ownerLabel } from './owner-label.js';
import type { Paint } from './paint.js';
import type { Explanation } from './service-api.types.js';

/** The explain answer: cause, what happened, who still owns the field, and each remedy with its commands. */
export function formatWhy(objectLabel: string, x: Explanation, p: Paint): string {
  const lines = [`${p.bold(objectLabel)}  ${p.bold(x.path)}  ${x.present ? 'present' : 'absent'}`];
  const others = x.causes.filter((c) => c !== x.cause);
  lines.push(`cause: ${p.bold(x.cause)}${others.length ? ` (also: ${others.join(', ')})` : ''}`);
  if (x.message) lines.push(x.message);
  if (x.releasedBy) lines.push(`released by: ${ownerLabel(x.releasedBy, p)}${x.releasedBy.at ? ` at ${formatLocalTime(x.releasedBy.at)}` : ''}`);
  lines.push(`still owned by: ${x.remainingOwners.length ? x.remainingOwners.map((o) => ownerLabel(o, p)).join(', ') : 'nobody'}`);
  for (const n of x.notes) lines.push(p.dim(`note: ${n.message}`));
  if (x.remedies.length) {
    lines.push('', 'remedies:');
    x.remedies.forEach((r, i) => {
      lines.push(`${i + 1}. ${p.bold(r.kind)}: ${r.summary}`);
      const commands = r.commands.length ? r.commands : r.command ? [r.command] : [];
      for (const c of commands) lines.push(`   $ ${c}`);
      if (r.warning) lines.push(`   ${p.warn(`warning: ${r.warning}`)}`);
    });
  }
  return `${lines.join('\n')}\n`;
}
