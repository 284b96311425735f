import { Group, Slider, Text } from '@mantine/core';
import { timeText } from '../api/time-text';
import { type HistoryStep, stepSummary } from './history-steps';

/**
 * Replays the object through its history: one stop per event that changed ownership, the last one
 * "now". Arrow keys, Home and End move it; the page follows (`at=` in the URL).
 */
export function TimeSlider({ steps, index, onChange }: { steps: HistoryStep[]; index: number; onChange: (index: number) => void }) {
  if (steps.length === 0) return null;
  const describe = (i: number) => {
    const s = steps[i]!;
    return `${i === steps.length - 1 ? 'now: ' : ''}#${s.seq} at ${timeText(s.at)}: ${stepSummary(s)}`;
  };
  return (
    <section aria-label="Time">
      <Group gap="xs" wrap="nowrap">
        <Text size="sm" fw={600}>Time</Text>
        <Slider
          style={{ flex: 1 }}
          min={0}
          max={Math.max(steps.length - 1, 1)}
          step={1}
          value={index}
          disabled={steps.length < 2}
          onChange={onChange}
          label={describe}
          thumbLabel="Time: replay the object's history"
          thumbValueText={(v) => describe(Math.min(v, steps.length - 1))}
          marks={steps.length <= 30 ? steps.map((_, i) => ({ value: i })) : []}
        />
      </Group>
      <Text size="sm" c="dimmed" aria-live="polite" data-testid="time-position">{describe(index)}</Text>
    </section>
  );
}
