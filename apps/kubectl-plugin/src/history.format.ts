import { formatLocalTime } from './local-time.js';
import { ownerLabel, valueLabel } from './owner-label.js';
import type { Paint } from './paint.js';
import type { HistoryAnswer } from './service-api.types.js';

/** A field's transitions, oldest first, each with the value the field held right after it. */
export function formatHistory(objectLabel: string, h: HistoryAnswer, p: Paint): string {
  const lines = [`${p.bold(objectLabel)}  ${p.bold(h.path)}`];
  if (h.transitions.length === 0) lines.push(p.dim('no ownership changes recorded'));
  const valueAt = new Map(h.values.map((v) => [v.seq, valueLabel(v.present, v.value)]));
  const width = Math.max(0, ...h.transitions.map((t) => t.type.length));
  for (const t of h.transitions) {
    const value = valueAt.get(t.seq);
    const notes = [...(t.reconstructed ? ['reconstructed'] : []), ...t.notes];
    const writer = t.manager === null || t.operation === null ? p.dim('(writer unknown)') : ownerLabel({ ...t, manager: t.manager, operation: t.operation }, p);
    lines.push(
      `${p.dim(formatLocalTime(t.at))}  ${t.type.padEnd(width)}  ${writer}${value === undefined ? '' : `  → ${value}`}${notes.length ? p.dim(`  [${notes.join(', ')}]`) : ''}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
