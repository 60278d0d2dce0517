import type { Migration } from './migration';

/** People the owner added, each with a hashed token (see store/user-records.ts). */
export const usersMigration: Migration = {
  version: 6,
  name: 'users',
  sql: `
      CREATE TABLE users (
        name TEXT PRIMARY KEY,
        role TEXT NOT NULL CHECK (role IN ('editor', 'viewer')),
        token_hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        revoked_at TEXT
      ) STRICT;
    `,
};
