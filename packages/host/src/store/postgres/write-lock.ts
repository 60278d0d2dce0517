/**
 * The key of the one advisory lock every write transaction of a workspace's database takes first
 * (`pg_advisory_xact_lock`, released by its COMMIT or ROLLBACK): "cowork" in ASCII. See
 * postgres-store.ts for why writes are serialised this way.
 */
export const WRITE_LOCK = 0x636f776f726b;
