import type { Transition } from '../api/api-types';
import { timelineLayout } from './timeline-marks';

const t = (seq: string, type: Transition['type'], manager: string, path: string, operation = 'Apply'): Transition => ({
  seq, at: '2026-01-01T00:00:00Z', type, manager, operation, subresource: '', apiVersion: 'v1', path,
  owners: [], from: [], valueChanged: false, reconstructed: false, notes: [],
});

describe('timelineLayout', () => {
  it('one lane per identity, one column per event, one mark per type of transition in a cell', () => {
    const layout = timelineLayout([
      t('3', 'forced', 'kubectl', '.image'),
      t('1', 'acquired', 'kubectl', '.image'),
      t('1', 'acquired', 'kubectl', '.name'),
      t('2', 'taken', 'kubectl-set', '.image', 'Update'),
    ]);
    expect(layout.columns).toEqual(['1', '2', '3']);
    expect(layout.lanes.map((l) => l.manager)).toEqual(['kubectl', 'kubectl-set']);
    expect(layout.marks.map((m) => [m.lane, m.column, m.transitions.map((x) => x.path)])).toEqual([
      [0, 0, ['.image', '.name']],
      [1, 1, ['.image']],
      [0, 2, ['.image']],
    ]);
  });
});
