import type { DataSource, QueryRunner } from 'typeorm';
import { errorCodeOf } from '../../../common/src/index.js';

// deadlock_detected, serialization_failure, and connection failures worth another try.
const RETRYABLE = new Set(['40P01', '40001', '57P01', '08006', '08003', '08000']);

function isRetryable(e: unknown): boolean {
  const code = errorCodeOf(e);
  return code !== null && RETRYABLE.has(code);
}

export interface TransactionOptions {
  /** Tries in all (5). */
  readonly attempts?: number;
  /** A further error, besides deadlocks, serialization and connection failures, after which the whole transaction runs again. */
  readonly retryIf?: (e: unknown) => boolean;
}

/** Runs `work` in one transaction; retries a few times on deadlocks and serialization failures (and `retryIf`). */
export async function inTransaction<T>(dataSource: DataSource, work: (q: QueryRunner) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  const { attempts = 5, retryIf } = options;
  for (let attempt = 1; ; attempt++) {
    const q = dataSource.createQueryRunner();
    await q.connect();
    try {
      await q.startTransaction();
      const result = await work(q);
      await q.commitTransaction();
      return result;
    } catch (e) {
      if (q.isTransactionActive) await q.rollbackTransaction().catch(() => undefined);
      if (attempt >= attempts || !(isRetryable(e) || retryIf?.(e))) throw e;
      await new Promise((r) => setTimeout(r, 10 * 2 ** attempt + Math.random() * 10));
    } finally {
      await q.release();
    }
  }
}
