import type { Database } from 'better-sqlite3';
import type { LargeValues } from '../large-values';
import { insertSql, type Param } from '../rows/table';
import { checkDumpRows, DUMP_TABLES, LARGE_VALUE_COLUMNS, notEmptyError, type DumpRow } from '../workspace-dump';
import { prepared } from './repos/query';

/** Every row of the database, table by table in DUMP_TABLES order, large values read from their files. */
export function sqliteRows(db: Database, values: LargeValues, sink: (row: DumpRow) => void): number {
  let count = 0;
  for (const { name, order } of DUMP_TABLES) {
    const large = LARGE_VALUE_COLUMNS[name] ?? [];
    const rows = prepared(db, `SELECT * FROM ${name} ORDER BY ${order === 'insertion' ? 'rowid' : order}`).all() as Record<string, Param>[];
    for (const row of rows) {
      for (const column of large) {
        const stored = row[column];
        if (typeof stored === 'string') row[column] = values.text(stored);
      }
      sink({ table: name, row });
      count += 1;
    }
  }
  return count;
}

/** The rows with their large texts kept as files first (off the event loop, before the transaction). */
export async function keepLargeTexts(rows: readonly DumpRow[], values: LargeValues): Promise<DumpRow[]> {
  return Promise.all(
    rows.map(async ({ table, row }) => {
      const large = LARGE_VALUE_COLUMNS[table] ?? [];
      const kept: Record<string, Param> = { ...row };
      for (const column of large) {
        const text = kept[column];
        if (typeof text === 'string') kept[column] = await values.keep(text);
      }
      return { table, row: kept };
    }),
  );
}

/** Inserts checked rows into an empty database, in the caller's write transaction. */
export function insertSqliteRows(db: Database, rows: readonly DumpRow[]): number {
  checkDumpRows(rows, (table) => new Set((db.pragma(`table_info(${table})`) as { name: string }[]).map((column) => column.name)));
  for (const { name } of DUMP_TABLES) {
    if (prepared(db, `SELECT 1 FROM ${name} LIMIT 1`).get() !== undefined) throw notEmptyError(name);
  }
  for (const { table, row } of rows) prepared(db, insertSql(table, Object.keys(row), () => '?')).run(...Object.values(row));
  return rows.length;
}
