import { Button, Group, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import type { Transition, TransitionType } from '../api/api-types';
import { timeText } from '../api/time-text';
import { identityText } from '../managers/manager-chip';
import { managerStyle } from '../managers/manager-style';
import { timelineLayout, type TimelineMark } from './timeline-marks';

/** Each transition type's letter in its mark (the colour says who, the letter says what). */
const TYPE_LETTER: Record<TransitionType, string> = {
  acquired: 'A', shared: 'S', taken: 'T', forced: 'F', pruned: 'P', kept: 'K', removed: 'R', orphaned: 'O',
};
const LANE_HEIGHT = 36;
const LABEL_WIDTH = 230;
const TOP = 24;
const MIN_STEP = 48;
const MARK = 18;

/** What a mark says when hovered or focused. */
function markDetail(m: TimelineMark): string {
  const t = m.transitions[0]!;
  const on = m.transitions.length === 1 ? t.path : `${m.transitions.length} fields: ${m.transitions.map((x) => x.path).join(', ')}`;
  const from = [...new Set(m.transitions.flatMap((x) => x.from.map((f) => f.manager)))];
  return `${t.type} by ${identityText(t)} on ${on} at ${timeText(t.at)} (#${t.seq})${from.length ? `, from ${from.join(', ')}` : ''}`;
}

/**
 * One lane per manager identity (manager, operation, subresource), one column per event, a mark per
 * kind of transition. Zoom with the buttons (or + and -), pan by scrolling the lanes; hover or focus
 * a mark for its detail; activate it to open its field.
 */
export function Timeline({ transitions, onOpen }: { transitions: Transition[]; onOpen: (path: string) => void }) {
  const [zoom, setZoom] = useState(1);
  const { ref, width: available } = useElementSize();
  const { columns, lanes, marks } = useMemo(() => timelineLayout(transitions), [transitions]);
  const step = Math.max(MIN_STEP, (available - LABEL_WIDTH - 20) / Math.max(columns.length, 1)) * zoom;
  const width = LABEL_WIDTH + Math.max(columns.length, 1) * step + 20;
  const height = TOP + lanes.length * LANE_HEIGHT;
  const zoomIn = () => setZoom((z) => Math.min(z * 1.5, 8));
  const zoomOut = () => setZoom((z) => Math.max(z / 1.5, 0.25));
  const laneY = (lane: number) => TOP + lane * LANE_HEIGHT + LANE_HEIGHT / 2;
  const columnX = (column: number) => LABEL_WIDTH + column * step + step / 2;
  if (transitions.length === 0) return <Text>No transitions recorded.</Text>;
  return (
    <section aria-label="Timeline" onKeyDown={(e) => { if (e.key === '+') zoomIn(); if (e.key === '-') zoomOut(); }}>
      <Group gap="xs" mb="xs">
        <Button size="xs" variant="default" onClick={zoomIn} aria-label="Zoom in">+</Button>
        <Button size="xs" variant="default" onClick={zoomOut} aria-label="Zoom out">−</Button>
        <Button size="xs" variant="default" onClick={() => setZoom(1)}>Fit</Button>
        <Text size="xs" c="dimmed">{Object.entries(TYPE_LETTER).map(([k, v]) => `${v} ${k}`).join(' · ')} · round: Apply, square: Update</Text>
      </Group>
      <div ref={ref} style={{ overflowX: 'auto', border: '1px solid var(--mantine-color-default-border)' }} tabIndex={0} aria-label="Timeline lanes (scroll to pan)">
        <svg width={width} height={height} role="group" aria-label={`${lanes.length} manager lanes, ${columns.length} events`} style={{ display: 'block' }}>
          {columns.map((seq, i) => (
            <g key={seq}>
              <line x1={columnX(i)} x2={columnX(i)} y1={TOP - 6} y2={height} stroke="#ddd" />
              <text x={columnX(i)} y={12} fontSize={10} textAnchor="middle">#{seq}</text>
            </g>
          ))}
          {lanes.map((lane, li) => {
            const s = managerStyle(lane.manager);
            return (
              <g key={li}>
                <rect x={4} y={laneY(li) - 8} width={22} height={16} rx={3} fill={s.color} />
                <text x={15} y={laneY(li) + 4} fontSize={10} fontWeight={700} textAnchor="middle" fill="#000">{s.letter}</text>
                <text x={32} y={laneY(li) + 4} fontSize={12}>{identityText(lane).slice(0, 32)}</text>
                <line x1={LABEL_WIDTH} x2={width} y1={laneY(li)} y2={laneY(li)} stroke={s.color} strokeWidth={2}
                  strokeDasharray={s.border === 'dashed' ? '6 3' : s.border === 'dotted' ? '2 3' : undefined} />
              </g>
            );
          })}
          {marks.map((m) => {
            const t = m.transitions[0]!;
            const x = columnX(m.column) + m.slot * (MARK + 4);
            const y = laneY(m.lane);
            const detail = markDetail(m);
            const open = () => t.path && onOpen(t.path);
            return (
              <g key={`${m.lane}-${m.column}-${t.type}`} role="button" tabIndex={0} aria-label={detail} style={{ cursor: 'pointer' }}
                onClick={open} onKeyDown={(e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); open(); } }}>
                <title>{detail}</title>
                <rect x={x - MARK / 2} y={y - MARK / 2} width={MARK} height={MARK} rx={t.operation === 'Apply' ? MARK / 2 : 2}
                  fill={managerStyle(t.manager).color} stroke="#000" strokeWidth={1} />
                <text x={x} y={y + 4} fontSize={10} fontWeight={700} textAnchor="middle" fill="#000">
                  {TYPE_LETTER[t.type] ?? '?'}{m.transitions.length > 1 ? m.transitions.length : ''}
                </text>
              </g>
            );
          })}
        </svg>
      </div>
    </section>
  );
}
