import type { Transition } from '../api/api-types';
import { compareSeq } from '../../../../libs/audit/src/seq.util';
import { historySteps, stepSummary } from './history-steps';

const t = (seq: string, type: Transition['type'], manager: string): Transition => ({
  seq, at: `2026-01-01T00:00:0${seq.length}Z`, type, manager, operation: 'Apply', subresource: '', apiVersion: 'v1',
  owners: [], from: [], valueChanged: false, reconstructed: false, notes: [],
});

describe('historySteps', () => {
  it('groups transitions by event, oldest first, comparing sequence numbers as numbers', () => {
    const steps = historySteps([t('10', 'kept', 'flux'), t('9', 'shared', 'flux'), t('10', 'pruned', 'flux'), t('2', 'acquired', 'kubectl')]);
    expect(steps.map((s) => s.seq)).toEqual(['2', '9', '10']);
    expect(stepSummary(steps[2]!)).toBe('kept flux, pruned flux');
  });

  it('orders long sequence numbers', () => {
    expect(compareSeq('100', '99')).toBeGreaterThan(0);
    expect(compareSeq('7', '7')).toBe(0);
  });
});
