import type { Migration } from './migration';

/** Leases (see store/lease-records.ts): times in ms since the epoch. Not part of a workspace dump: they only matter while their holders run. */
export const leasesMigration: Migration = {
  version: 12,
  name: 'leases',
  sql: `
      CREATE TABLE leases (
        key TEXT PRIMARY KEY,
        holder TEXT NOT NULL,
        acquired_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      ) STRICT;
    `,
};
