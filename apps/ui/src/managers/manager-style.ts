// One look per manager, the same everywhere: a colour of the Okabe–Ito palette (distinguishable
// with the common colour-vision deficiencies) plus a letter badge and an outline pattern, so the
// colour is never the only cue.

/** Okabe & Ito (2008), "Color Universal Design", with black left out (it is the text colour). */
export const PALETTE = ['#E69F00', '#56B4E9', '#009E73', '#F0E442', '#0072B2', '#D55E00', '#CC79A7', '#999999'] as const;
export const BORDERS = ['solid', 'dashed', 'dotted', 'double'] as const;

export interface ManagerStyle {
  color: string;
  /** The badge: the initials of the name's first and last words (`kubectl-set` → KS). */
  letter: string;
  border: (typeof BORDERS)[number];
}

/** A stable hash of the name (FNV-1a), so a manager keeps its look across pages and reloads. */
function nameHash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function managerStyle(manager: string): ManagerStyle {
  const h = nameHash(manager);
  const words = manager.split(/[^a-z0-9]+/i).filter(Boolean);
  const letter = words.length === 0 ? '?' : (words[0]![0]! + (words.length > 1 ? words[words.length - 1]![0]! : '')).toUpperCase();
  return { color: PALETTE[h % PALETTE.length]!, letter, border: BORDERS[Math.floor(h / PALETTE.length) % BORDERS.length]! };
}
