import type { Json } from '../records';

/** A value bound to a statement parameter, in either store. */
export type Param = string | number | null;

/** How a text the store kept reads back as JSON (the SQLite store resolves its large-value references). */
export type ParseStored = <T = Json>(stored: string) => T;

/**
 * `INSERT INTO table (columns) VALUES (...)` with each dialect's placeholders (`?` in SQLite, `$1` in
 * PostgreSQL): each table's column list is written once, in the order its `values` function binds them.
 */
export function insertSql(table: string, columns: readonly string[], placeholder: (index: number) => string): string {
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((_, i) => placeholder(i)).join(', ')})`;
}
