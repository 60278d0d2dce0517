import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CoworkError } from '../../errors';
import { writeFileAtomic } from '../../util/atomic-file';
import { DUMP_FORMAT, type DumpHeader, type DumpRow } from '../../store/workspace-dump';
import { group, leaf } from '../command';

/**
 * `cowork workspace export|import FILE`: a workspace's records moved between stores (SQLite's
 * cowork.db and a PostgreSQL database, either way) as JSON lines: a header, then one row per line.
 * The workspace folder's files (job logs, task folders) are not in the file: they stay where they are.
 */

const exportCommand = leaf({
  summary: "write every record of the workspace's store (revisions, candidates, events, Inbox, ...) to FILE",
  details: ['FILE holds JSON lines; `cowork workspace import FILE` loads it into another, empty store (--database-url or a new workspace).'],
  positionals: ['FILE'],
  options: {},
  async run(args, { io, out, withStore }) {
    const file = resolve(io.cwd, args.positional('FILE'));
    const lines: string[] = [];
    const header = await withStore(async (store): Promise<DumpHeader> => {
      const schemaVersion = await store.schemaVersion();
      const rows = await store.exportRows((row) => lines.push(JSON.stringify(row)));
      return { format: DUMP_FORMAT, schemaVersion, source: store.description, rows };
    });
    writeFileAtomic(file, `${[JSON.stringify(header), ...lines].join('\n')}\n`);
    out.result({ file, ...header }, (r) => [`exported ${r.rows} rows (schema version ${r.schemaVersion}) from ${r.source} to ${r.file}`]);
  },
});

const importCommand = leaf({
  summary: "load FILE (from `cowork workspace export`) into the workspace's store, which must be empty",
  positionals: ['FILE'],
  options: {},
  async run(args, { io, out, withStore }) {
    const file = resolve(io.cwd, args.positional('FILE'));
    const { header, rows } = readDump(file);
    const imported = await withStore(async (store) => ({ rows: await store.importRows(rows, header.schemaVersion), target: store.description }));
    out.result({ file, ...imported }, (r) => [`imported ${r.rows} rows from ${r.file} into ${r.target}`]);
  },
});

/** The header and rows of a dump file, each line checked for its shape (the store checks the columns). */
function readDump(file: string): { header: DumpHeader; rows: DumpRow[] } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CoworkError('not_found', `cannot read ${file}: ${(error as Error).message}`, { path: file });
  }
  const lines = text.split('\n').filter((line) => line !== '');
  const parsed = lines.map((line, i) => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      throw new CoworkError('invalid_json', `line ${i + 1} of ${file} is not JSON`, { path: file, line: i + 1 });
    }
  });
  const header = parsed[0] as Partial<DumpHeader> | undefined;
  if (header?.format !== DUMP_FORMAT || !Number.isInteger(header.schemaVersion)) {
    throw new CoworkError('invalid_input', `${file} is not a workspace export (its first line names no ${DUMP_FORMAT} format)`, { field: 'FILE' });
  }
  const rows = parsed.slice(1).map((value, i) => {
    const row = value as Partial<DumpRow> | null;
    if (typeof row?.table !== 'string' || typeof row.row !== 'object' || row.row === null || Array.isArray(row.row)) {
      throw new CoworkError('invalid_input', `line ${i + 2} of ${file} is not a {table, row} record`, { field: 'FILE', line: i + 2 });
    }
    return row as DumpRow;
  });
  if (header.rows !== undefined && header.rows !== rows.length) {
    throw new CoworkError('invalid_input', `${file} announces ${header.rows} rows but holds ${rows.length}: it is incomplete`, { field: 'FILE' });
  }
  return { header: header as DumpHeader, rows };
}

export const workspaceCommand = group({
  summary: "move a workspace's records between stores (SQLite and PostgreSQL)",
  children: { export: exportCommand, import: importCommand },
});
