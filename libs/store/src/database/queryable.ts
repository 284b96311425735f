/**
 * What runs a statement: a data source (a pooled connection each time), or a query runner inside a
 * transaction. Rows come back untyped, as from TypeORM; they are typed where they are read.
 */
export interface Queryable {
  query(sql: string, parameters?: unknown[]): Promise<any>;
}
