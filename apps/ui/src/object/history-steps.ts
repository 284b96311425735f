import { compareSeq } from '../../../../libs/audit/src/seq.util';
import type { Transition } from '../api/api-types';

/** One moment of the object's history the slider can stop at: an event that changed ownership. */
export interface HistoryStep {
  seq: string;
  at: string;
  transitions: Transition[];
}

/** The object's moments, oldest first, from its transitions (any order). */
export function historySteps(transitions: readonly Transition[]): HistoryStep[] {
  const bySeq = new Map<string, HistoryStep>();
  for (const t of transitions) {
    const step = bySeq.get(t.seq) ?? { seq: t.seq, at: t.at, transitions: [] };
    step.transitions.push(t);
    bySeq.set(t.seq, step);
  }
  return [...bySeq.values()].sort((a, b) => compareSeq(a.seq, b.seq));
}

/** What a step did, in a few words: `shared flux-controller, kept flux-controller`. */
export function stepSummary(step: HistoryStep): string {
  const parts = [...new Set(step.transitions.map((t) => `${t.type} ${t.manager}`))];
  return parts.length > 3 ? `${parts.slice(0, 3).join(', ')}, …` : parts.join(', ');
}
