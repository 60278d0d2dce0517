import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Store } from './store';
import { SqliteStore, type GroupCommitSettings, type SynchronousMode } from './sqlite/sqlite-store';

export const DATABASE_FILE = 'cowork.db';

export interface OpenStoreOptions {
  synchronous?: SynchronousMode;
  busyTimeoutMs?: number;
  groupCommit?: GroupCommitSettings;
}

/** Opens (creating if needed) the one database of a workspace directory. */
export function openWorkspaceStore(workspaceDir: string, options: OpenStoreOptions = {}): Store {
  const dir = resolve(workspaceDir);
  mkdirSync(dir, { recursive: true });
  return new SqliteStore({ path: join(dir, DATABASE_FILE), ...options });
}
