import type { Store } from '@cowork/host/embed';

/** What the SQLite store reports of its checkpoint thread (not part of the Store interface). */
interface WalCounters {
  readonly checkpointStats: { readonly restarts: number };
}

/**
 * Times a store's WAL has started again from its first frame, as its checkpoint thread counts them;
 * null for a store without one (PostgreSQL).
 */
export function walRestarts(store: Store): number | null {
  return (store as Partial<WalCounters>).checkpointStats?.restarts ?? null;
}
