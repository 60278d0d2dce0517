/**
 * Leases: which host process holds a piece of work that must run in one place at a time (a task's
 * Main loop, the monitors' polling). A lease runs until `expiresAt` unless its holder renews it;
 * a holder that dies stops renewing, so the lease expires and another host may take the work.
 * Times are milliseconds since the epoch on the database's own clock (hosts on several machines
 * compare against one clock, not their own).
 */
export interface LeaseRecord {
  readonly key: string;
  /** Who holds it: `<host id>:<pid>:<nonce>` (see leases/holder.ts). */
  readonly holder: string;
  readonly acquiredAt: number;
  readonly expiresAt: number;
  /** The database's clock when this record was read. */
  readonly now: number;
}

export interface LeaseRepo {
  /**
   * Takes the lease for `holder` for `durationMs` when it is free, expired, already `holder`'s
   * (a renewal), or held by `replacing` (a holder known to be gone); otherwise leaves it alone.
   * Returns the lease as it stands afterwards: the caller holds it when its holder is `holder`.
   */
  acquire(key: string, holder: string, durationMs: number, replacing?: string): Promise<LeaseRecord>;
  /** Ends `holder`'s lease; false when it did not hold it (expired and taken, or never held). */
  release(key: string, holder: string): Promise<boolean>;
  get(key: string): Promise<LeaseRecord | undefined>;
  /** The leases whose key begins with `prefix` and that have not expired, by key (which hosts of a machine run: leases/presence.ts). */
  live(prefix: string): Promise<LeaseRecord[]>;
}
