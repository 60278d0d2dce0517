import type { Store } from '@cowork/host/embed';

/**
 * What the SQLite store counts of its own work (not part of the Store interface): group commit's
 * transactions and flushed commits, and its checkpoint thread's checkpoints and WAL restarts.
 */
export interface StoreCounters {
  readonly groupCommitStats: { readonly durable: number; readonly transactions: number };
  readonly checkpointStats: { readonly checkpoints: number; readonly restarts: number };
}

/** A copy of the store's counters now; null for a store that keeps none (PostgreSQL). */
export function storeCounters(store: Store): StoreCounters | null {
  const counted = store as Partial<StoreCounters>;
  if (!counted.groupCommitStats || !counted.checkpointStats) return null;
  return { groupCommitStats: { ...counted.groupCommitStats }, checkpointStats: { ...counted.checkpointStats } };
}

/**
 * Times a store's WAL has started again from its first frame, as its checkpoint thread counts them;
 * null for a store without one (PostgreSQL).
 */
export function walRestarts(store: Store): number | null {
  return (store as Partial<StoreCounters>).checkpointStats?.restarts ?? null;
}
