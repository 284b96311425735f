import { DataSource } from 'typeorm';
import type { Queryable } from './queryable.js';

interface PgPool {
  query(config: { name: string; text: string; values: readonly unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * Runs `text` as a named prepared statement on the data source's `pg` pool: each connection plans
 * it once and then executes it, where `DataSource.query` would plan it on every call (a query over
 * the partitioned event log plans in several times the time it runs). For the API's hottest reads.
 */
export async function preparedQuery<T>(dataSource: DataSource, name: string, text: string, values: readonly unknown[]): Promise<T[]> {
  const pool = (dataSource.driver as unknown as { master?: PgPool }).master;
  if (!pool) return dataSource.query(text, values as unknown[]) as Promise<T[]>;
  return (await pool.query({ name, text, values })).rows as T[];
}

/**
 * `preparedQuery` where `q` is a data source (its pool); a query runner (a transaction's connection)
 * runs the statement plainly, on its own connection.
 */
export async function preparedOrPlainQuery<T>(q: Queryable, name: string, text: string, values: readonly unknown[]): Promise<T[]> {
  return q instanceof DataSource ? preparedQuery<T>(q, name, text, values) : (q.query(text, values as unknown[]) as Promise<T[]>);
}
