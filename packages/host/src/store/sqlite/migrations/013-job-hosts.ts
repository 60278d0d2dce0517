import type { Migration } from './migration';

/**
 * The machine a job was started on (its host id, see leases/holder.ts): only hosts there can check
 * its processes; hosts elsewhere judge it by whether a host there still runs (leases/presence.ts).
 * Null for jobs recorded before: taken for this machine's, as they were.
 */
export const jobHostsMigration: Migration = {
  version: 13,
  name: 'job-hosts',
  sql: `ALTER TABLE jobs ADD COLUMN host_id TEXT;`,
};
