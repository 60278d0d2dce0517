import { CoworkError } from '../errors';
import type { Mutex } from '../util/mutex';
import type { TransactionOptions } from './store';

/** Group commit's settings (the same for every store). */
export interface GroupCommitSettings {
  /** Most write transactions in one batch, one COMMIT and one fsync (1: each its own, as without group commit). */
  readonly maxBatch?: number;
  /**
   * How long a batch that is not full waits for more writers before it starts, in ms. 0: it starts
   * once this turn of the event loop has handled what was ready (every request that arrived
   * together), so concurrent HTTP commits share a batch without any timer.
   */
  readonly windowMs?: number;
}

/** Measured on SQLite with bench:http and bench:runtime (README, "Speed"); PostgreSQL keeps them. */
export const GROUP_COMMIT_DEFAULTS: Required<GroupCommitSettings> = { maxBatch: 64, windowMs: 0 };

/** A write transaction waiting for its batch. */
export interface QueuedWrite<Tx> {
  readonly fn: (tx: Tx) => Promise<unknown>;
  /** Asked for `flush: 'later'` (TransactionOptions): a batch of these alone commits without a flush. */
  readonly flushLater: boolean;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

export type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

/** Whether a write asked for `flush: 'later'` (TransactionOptions); any other value than the two is refused. */
export function wantsFlushLater(options: TransactionOptions | undefined): boolean {
  const flush = options?.flush;
  if (flush !== undefined && flush !== 'now' && flush !== 'later') {
    throw new CoworkError('invalid_input', `flush must be "now" or "later", not ${JSON.stringify(flush)}`, { field: 'flush' });
  }
  return flush === 'later';
}

/** Checked settings with the defaults filled in; a mistyped value is refused rather than guessed. */
export function groupCommitSettings(given: GroupCommitSettings | undefined): Required<GroupCommitSettings> {
  const group = { ...GROUP_COMMIT_DEFAULTS, ...given };
  if (!Number.isInteger(group.maxBatch) || group.maxBatch < 1 || group.maxBatch > 10_000) {
    throw new CoworkError('invalid_input', `groupCommit.maxBatch must be a whole number from 1 to 10000, not ${JSON.stringify(group.maxBatch)}`, { field: 'groupCommit.maxBatch' });
  }
  if (typeof group.windowMs !== 'number' || !(group.windowMs >= 0 && group.windowMs <= 1000)) {
    throw new CoworkError('invalid_input', `groupCommit.windowMs must be from 0 to 1000, not ${JSON.stringify(group.windowMs)}`, { field: 'groupCommit.windowMs' });
  }
  return group;
}

/**
 * The queue of group commit, independent of the database: write transactions wait here and run in
 * batches of up to `maxBatch`, one batch at a time under `mutex`, through `runBatch`, which answers
 * each body with an outcome. Writers that arrive while a batch runs join the next one. Every caller
 * is answered, even when `runBatch` itself throws.
 */
export class WriteQueue<Tx> {
  private readonly pending: QueuedWrite<Tx>[] = [];
  private flushQueued = false;
  private readonly counts = { batches: 0, transactions: 0, largest: 0 };

  constructor(
    private readonly settings: Required<GroupCommitSettings>,
    private readonly mutex: Mutex,
    private readonly runBatch: (batch: readonly QueuedWrite<Tx>[]) => Promise<Outcome[]>,
  ) {}

  push<T>(fn: (tx: Tx) => Promise<T>, flushLater = false): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ fn, flushLater, resolve: resolve as (value: unknown) => void, reject });
      this.queueFlush();
    });
  }

  /** Batches run so far, the transactions in them and the largest batch. */
  get stats(): { readonly batches: number; readonly transactions: number; readonly largest: number } {
    return { ...this.counts };
  }

  /**
   * Queues one batch behind what holds the mutex now; writers arriving meanwhile join it. With no
   * window the batch still waits for `setImmediate`: a flush started from the first request's
   * microtasks would run before the event loop read the other connections' requests, and every
   * batch over HTTP was a batch of one (bench:http on SQLite, 10 connections: 1,538 commits/s,
   * largest batch 1; with the deferral 4,032/s in batches of up to 5).
   */
  private queueFlush(): void {
    if (this.flushQueued) return;
    this.flushQueued = true;
    const flush = (): void => void this.mutex.run(() => this.flush());
    if (this.pending.length >= this.settings.maxBatch) flush();
    else if (this.settings.windowMs > 0) setTimeout(flush, this.settings.windowMs);
    else setImmediate(flush);
  }

  private async flush(): Promise<void> {
    this.flushQueued = false;
    const batch = this.pending.splice(0, this.settings.maxBatch);
    if (this.pending.length > 0) this.queueFlush();
    if (batch.length === 0) return;
    this.counts.batches += 1;
    this.counts.transactions += batch.length;
    this.counts.largest = Math.max(this.counts.largest, batch.length);
    let outcomes: Outcome[];
    try {
      outcomes = await this.runBatch(batch);
    } catch (error) {
      outcomes = batch.map(() => ({ ok: false, error }));
    }
    batch.forEach((write, i) => {
      const outcome = outcomes[i] ?? { ok: false, error: new CoworkError('internal', 'a write transaction got no outcome from its batch') };
      if (outcome.ok) write.resolve(outcome.value);
      else write.reject(outcome.error);
    });
  }
}
