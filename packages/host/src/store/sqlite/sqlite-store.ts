import { dirname, join } from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { CoworkError, isCoworkError } from '../../errors';
import { Mutex } from '../../util/mutex';
import { LargeValues } from '../large-values';
import type { Store, StoreTx, TransactionOptions } from '../store';
import { groupCommitSettings, wantsFlushLater, WriteQueue, type GroupCommitSettings, type Outcome, type QueuedWrite } from '../write-queue';
import { versionError, type DumpRow } from '../workspace-dump';
import { currentVersion, migrate } from './migrations';
import { insertSqliteRows, keepLargeTexts, sqliteRows } from './sqlite-dump';
import { SqliteCandidateRepo } from './repos/candidate-repo';
import { SqliteCompactionRepo } from './repos/compaction-repo';
import { SqliteConversationRepo } from './repos/conversation-repo';
import { SqliteInboxRepo } from './repos/inbox-repo';
import { SqliteModelCallRepo } from './repos/model-call-repo';
import { SqliteDraftRepo } from './repos/draft-repo';
import { SqliteEventRepo } from './repos/event-repo';
import { SqliteIdempotencyRepo } from './repos/idempotency-repo';
import { SqliteJobRepo } from './repos/job-repo';
import { SqliteMonitorRepo } from './repos/monitor-repo';
import { SqliteUserRepo } from './repos/user-repo';
import { SqliteApprovalRepo } from './repos/approval-repo';
import { SqlitePublicationRepo } from './repos/publication-repo';
import { SqliteRunRepo } from './repos/run-repo';
import { SqliteLeaseRepo } from './repos/lease-repo';
import { SqliteTaskEventRepo } from './repos/task-event-repo';
import { SqliteLastSeenRepo } from './repos/last-seen-repo';
import { SqliteResourceRepo } from './repos/resource-repo';
import { SqliteRevisionRepo } from './repos/revision-repo';
import { SqliteSelectionRepo } from './repos/selection-repo';
import { WalCheckpointer } from './wal-checkpointer';

/**
 * `FULL` (the default) fsyncs the WAL on every commit: an acknowledged commit survives power loss.
 * `NORMAL` is faster but a power loss can drop the last acknowledged commits; opt in knowingly.
 */
export type SynchronousMode = 'FULL' | 'NORMAL';

export interface SqliteStoreOptions {
  /** Path of the database file. */
  readonly path: string;
  readonly synchronous?: SynchronousMode;
  /** Write transactions that share one COMMIT (see the class comment); default GROUP_COMMIT_DEFAULTS. */
  readonly groupCommit?: GroupCommitSettings;
  /** How long to wait for another process's write lock before failing with `store_busy`. */
  readonly busyTimeoutMs?: number;
  /** Where large values live (see ../large-values.ts); default `values/` beside the database. */
  readonly valuesDir?: string;
  /** Texts of this many characters or more are kept as large values (default 256 KiB). */
  readonly largeValueChars?: number;
}

/**
 * The embedded store: one SQLite database in WAL mode. better-sqlite3 is synchronous, so one
 * connection runs one transaction at a time; a FIFO mutex keeps an awaiting transaction body from
 * interleaving with another. `BEGIN IMMEDIATE` takes SQLite's write lock up front, which is what
 * serialises writers on other connections (the CLI next to a running server).
 *
 * Waiting for that lock is asynchronous: SQLite's own busy handler would sleep inside the call and
 * freeze the event loop, which stalls a server while the CLI writes, and deadlocks two connections
 * in one process (the holder's transaction body can never resume). So the connection's busy
 * timeout is 0 and a busy `BEGIN` is retried with a growing timer until `busyTimeoutMs`.
 *
 * Disk faults answer `store_io_error`. A full disk (`SQLITE_FULL`) rolls the transaction back and
 * leaves the store usable: once there is room again, the next write succeeds. An I/O error in a
 * write transaction (`SQLITE_IOERR_*`, a failed fsync among them) fails the store instead: every
 * later transaction, read or write, answers `store_io_error` until the host is reopened. After a
 * failed fsync the kernel may have dropped the dirty pages and will not report it again
 * ("fsyncgate"), so this connection's view of the files is no longer trusted; reopening makes
 * SQLite recover from the WAL on disk. That recovery may bring back the one commit that failed
 * (its frames reached the WAL, only the fsync failed), never one that was not attempted, and every
 * acknowledged commit was fsynced before it was acknowledged.
 */
export { GROUP_COMMIT_DEFAULTS, type GroupCommitSettings } from '../write-queue';

export class SqliteStore implements Store {
  readonly description: string;
  private readonly db: Database;
  private readonly tx: StoreTx;
  private readonly values: LargeValues;
  private readonly mutex = new Mutex();
  private readonly busyTimeoutMs: number;
  private readonly control: Record<'BEGIN IMMEDIATE' | 'BEGIN DEFERRED' | 'COMMIT' | 'ROLLBACK' | 'SAVEPOINT' | 'RELEASE' | 'ROLLBACK TO', { run(): unknown }>;
  private readonly maxBatch: number;
  /** Write transactions waiting for their batch (group commit's queue, shared with the PostgreSQL store). */
  private readonly queue: WriteQueue<StoreTx>;
  /** Batches whose COMMIT wrote rows and was flushed: one fsync each. */
  private durable = 0;
  /** The store's `synchronous` mode, and the one the connection has now (NORMAL for a `flush: 'later'` batch). */
  private readonly synchronous: SynchronousMode;
  private flushing: SynchronousMode;
  private readonly totalChanges: { get(): unknown };
  /** Copies the WAL into the database on a thread of its own, not inside a commit. */
  private readonly checkpointer: WalCheckpointer;
  private closed = false;
  /** The I/O error that failed the store (see the class comment); set once, never cleared. */
  private failure: CoworkError | undefined;

  constructor(options: SqliteStoreOptions) {
    const synchronous = options.synchronous ?? 'FULL';
    // Checked at run time too: a mistyped mode from configuration must not silently weaken durability.
    if (synchronous !== 'FULL' && synchronous !== 'NORMAL') {
      throw new CoworkError('invalid_input', `synchronous must be "FULL" or "NORMAL", not ${JSON.stringify(synchronous)}`, { field: 'synchronous' });
    }
    this.description = `sqlite:${options.path} (synchronous=${synchronous})`;
    this.synchronous = this.flushing = synchronous;
    this.busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    const group = groupCommitSettings(options.groupCommit);
    this.maxBatch = group.maxBatch;
    this.queue = new WriteQueue(group, this.mutex, (batch) => this.runBatch(batch));
    this.db = wrapSqliteErrors(() => new BetterSqlite3(options.path, { timeout: 0 }));
    // Opening and migrating may meet another process's write lock: wait for it synchronously, once.
    this.db.pragma(`busy_timeout = ${this.busyTimeoutMs}`);
    const journal = this.db.pragma('journal_mode = WAL', { simple: true });
    if (journal !== 'wal') {
      this.db.close();
      throw new CoworkError('store_failed', `the workspace database cannot use WAL journaling here (got ${String(journal)}); put the workspace on a local disk`, { journalMode: String(journal) });
    }
    this.db.pragma(`synchronous = ${synchronous}`);
    this.db.pragma('foreign_keys = ON');
    migrate(this.db);
    this.db.pragma('busy_timeout = 0');
    // Prepared once: re-parsing BEGIN/COMMIT on every transaction showed up in commit profiles.
    this.control = {
      'BEGIN IMMEDIATE': this.db.prepare('BEGIN IMMEDIATE'),
      'BEGIN DEFERRED': this.db.prepare('BEGIN DEFERRED'),
      COMMIT: this.db.prepare('COMMIT'),
      ROLLBACK: this.db.prepare('ROLLBACK'),
      SAVEPOINT: this.db.prepare('SAVEPOINT group_item'),
      RELEASE: this.db.prepare('RELEASE group_item'),
      'ROLLBACK TO': this.db.prepare('ROLLBACK TO group_item'),
    };
    this.totalChanges = this.db.prepare('SELECT total_changes()').pluck();
    this.checkpointer = new WalCheckpointer(
      { path: options.path, synchronous },
      (pages) => {
        if (!this.closed) this.db.pragma(`wal_autocheckpoint = ${pages}`);
      },
      (step) => this.mutex.run(step),
    );
    this.values = new LargeValues(options.valuesDir ?? join(dirname(options.path), 'values'), options.largeValueChars ?? 256 * 1024);
    this.tx = {
      resources: new SqliteResourceRepo(this.db, this.values),
      revisions: new SqliteRevisionRepo(this.db, this.values),
      candidates: new SqliteCandidateRepo(this.db, this.values),
      drafts: new SqliteDraftRepo(this.db, this.values),
      selections: new SqliteSelectionRepo(this.db),
      events: new SqliteEventRepo(this.db),
      idempotency: new SqliteIdempotencyRepo(this.db),
      inbox: new SqliteInboxRepo(this.db),
      conversation: new SqliteConversationRepo(this.db),
      compactions: new SqliteCompactionRepo(this.db),
      modelCalls: new SqliteModelCallRepo(this.db),
      jobs: new SqliteJobRepo(this.db),
      monitors: new SqliteMonitorRepo(this.db),
      users: new SqliteUserRepo(this.db),
      approvals: new SqliteApprovalRepo(this.db),
      publications: new SqlitePublicationRepo(this.db),
      lastSeen: new SqliteLastSeenRepo(this.db),
      runs: new SqliteRunRepo(this.db),
      leases: new SqliteLeaseRepo(this.db),
      taskEvents: new SqliteTaskEventRepo(this.db),
    };
  }

  transaction<T>(fn: (tx: StoreTx) => Promise<T>, options?: TransactionOptions): Promise<T> {
    let flushLater: boolean;
    try {
      flushLater = wantsFlushLater(options);
    } catch (error) {
      return Promise.reject(error);
    }
    if (this.maxBatch === 1) return this.inTransaction('BEGIN IMMEDIATE', fn, flushLater);
    return this.queue.push(fn, flushLater);
  }

  read<T>(fn: (tx: StoreTx) => Promise<T>): Promise<T> {
    return this.inTransaction('BEGIN DEFERRED', fn);
  }

  keepText(text: string): Promise<string> {
    return this.values.keep(text);
  }

  /** One machine: no announcements between SQLite processes (see Store.announcesAppends). */
  readonly announcesAppends = false;

  watchCommits(): () => void {
    // No notifications between SQLite processes: callers' polls find other processes' commits.
    return () => undefined;
  }

  watchAppends(): () => void {
    return () => undefined;
  }

  async integrityCheck(): Promise<string[]> {
    return this.mutex.run(async () => {
      const rows = this.db.pragma('integrity_check') as { integrity_check: string }[];
      return rows.map((row) => row.integrity_check).filter((line) => line !== 'ok');
    });
  }

  exportRows(sink: (row: DumpRow) => void): Promise<number> {
    return this.read(async () => sqliteRows(this.db, this.values, sink));
  }

  async importRows(rows: readonly DumpRow[], schemaVersion: number): Promise<number> {
    const current = await this.schemaVersion();
    if (current !== schemaVersion) throw versionError(schemaVersion, current);
    const kept = await keepLargeTexts(rows, this.values);
    return this.transaction(async () => insertSqliteRows(this.db, kept));
  }

  async schemaVersion(): Promise<number> {
    return this.mutex.run(async () => currentVersion(this.db));
  }

  async close(): Promise<void> {
    await this.checkpointer.close();
    await this.mutex.run(async () => {
      if (this.closed) return;
      this.closed = true;
      this.db.close();
    });
  }

  private inTransaction<T>(begin: 'BEGIN IMMEDIATE' | 'BEGIN DEFERRED', fn: (tx: StoreTx) => Promise<T>, flushLater = false): Promise<T> {
    return this.mutex.run(async () => {
      if (this.closed) throw new CoworkError('store_failed', 'the store is closed');
      if (this.failure) throw failedStoreError(this.failure);
      const writing = begin === 'BEGIN IMMEDIATE';
      try {
        if (writing) this.flushOnCommit(!flushLater);
        const waiting = this.begin(begin);
        if (waiting) await waiting;
        try {
          const result = await fn(this.tx);
          this.control.COMMIT.run();
          if (writing) this.checkpointer.committed();
          return result;
        } catch (error) {
          if (this.db.inTransaction) this.rollback(error);
          throw error;
        }
      } catch (error) {
        const mapped = isCoworkError(error) ? error : toStoreError(error, writing);
        if (writing && isCoworkError(mapped) && mapped.code === 'store_io_error' && String(mapped.details.sqliteCode).startsWith('SQLITE_IOERR')) {
          this.fail(mapped);
        }
        throw mapped;
      }
    });
  }

  /** Write batches run so far and the transactions in them (benchmarks and tests read it). */
  get groupCommitStats(): { readonly batches: number; readonly transactions: number; readonly largest: number; readonly durable: number } {
    return { ...this.queue.stats, durable: this.durable };
  }

  /** WAL checkpoints run off the commit path so far (see WalCheckpointer.stats; benchmarks and tests read it). */
  get checkpointStats(): { readonly checkpoints: number; readonly restarts: number; readonly failures: number } {
    return this.checkpointer.stats;
  }

  /**
   * One batch of write transactions in one `BEGIN IMMEDIATE ... COMMIT`, each body in its own
   * savepoint and in arrival order, so each sees the ones before it exactly as if they had committed
   * one at a time. A body that throws is rolled back to its savepoint and fails alone; the others
   * are answered only after the one COMMIT (its fsync) succeeded. A fault that ends the whole
   * transaction (an I/O error, a failed COMMIT) fails every body that had not failed on its own.
   */
  private async runBatch(batch: readonly QueuedWrite<StoreTx>[]): Promise<Outcome[]> {
    try {
      const changesBefore = this.closed ? undefined : this.totalChanges.get();
      const outcomes = await this.runWrites(batch);
      // A COMMIT that wrote rows is one fsync (synchronous=FULL, not relaxed for the batch); one
      // that wrote none writes nothing.
      if (!this.closed && changesBefore !== undefined && outcomes.some((o) => o.ok) && this.totalChanges.get() !== changesBefore) {
        if (this.flushing === 'FULL') this.durable += 1;
        this.checkpointer.committed();
      }
      return outcomes;
    } catch (error) {
      // Never leave a caller unanswered.
      const mapped = this.mapWriteError(error);
      return batch.map(() => ({ ok: false, error: mapped }));
    }
  }

  private async runWrites(batch: readonly QueuedWrite<StoreTx>[]): Promise<Outcome[]> {
    const all = (error: unknown): Outcome[] => batch.map(() => ({ ok: false, error }));
    if (this.closed) return all(new CoworkError('store_failed', 'the store is closed'));
    if (this.failure) return all(failedStoreError(this.failure));
    try {
      this.flushOnCommit(batch.some((write) => !write.flushLater));
      const waiting = this.begin('BEGIN IMMEDIATE');
      if (waiting) await waiting;
    } catch (error) {
      return all(this.mapWriteError(error));
    }
    const outcomes: Outcome[] = [];
    const single = batch.length === 1;
    for (const write of batch) {
      if (!single) this.control.SAVEPOINT.run();
      try {
        const value = await write.fn(this.tx);
        if (!single) this.control.RELEASE.run();
        outcomes.push({ ok: true, value });
      } catch (error) {
        const mapped = this.mapWriteError(error);
        if (this.db.inTransaction && !this.failure) {
          if (single) this.rollback(error);
          else this.undoItem(error);
        }
        if (!this.db.inTransaction || this.failure) {
          // The whole transaction is gone: nothing before this body is committed either.
          const lost = this.failure ?? mapped;
          return [...outcomes.map((): Outcome => ({ ok: false, error: lost })), { ok: false, error: mapped }, ...batch.slice(outcomes.length + 1).map((): Outcome => ({ ok: false, error: lost }))];
        }
        outcomes.push({ ok: false, error: mapped });
      }
    }
    if (!this.db.inTransaction) return outcomes;
    try {
      this.control.COMMIT.run();
    } catch (error) {
      if (this.db.inTransaction) this.rollback(error);
      const mapped = this.mapWriteError(error);
      return outcomes.map((o): Outcome => (o.ok ? { ok: false, error: mapped } : o));
    }
    return outcomes;
  }

  /** Undoes one body of a batch (its savepoint); a failure to do so fails the store. */
  private undoItem(cause: unknown): void {
    try {
      this.control['ROLLBACK TO'].run();
      this.control.RELEASE.run();
    } catch (error) {
      this.rollback(cause);
      const mapped = toStoreError(error, true);
      this.fail(isCoworkError(mapped) ? mapped : new CoworkError('store_io_error', `rollback to a savepoint failed: ${String(error)}`, {}, { cause: error }));
    }
  }

  /** A write's error as callers see it; an I/O error fails the store (see the class comment). */
  private mapWriteError(error: unknown): unknown {
    const mapped = isCoworkError(error) ? error : toStoreError(error, true);
    if (isCoworkError(mapped) && mapped.code === 'store_io_error' && String(mapped.details.sqliteCode).startsWith('SQLITE_IOERR')) this.fail(mapped);
    return mapped;
  }

  /** Rolls back after `cause` failed the transaction; a rollback that fails too fails the store. */
  private rollback(cause: unknown): void {
    try {
      this.control.ROLLBACK.run();
    } catch (error) {
      const mapped = toStoreError(error, true);
      this.fail(isCoworkError(mapped) ? mapped : new CoworkError('store_io_error', `rollback failed: ${String(error)}`, { sqliteCode: sqliteCode(cause) ?? null }, { cause: error }));
    }
  }

  private fail(error: CoworkError): void {
    if (this.failure) return;
    this.failure = error;
    process.stderr.write(`cowork: ${this.description}: ${error.message}; every further read and write answers store_io_error until the host is restarted\n`);
  }

  /**
   * Sets whether the next COMMIT is flushed before it returns: with `synchronous=FULL`, a batch of
   * `flush: 'later'` writes alone commits under NORMAL, whose WAL frames the next FULL commit or
   * checkpoint fsyncs. SQLite takes the setting only between transactions; it is changed only when
   * it differs.
   */
  private flushOnCommit(flush: boolean): void {
    const wanted: SynchronousMode = flush ? this.synchronous : 'NORMAL';
    if (wanted === this.flushing) return;
    this.db.pragma(`synchronous = ${wanted}`);
    this.flushing = wanted;
  }

  /**
   * Starts a transaction: at once when no other connection holds the lock (nearly always, and then
   * with no promise to await: a turn begins a dozen transactions), else by `beginWhenFree`.
   */
  private begin(statement: 'BEGIN IMMEDIATE' | 'BEGIN DEFERRED'): Promise<void> | undefined {
    try {
      this.control[statement].run();
      return undefined;
    } catch (error) {
      if (!isBusy(error) || this.busyTimeoutMs <= 0) throw toStoreError(error, statement === 'BEGIN IMMEDIATE');
    }
    return this.beginWhenFree(statement);
  }

  /** Retries a BEGIN on a timer while another connection holds the lock, up to the busy timeout. */
  private async beginWhenFree(statement: 'BEGIN IMMEDIATE' | 'BEGIN DEFERRED'): Promise<void> {
    const deadline = Date.now() + this.busyTimeoutMs;
    for (let delayMs = 1; ; delayMs = Math.min(delayMs * 2, 50)) {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      try {
        this.control[statement].run();
        return;
      } catch (error) {
        if (!isBusy(error) || Date.now() >= deadline) throw toStoreError(error, statement === 'BEGIN IMMEDIATE');
      }
    }
  }
}

function isBusy(error: unknown): boolean {
  return sqliteCode(error)?.startsWith('SQLITE_BUSY') === true;
}

/**
 * The SQLite code of an error, found by shape rather than `instanceof`: the native addon keeps the
 * error class of the first realm that loaded it (a test runner's sandboxes load it several times).
 */
function sqliteCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

function wrapSqliteErrors<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw toStoreError(error);
  }
}

/**
 * A SQLite error as the host's coded error. Disk faults are `store_io_error`: a full disk, an I/O
 * error, and, in a write transaction, a file SQLite could not open (a journal or WAL it could not
 * create); outside one `SQLITE_CANTOPEN` is more likely a wrong path or permissions.
 */
function toStoreError(error: unknown, writing = false): unknown {
  const code = sqliteCode(error);
  if (code === undefined) return error;
  const message = String((error as { message?: unknown }).message);
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new CoworkError('store_busy', `database error: ${message}`, { sqliteCode: code }, { cause: error });
  }
  if (code.startsWith('SQLITE_FULL')) {
    return new CoworkError('store_io_error', `the disk is full; the write failed and was rolled back (${message})`, { sqliteCode: code }, { cause: error });
  }
  if (code.startsWith('SQLITE_IOERR') || (writing && code.startsWith('SQLITE_CANTOPEN'))) {
    const what = writing ? 'the write was not acknowledged; the store refuses further work until the host restarts' : 'the read failed';
    return new CoworkError('store_io_error', `disk I/O error (${code}): ${what} (${message})`, { sqliteCode: code }, { cause: error });
  }
  return new CoworkError('store_failed', `database error: ${message}`, { sqliteCode: code }, { cause: error });
}

/** What every transaction on a failed store answers: the original fault, named again. */
function failedStoreError(failure: CoworkError): CoworkError {
  return new CoworkError(
    'store_io_error',
    `the store stopped after a failed write (${failure.message}); restart the host to recover the workspace from its log`,
    { sqliteCode: failure.details.sqliteCode, storeFailed: true },
  );
}
