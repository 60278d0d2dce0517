import type { Migration } from '../../sqlite/migrations/migration';
import { KEY } from './types';

/** Idempotency keys scoped to what they protect, with a fingerprint of the request (as SQLite's 005). */
export const idempotencyScopesMigration: Migration = {
  version: 5,
  name: 'idempotency-scopes',
  sql: `
      DROP TABLE idempotency;
      CREATE TABLE idempotency (
        scope ${KEY} NOT NULL,
        key ${KEY} NOT NULL,
        fingerprint text NOT NULL,
        result text NOT NULL,
        created_at ${KEY} NOT NULL,
        PRIMARY KEY (scope, key)
      );
    `,
};
