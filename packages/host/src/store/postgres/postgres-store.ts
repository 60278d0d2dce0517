import type { Pool, PoolClient } from 'pg';
import { CoworkError } from '../../errors';
import { Mutex } from '../../util/mutex';
import type { AnnouncedTable, Store, StoreTx, TransactionOptions } from '../store';
import { versionError, type DumpRow } from '../workspace-dump';
import { groupCommitSettings, wantsFlushLater, WriteQueue, type GroupCommitSettings, type Outcome, type QueuedWrite } from '../write-queue';
import { currentPgVersion, migratePostgres } from './migrations';
import { isConnectionError, toPgStoreError } from './pg-errors';
import { pgTx, sessionOf } from './pg-tx';
import { insertPgRows, pgRows } from './pg-dump';
import { createPool, redactUrl, type PoolSettings } from './pool';
import { CHANNELS, COMMITS_CHANNEL, CommitListener } from './commit-listener';
import { PgSession } from './session';
import { WRITE_LOCK } from './write-lock';

export interface PostgresStoreOptions extends PoolSettings {
  /** Write transactions that share one COMMIT (as SQLite's; see the class comment). */
  readonly groupCommit?: GroupCommitSettings;
  /** How long a write waits for the write lock another host holds before failing with `store_busy` (default 5 s). */
  readonly busyTimeoutMs?: number;
}

/**
 * The store on PostgreSQL, for a workspace shared by several host processes or machines.
 *
 * Isolation: every write transaction first takes one transaction-scoped advisory lock
 * (`pg_advisory_xact_lock`, write-lock.ts), so write transactions on a database run one at a time
 * across every process and host, exactly as SQLite's `BEGIN IMMEDIATE` makes them; the rest is
 * READ COMMITTED, whose statements each see every transaction committed before the lock was granted.
 * Not row locks alone: the host's transaction bodies read and then write rows that may not exist
 * yet (the next event or conversation seq, an idempotency key, the Inbox messages to lease, the
 * coordinator's fold of the log before it appends), which no row lock covers. Not SERIALIZABLE
 * with retries: a retry runs the body again, and bodies have effects outside the database (the
 * coordinator folds events into memory as it reads them). The compare-and-set of a resource head
 * is also a conditional UPDATE (`WHERE revision = $expected`), safe even without the lock.
 *
 * Group commit shares the lock and the COMMIT: write transactions that arrive together in this
 * process run as one batch in one transaction, each body in its own savepoint and in arrival order
 * (one that throws is rolled back alone), and every caller is answered after the one COMMIT, which
 * returns once the server flushed its WAL (synchronous_commit on). Reads run beside the batches on
 * other connections, each in one REPEATABLE READ READ ONLY snapshot.
 *
 * Large values are kept inline (`keepText` returns the text): PostgreSQL compresses a large text
 * and stores it out of line in TOAST, every host sees it (files beside a database would not be
 * shared across machines), and it is written under the transaction's WAL flush like any row. The
 * cost is that the text travels to the server inside the write transaction, while the lock is held.
 *
 * A server that cannot be reached, or a connection lost mid-transaction, answers `store_unavailable`
 * (retryable): the host keeps running and the pool connects again on the next call. A write whose
 * connection died during COMMIT may or may not have committed; nothing answered as committed was not.
 */
export class PostgresStore implements Store {
  readonly description: string;
  private readonly queue: WriteQueue<StoreTx>;
  private readonly mutex = new Mutex();
  private readonly begin: string;
  /** BEGIN for a batch of `flush: 'later'` writes alone: the COMMIT returns before its WAL is flushed. */
  private readonly beginFlushLater: string;
  private closed = false;
  private durable = 0;
  private readonly commits: CommitListener;

  private constructor(
    private readonly pool: Pool,
    options: PostgresStoreOptions,
    group: Required<GroupCommitSettings>,
    sessionSettings: string,
  ) {
    this.description = `postgres:${redactUrl(options.url)}`;
    const busy = options.busyTimeoutMs ?? 5000;
    // One round trip: BEGIN, the lock and its wait limit. A session that stalls inside a transaction
    // (a host frozen mid-batch) is ended by the server, which frees the lock for the other hosts.
    const begin = (settings: string): string =>
      `BEGIN; SET LOCAL lock_timeout = ${busy}; SET LOCAL idle_in_transaction_session_timeout = ${Math.max(busy, 60_000)};${settings} SELECT pg_advisory_xact_lock(${WRITE_LOCK}); NOTIFY ${COMMITS_CHANNEL}`;
    this.begin = begin(sessionSettings);
    this.beginFlushLater = begin(' SET LOCAL synchronous_commit = off;');
    this.commits = new CommitListener(options.url);
    this.queue = new WriteQueue(group, this.mutex, (batch) => this.runBatch(batch));
  }

  /** Connects, brings the schema up to date, and checks that acknowledged commits are durable. */
  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const busy = options.busyTimeoutMs ?? 5000;
    if (!Number.isInteger(busy) || busy < 1 || busy > 600_000) {
      throw new CoworkError('invalid_input', `busyTimeoutMs must be a whole number of ms from 1 to 600000, not ${JSON.stringify(busy)}`, { field: 'busyTimeoutMs' });
    }
    const group = groupCommitSettings(options.groupCommit);
    const pool = createPool(options);
    try {
      await migratePostgres(pool);
      return new PostgresStore(pool, options, group, await durabilitySettings(pool, options.url));
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw error;
    }
  }

  transaction<T>(fn: (tx: StoreTx) => Promise<T>, options?: TransactionOptions): Promise<T> {
    if (this.closed) return Promise.reject(closedError());
    try {
      return this.queue.push(fn, wantsFlushLater(options));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  read<T>(fn: (tx: StoreTx) => Promise<T>): Promise<T> {
    return this.snapshot((s) => fn(pgTx(s)));
  }

  /** Texts are kept inline (see the class comment). */
  async keepText(text: string): Promise<string> {
    return text;
  }

  /**
   * The host's own invariants, checked on one snapshot (a scan of the revisions and the log):
   * every resource's revisions run 0..head without a gap, and the event log is numbered 1..n.
   * Pages and indexes are the server's to check (amcheck, pg_checksums).
   */
  async integrityCheck(): Promise<string[]> {
    return this.snapshot(async (s) => {
      const problems: string[] = [];
      const heads = await s.rows<{ id: string; revision: number; n: number; lo: number | null; hi: number | null }>(
        `SELECT r.id, r.revision, COUNT(v.revision) AS n, MIN(v.revision) AS lo, MAX(v.revision) AS hi
         FROM resources r LEFT JOIN revisions v ON v.resource_id = r.id GROUP BY r.id, r.revision
         HAVING COUNT(v.revision) <> r.revision + 1 OR MIN(v.revision) <> 0 OR MAX(v.revision) <> r.revision ORDER BY r.id`,
      );
      for (const h of heads) problems.push(`resource ${h.id} is at revision ${h.revision} but has ${h.n} revisions (${h.lo ?? '-'}..${h.hi ?? '-'})`);
      const log = await s.first<{ n: number; last: number }>('SELECT COUNT(*) AS n, COALESCE(MAX(seq), 0) AS last FROM events');
      if (log && log.n !== log.last) problems.push(`the event log holds ${log.n} events numbered up to ${log.last}`);
      return problems;
    });
  }

  exportRows(sink: (row: DumpRow) => void): Promise<number> {
    return this.snapshot((s) => pgRows(s, sink));
  }

  async importRows(rows: readonly DumpRow[], schemaVersion: number): Promise<number> {
    const current = await this.schemaVersion();
    if (current !== schemaVersion) throw versionError(schemaVersion, current);
    return this.transaction((tx) => insertPgRows(sessionOf(tx), rows));
  }

  async schemaVersion(): Promise<number> {
    return this.snapshot((s) => currentPgVersion(s.client));
  }

  readonly announcesAppends = true;

  watchCommits(listener: () => void): () => void {
    return this.commits.subscribe(COMMITS_CHANNEL, () => listener());
  }

  watchAppends(table: AnnouncedTable, listener: (seq: number | undefined) => void): () => void {
    return this.commits.subscribe(CHANNELS[table], (payload) => listener(payload === undefined ? undefined : Number(payload)));
  }

  async close(): Promise<void> {
    await this.commits.close();
    if (this.closed) return;
    this.closed = true;
    // Behind every batch already queued; reads in flight finish before the pool ends.
    await this.mutex.run(() => this.pool.end());
  }

  /** Write batches run so far (as SqliteStore's; `durable`: batches that committed a write and waited for its flush). */
  get groupCommitStats(): { readonly batches: number; readonly transactions: number; readonly largest: number; readonly durable: number } {
    return { ...this.queue.stats, durable: this.durable };
  }

  /**
   * One consistent snapshot on a connection of its own, beside the write batches. BEGIN travels
   * with the body's first statement; the caller has its answer once the body read it, and the
   * read-only COMMIT that ends the snapshot runs after, before the connection goes back to the pool.
   */
  private async snapshot<T>(fn: (s: PgSession) => Promise<T>): Promise<T> {
    if (this.closed) throw closedError();
    const client = await this.connect();
    try {
      const begun = pipelined(client, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const result = await fn(new PgSession(client)).then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      );
      // A failed BEGIN is the cause of whatever the body then met.
      const failed = await begun.settled();
      if (failed !== undefined) throw failed;
      if ('error' in result) throw result.error;
      void pipelined(client, 'COMMIT')
        .settled()
        .then((error) => this.release(client, error === undefined ? undefined : toPgStoreError(error)));
      return result.value;
    } catch (error) {
      const mapped = toPgStoreError(error);
      await this.release(client, mapped);
      throw mapped;
    }
  }

  private async runBatch(batch: readonly QueuedWrite<StoreTx>[]): Promise<Outcome[]> {
    let client: PoolClient;
    try {
      client = await this.connect();
    } catch (error) {
      return batch.map(() => ({ ok: false, error }));
    }
    let failure: unknown;
    try {
      const outcomes = await this.runWrites(client, batch);
      failure = outcomes.find((o): o is Outcome & { ok: false } => !o.ok && isConnectionError(o.error))?.error;
      if (outcomes.some((o) => o.ok) && batch.some((write) => !write.flushLater)) this.durable += 1;
      return outcomes;
    } finally {
      await this.release(client, failure);
    }
  }

  /**
   * One batch in one transaction (see the class comment). Control statements are pipelined: BEGIN
   * (with the lock and the first savepoint) and each RELEASE/SAVEPOINT or ROLLBACK TO travel with
   * the next body's first statement, and a failed one is found before that body's outcome counts.
   * A savepoint rolled back to stays in place for the next body. A batch of one has no savepoint.
   */
  private async runWrites(client: PoolClient, batch: readonly QueuedWrite<StoreTx>[]): Promise<Outcome[]> {
    const grouped = batch.length > 1;
    const session = new PgSession(client);
    const tx = pgTx(session);
    const begin = batch.some((write) => !write.flushLater) ? this.begin : this.beginFlushLater;
    let control = pipelined(client, grouped ? `${begin}; SAVEPOINT item` : begin);
    const outcomes: Outcome[] = [];
    for (const [i, write] of batch.entries()) {
      const outcome = await runBody(session, tx, write);
      const lost = await control.settled();
      if (lost !== undefined) {
        // The transaction is gone with everything before this body; the bodies after it never ran.
        const error = toPgStoreError(lost);
        return batch.map((_, j) => (j < i && !outcomes[j]!.ok ? outcomes[j]! : { ok: false, error }));
      }
      outcomes.push(outcome);
      if (!grouped) break;
      if (!outcome.ok) control = pipelined(client, 'ROLLBACK TO SAVEPOINT item');
      else if (i < batch.length - 1) control = pipelined(client, 'RELEASE SAVEPOINT item; SAVEPOINT item');
    }
    const lost = await control.settled();
    if (lost !== undefined) return outcomes.map((o) => (o.ok ? { ok: false, error: toPgStoreError(lost) } : o));
    // Nothing to keep: release() rolls the transaction back.
    if (!outcomes.some((o) => o.ok)) return outcomes;
    try {
      const result = await client.query('COMMIT');
      // COMMIT of an aborted transaction answers ROLLBACK without an error.
      if (result.command !== 'COMMIT') return outcomes.map((o) => (o.ok ? { ok: false, error: new CoworkError('store_failed', 'the transaction was rolled back at COMMIT', {}) } : o));
      return outcomes;
    } catch (error) {
      const mapped = toPgStoreError(error);
      const uncertain = isConnectionError(mapped)
        ? new CoworkError('store_unavailable', `the connection to PostgreSQL was lost during COMMIT: the write may or may not have been saved; re-read before retrying (${(mapped as Error).message})`, { committed: 'unknown' }, { cause: error })
        : mapped;
      return outcomes.map((o) => (o.ok ? { ok: false, error: uncertain } : o));
    }
  }

  private async connect(): Promise<PoolClient> {
    try {
      return await this.pool.connect();
    } catch (error) {
      throw this.closed ? closedError() : toPgStoreError(error);
    }
  }

  /** Back to the pool when idle and healthy; otherwise rolled back or, when the connection is gone, destroyed. */
  private async release(client: PoolClient, failure: unknown): Promise<void> {
    let broken = failure !== undefined && isConnectionError(failure);
    if (!broken && client.getTransactionStatus() !== 'I') {
      await client.query('ROLLBACK').catch(() => (broken = true));
    }
    client.release(broken);
  }
}

/**
 * Sends a statement without waiting for it (the pool's connections pipeline), so that it shares a
 * round trip with what follows; `settled()` gives its error, if any, once it has been answered.
 */
function pipelined(client: PoolClient, sql: string): { settled(): Promise<unknown> } {
  const answered = client.query(sql).then(
    () => undefined,
    (error: unknown) => error,
  );
  return { settled: () => answered };
}

/** Runs one body; a body that caught a database error and went on left the transaction aborted, so it failed. */
async function runBody(session: PgSession, tx: StoreTx, write: QueuedWrite<StoreTx>): Promise<Outcome> {
  const failedBefore = session.failedStatements;
  try {
    const value = await write.fn(tx);
    if (session.failedStatements !== failedBefore) {
      return { ok: false, error: new CoworkError('store_failed', 'a statement of this transaction failed and its error was caught; nothing the transaction wrote is kept', {}) };
    }
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error: toPgStoreError(error) };
  }
}

/**
 * What every write transaction sets on top of the server's settings so that a resolved commit is
 * durable: with `synchronous_commit=off` a COMMIT returns before its WAL is flushed, so it is turned
 * on for these transactions. A server running with `fsync=off` cannot be fixed from here: said once.
 */
async function durabilitySettings(pool: Pool, url: string): Promise<string> {
  const { rows } = await pool.query<{ name: string; setting: string }>("SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit')").catch((error: unknown) => Promise.reject(toPgStoreError(error)));
  const setting = (name: string): string | undefined => rows.find((row) => row.name === name)?.setting;
  if (setting('fsync') === 'off') {
    process.stderr.write(`cowork: ${redactUrl(url)} runs with fsync=off: a crash of its machine can lose acknowledged commits\n`);
  }
  return setting('synchronous_commit') === 'off' ? ' SET LOCAL synchronous_commit = on;' : '';
}

function closedError(): CoworkError {
  return new CoworkError('store_failed', 'the store is closed');
}
