import { DEFAULT_ANALYZE_POLICY, tablesDueForAnalyze } from './table-statistics.js';

describe('tablesDueForAnalyze', () => {
  const t = (table: string, rowsWhenCounted: number, changedSinceAnalyze: number) => ({ table, rowsWhenCounted, changedSinceAnalyze });

  it('leaves small changes alone, however small the table', () => {
    expect(tablesDueForAnalyze([t('a', 0, 999), t('b', -1, 10)])).toEqual([]);
  });

  it('analyzes a table never counted once it has the minimum of changed rows (reltuples -1 counts as none)', () => {
    expect(tablesDueForAnalyze([t('a', -1, 1_000), t('b', 0, 1_000)])).toEqual(['a', 'b']);
  });

  it('analyzes again once the changes reach the share of the rows last counted', () => {
    // 1,000 + 0.5 × 100,000 = 51,000 changed rows.
    expect(tablesDueForAnalyze([t('a', 100_000, 50_999), t('b', 100_000, 51_000)])).toEqual(['b']);
  });

  it('analyzes a table filling from empty a logarithmic number of times', () => {
    let counted = 0;
    let analyses = 0;
    for (let rows = 1; rows <= 200_000; rows++) {
      if (tablesDueForAnalyze([t('a', counted, rows - counted)], DEFAULT_ANALYZE_POLICY).length > 0) {
        counted = rows;
        analyses++;
      }
    }
    // At 1,000, 2,500, 4,750, 8,125, 13,187, 20,780, 32,170, 49,255, 74,882, 113,323 and 170,984 rows.
    expect(analyses).toBe(11);
  });
});
