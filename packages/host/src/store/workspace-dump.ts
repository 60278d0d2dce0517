import { CoworkError } from '../errors';
import type { Param } from './rows/table';

/**
 * A workspace's records as rows, for moving them between stores (`cowork workspace export|import`,
 * SQLite to PostgreSQL and back): every row of every table, with each column as stored (JSON as its
 * text, so it reads back to the character; a large value as its text, wherever the store keeps it).
 */
export interface DumpRow {
  readonly table: string;
  readonly row: Readonly<Record<string, Param>>;
}

/** The first line of a dump file. */
export interface DumpHeader {
  readonly format: typeof DUMP_FORMAT;
  readonly schemaVersion: number;
  /** The store it came from (its description, no password). */
  readonly source: string;
  readonly rows: number;
}

export const DUMP_FORMAT = 'cowork-workspace-1';

/**
 * Every table, parents before the tables that refer to them, each with the order its rows are
 * listed in: columns both stores sort alike, or `insertion` where the host lists rows in the order
 * they were written (SQLite's rowid, PostgreSQL's `pos`), so a moved workspace lists as it did.
 */
export const DUMP_TABLES: readonly { readonly name: string; readonly order: string }[] = [
  { name: 'resources', order: 'created_at, id' },
  { name: 'revisions', order: 'resource_id, revision' },
  { name: 'candidates', order: 'insertion' },
  { name: 'drafts', order: 'created_at, id' },
  { name: 'selections', order: 'resource_id, person' },
  { name: 'events', order: 'seq' },
  { name: 'idempotency', order: 'scope, key' },
  { name: 'inbox', order: 'seq' },
  { name: 'conversation', order: 'task_id, agent_id, seq' },
  { name: 'compactions', order: 'task_id, agent_id, seq' },
  { name: 'model_calls', order: 'id' },
  { name: 'jobs', order: 'insertion' },
  { name: 'monitors', order: 'insertion' },
  { name: 'users', order: 'name' },
  { name: 'approvals', order: 'requested_at, id' },
  { name: 'publications', order: 'published_at, id' },
  { name: 'last_seen', order: 'task_id, agent_id, resource_id' },
  { name: 'runs', order: 'started_at, id' },
  { name: 'run_points', order: 'run_id, seq' },
];

/** Columns whose text may be large (the SQLite store keeps those as files, see large-values.ts). */
export const LARGE_VALUE_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  resources: ['content'],
  revisions: ['op', 'snapshot'],
  candidates: ['ops'],
  drafts: ['content', 'ops'],
};

/**
 * Checks rows before they are written into a store: every table known, every column one the
 * target table has (`columnsOf`), every value a string, a finite number or null. A crafted file
 * can name nothing the store would put into SQL. Each agent's conversation is numbered 1, 2, 3...
 * in order, as the store numbers it: the context loader counts records by their seqs.
 */
export function checkDumpRows(rows: readonly DumpRow[], columnsOf: (table: string) => ReadonlySet<string>): void {
  const known = new Set(DUMP_TABLES.map((t) => t.name));
  const nextSeq = new Map<string, number>();
  rows.forEach(({ table, row }, i) => {
    if (!known.has(table)) throw dumpError(`row ${i + 1} is for table ${JSON.stringify(table)}, which a workspace does not have`, { table });
    const columns = columnsOf(table);
    for (const [column, value] of Object.entries(row)) {
      if (!columns.has(column)) throw dumpError(`row ${i + 1} of ${table} has a column ${JSON.stringify(column)} the table does not have`, { table, column });
      const scalar = value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
      if (!scalar) throw dumpError(`row ${i + 1} of ${table} has a value of ${column} that is not a string, a number or null`, { table, column });
    }
    if (table === 'conversation') {
      const agent = `${String(row.task_id)}\u0000${String(row.agent_id)}`;
      const expected = nextSeq.get(agent) ?? 1;
      if (row.seq !== expected) {
        throw dumpError(`row ${i + 1} of conversation has seq ${JSON.stringify(row.seq)} where ${expected} comes next for agent ${String(row.agent_id)} of task ${String(row.task_id)}; an agent's conversation is numbered 1, 2, 3... in order`, { table, column: 'seq' });
      }
      nextSeq.set(agent, expected + 1);
    }
  });
}

/** The refusal of an import into a store that already holds records. */
export function notEmptyError(table: string): CoworkError {
  return dumpError(`the target store already holds rows (in ${table}); import into an empty database or workspace`, { table });
}

/** The refusal of a dump made at another schema version. */
export function versionError(dump: number, store: number): CoworkError {
  return dumpError(`the dump has schema version ${dump} and this store ${store}; export and import with the same cowork version`, { schemaVersion: dump, supportedVersion: store });
}

function dumpError(message: string, details: Record<string, unknown>): CoworkError {
  return new CoworkError('invalid_input', message, { field: 'FILE', ...details });
}
