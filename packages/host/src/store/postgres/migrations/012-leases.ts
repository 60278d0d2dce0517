import type { Migration } from '../../sqlite/migrations/migration';
import { KEY } from './types';

/** Leases (see store/lease-records.ts): times in ms since the epoch. Not part of a workspace dump: they only matter while their holders run. */
export const leasesMigration: Migration = {
  version: 12,
  name: 'leases',
  sql: `
      CREATE TABLE leases (
        key ${KEY} PRIMARY KEY,
        holder ${KEY} NOT NULL,
        acquired_at bigint NOT NULL,
        expires_at bigint NOT NULL
      );
    `,
};
