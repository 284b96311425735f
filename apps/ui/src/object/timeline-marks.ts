import { compareSeq } from '../../../../libs/audit/src/seq.util';
import type { Transition } from '../api/api-types';
import { identityKey } from '../managers/identity-key';

/** One mark: the transitions of one type by one identity in one event (several fields at once are one mark). */
export interface TimelineMark {
  lane: number;
  column: number;
  /** Position among the marks of its lane and column. */
  slot: number;
  transitions: Transition[];
}

export interface TimelineLayout {
  columns: string[];
  lanes: Transition[];
  marks: TimelineMark[];
}

/** Lanes (first appearance order), columns (events, oldest first) and the marks between them. */
export function timelineLayout(transitions: readonly Transition[]): TimelineLayout {
  const sorted = [...transitions].sort((a, b) => compareSeq(a.seq, b.seq));
  const columns = [...new Set(sorted.map((t) => t.seq))];
  const columnOf = new Map(columns.map((seq, i) => [seq, i]));
  const laneOf = new Map<string, number>();
  const lanes: Transition[] = [];
  const marks = new Map<string, TimelineMark>();
  const slots = new Map<string, number>();
  for (const t of sorted) {
    const identity = identityKey(t);
    let lane = laneOf.get(identity);
    if (lane === undefined) {
      lane = lanes.length;
      laneOf.set(identity, lane);
      lanes.push(t);
    }
    const column = columnOf.get(t.seq)!;
    const key = `${lane}:${column}:${t.type}`;
    const mark = marks.get(key);
    if (mark) {
      mark.transitions.push(t);
      continue;
    }
    const cell = `${lane}:${column}`;
    const slot = slots.get(cell) ?? 0;
    slots.set(cell, slot + 1);
    marks.set(key, { lane, column, slot, transitions: [t] });
  }
  return { columns, lanes, marks: [...marks.values()] };
}
