import type { Migration } from './migration';

/**
 * Idempotency keys scoped to what they protect (a commit's resource, creation, a job start...) and
 * stored with a fingerprint of the request, so that a key reused for another request is refused
 * instead of answered with the first request's result (see store/idempotency.ts). Keys written by
 * an older host were global and carried no fingerprint; they protected only retries in flight
 * across the upgrade, and are not carried over.
 */
export const idempotencyScopesMigration: Migration = {
  version: 5,
  name: 'idempotency-scopes',
  sql: `
      DROP TABLE idempotency;
      CREATE TABLE idempotency (
        scope TEXT NOT NULL,
        key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        result TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (scope, key)
      ) STRICT, WITHOUT ROWID;
    `,
};
