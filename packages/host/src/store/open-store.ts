import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CoworkError } from '../errors';
import type { Store } from './store';
import type { GroupCommitSettings } from './write-queue';
import { SqliteStore, type SynchronousMode } from './sqlite/sqlite-store';

export const DATABASE_FILE = 'cowork.db';

/** The environment variable that points the CLI at a PostgreSQL database (`--database-url` overrides it). */
export const DATABASE_URL_ENV = 'COWORK_DATABASE_URL';

export interface OpenStoreOptions {
  synchronous?: SynchronousMode;
  busyTimeoutMs?: number;
  groupCommit?: GroupCommitSettings;
  /**
   * `postgres://user@host:5432/db`: the workspace's records live in that PostgreSQL database
   * (store/postgres) instead of `<workspace>/cowork.db`. Job logs and task folders stay in the
   * workspace directory either way.
   */
  databaseUrl?: string;
}

/**
 * Opens (creating if needed) the one database of a workspace: the PostgreSQL database named by
 * `databaseUrl` when given, else the SQLite file in the workspace directory. The one place that
 * chooses the store.
 */
export async function openWorkspaceStore(workspaceDir: string, options: OpenStoreOptions = {}): Promise<Store> {
  const dir = resolve(workspaceDir);
  mkdirSync(dir, { recursive: true });
  const { databaseUrl, ...settings } = options;
  if (databaseUrl === undefined || databaseUrl === '') return new SqliteStore({ path: join(dir, DATABASE_FILE), ...settings });
  if (settings.synchronous !== undefined) {
    // Durability on PostgreSQL is the server's (synchronous_commit): a SQLite mode here would be ignored silently.
    throw new CoworkError('invalid_input', 'synchronous applies to the SQLite store only; leave it out with a database URL', { field: 'synchronous' });
  }
  // Required here, not at the top: a command on a SQLite workspace never loads the PostgreSQL client.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { PostgresStore } = require('./postgres/postgres-store') as typeof import('./postgres/postgres-store');
  return PostgresStore.open({ url: databaseUrl, busyTimeoutMs: settings.busyTimeoutMs, groupCommit: settings.groupCommit });
}
