import { insertSql, type Param } from '../rows/table';
import { checkDumpRows, DUMP_TABLES, notEmptyError, type DumpRow } from '../workspace-dump';
import { pgPlaceholder } from './repos/placeholders';
import type { PgSession } from './session';

/** Every row of the database, table by table in DUMP_TABLES order (without the `pos` columns that keep insertion order). */
export async function pgRows(s: PgSession, sink: (row: DumpRow) => void): Promise<number> {
  let count = 0;
  for (const { name, order } of DUMP_TABLES) {
    const rows = await s.rows<Record<string, Param>>(`SELECT * FROM ${name} ORDER BY ${order === 'insertion' ? 'pos' : order}`);
    for (const { pos: _pos, ...row } of rows) {
      sink({ table: name, row });
      count += 1;
    }
  }
  return count;
}

/**
 * Inserts checked rows into an empty database, in the caller's write transaction: the inserts are
 * pipelined (sent together, answered in order), then the identity columns continue after the
 * imported numbers.
 */
export async function insertPgRows(s: PgSession, rows: readonly DumpRow[]): Promise<number> {
  const columns = new Map<string, Set<string>>();
  for (const { table_name, column_name } of await s.rows<{ table_name: string; column_name: string }>('SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()')) {
    columns.set(table_name, (columns.get(table_name) ?? new Set()).add(column_name));
  }
  checkDumpRows(rows, (table) => columns.get(table) ?? new Set());
  const held = await s.first<Record<string, boolean>>(`SELECT ${DUMP_TABLES.map(({ name }) => `EXISTS (SELECT 1 FROM ${name}) AS ${name}`).join(', ')}`);
  const full = DUMP_TABLES.find(({ name }) => held?.[name] === true);
  if (full) throw notEmptyError(full.name);
  await Promise.all(rows.map(({ table, row }) => s.changes(insertSql(table, Object.keys(row), pgPlaceholder), Object.values(row))));
  await s.rows(
    `SELECT setval(pg_get_serial_sequence('inbox', 'seq'), (SELECT COALESCE(MAX(seq), 0) + 1 FROM inbox), false),
            setval(pg_get_serial_sequence('model_calls', 'id'), (SELECT COALESCE(MAX(id), 0) + 1 FROM model_calls), false)`,
  );
  return rows.length;
}
