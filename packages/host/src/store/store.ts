import type {
  CandidateRecord,
  CandidateStatus,
  DraftRecord,
  EventRecord,
  Json,
  Operator,
  ResourceRecord,
  RevisionRecord,
  SelectionRecord,
} from './records';
import type { CompactionRepo, ConversationRepo, InboxRepo, ModelCallRepo } from './agent-records';
import type { JobRepo } from './job-records';
import type { MonitorRepo } from './monitor-records';
import type { UserRepo } from './user-records';
import type { ApprovalRepo } from './approval-records';
import type { PublicationRepo } from './publication-records';
import type { LastSeenRepo } from './last-seen-records';
import type { RunRepo } from './run-records';
import type { LeaseRepo } from './lease-records';
import type { TaskEventRepo } from './task-event-records';
import type { DumpRow } from './workspace-dump';

/**
 * Everything durable goes through this interface. Callers never see SQL: a PostgreSQL store
 * implements the same repositories and nothing above the store changes.
 *
 * Guarantees every implementation gives:
 * - `transaction(fn)` runs `fn` atomically and in isolation from every other transaction, in this
 *   process and in other processes sharing the workspace; when the returned promise resolves, the
 *   writes are durable (with the SQLite store's default `synchronous=FULL`, they survive power loss),
 *   unless the caller asked for `flush: 'later'` (TransactionOptions).
 * - If `fn` throws, nothing it wrote is kept.
 * - `read(fn)` sees one consistent snapshot.
 */
/** How a write transaction's commit reaches the disk. */
export interface TransactionOptions {
  /**
   * `now` (the default): the promise resolves once the commit is flushed to disk, so it survives a
   * power loss. `later`: it resolves once committed, and the next flushed commit or WAL checkpoint
   * flushes it too (SQLite's `synchronous=NORMAL` for this commit, PostgreSQL's
   * `synchronous_commit=off`). A crash of the process loses nothing; a power loss or a crash of the
   * machine may lose it with the other `later` commits since the last flush, but never part of one,
   * and never a commit flushed after it. For writes that may be lost and done again, such as a turn
   * whose tools changed nothing.
   */
  readonly flush?: 'now' | 'later';
}

export interface Store {
  readonly description: string;
  transaction<T>(fn: (tx: StoreTx) => Promise<T>, options?: TransactionOptions): Promise<T>;
  read<T>(fn: (tx: StoreTx) => Promise<T>): Promise<T>;
  /**
   * A JSON text as the store will hold it, made ready before the transaction that writes it: a
   * small text as it is; a large one (a content or an op of megabytes) written durably now, off the
   * event loop, and replaced by a reference that reads back as the text. Pass the result where a
   * repository takes a `serialized` text.
   */
  keepText(text: string): Promise<string>;
  /**
   * Calls `listener` soon after a write transaction commits, in any process or host on this store
   * (PostgreSQL: LISTEN/NOTIFY); a wake-up, not the data, and none at all on SQLite, so callers
   * keep polling as the fallback. Returns the unsubscribe.
   */
  watchCommits(listener: () => void): () => void;
  /**
   * Whether this store tells its hosts about each other's appends (`watchAppends`): PostgreSQL,
   * which several hosts share. SQLite (one machine) announces nothing.
   */
  readonly announcesAppends: boolean;
  /**
   * Calls `listener` soon after rows were appended to `table` by any host (PostgreSQL: LISTEN/NOTIFY
   * per table): with the newest row's seq, or with none when announcements may have been missed
   * (after connecting again). A wake-up, not the data: read the rows after your own cursor. Never
   * called on SQLite. Returns the unsubscribe.
   */
  watchAppends(table: AnnouncedTable, listener: (seq: number | undefined) => void): () => void;
  /** Problems found by the database's own consistency check; empty when healthy. */
  integrityCheck(): Promise<string[]>;
  /**
   * Every row of every table (see workspace-dump.ts), table by table from one snapshot, each passed
   * to `sink`, large values as their text; returns how many. For moving a workspace to another store.
   */
  exportRows(sink: (row: DumpRow) => void): Promise<number>;
  /** Writes rows another store exported at `schemaVersion` into this one, which must hold none: all or nothing. */
  importRows(rows: readonly DumpRow[], schemaVersion: number): Promise<number>;
  schemaVersion(): Promise<number>;
  close(): Promise<void>;
}

/** The tables whose appends other hosts wait for: the Inbox, the coordinator's log, relayed task events. */
export type AnnouncedTable = 'inbox' | 'events' | 'task_events';

export interface StoreTx {
  readonly resources: ResourceRepo;
  readonly revisions: RevisionRepo;
  readonly candidates: CandidateRepo;
  readonly drafts: DraftRepo;
  readonly selections: SelectionRepo;
  readonly events: EventRepo;
  readonly idempotency: IdempotencyRepo;
  readonly inbox: InboxRepo;
  readonly conversation: ConversationRepo;
  readonly compactions: CompactionRepo;
  readonly modelCalls: ModelCallRepo;
  readonly jobs: JobRepo;
  readonly monitors: MonitorRepo;
  readonly users: UserRepo;
  readonly approvals: ApprovalRepo;
  readonly lastSeen: LastSeenRepo;
  readonly publications: PublicationRepo;
  readonly runs: RunRepo;
  readonly leases: LeaseRepo;
  readonly taskEvents: TaskEventRepo;
}

export interface ResourceRepo {
  /** `storedContent`: the content's text from `Store.keepText` (made from the record when not given). */
  insert(record: ResourceRecord, storedContent?: string): Promise<void>;
  get(id: string): Promise<ResourceRecord | undefined>;
  /** Just the current revision (cheap): lets callers reuse a cached content of that revision. */
  headRevision(id: string): Promise<number | undefined>;
  list(options?: { kind?: string; limit?: number }): Promise<ResourceRecord[]>;
  /**
   * Compare-and-set of the head: writes the new revision and content only if the stored revision is
   * still `expectedRevision`. Returns false, writing nothing, when it is not.
   */
  advanceHead(
    id: string,
    expectedRevision: number,
    next: { revision: number; content: Json; updatedAt: string; serialized?: string },
  ): Promise<boolean>;
}

export interface RevisionQuery {
  /** Only revisions strictly after this one. */
  after?: number;
  /** Only revisions up to and including this one. */
  upTo?: number;
  /** Leave out revisions committed by this operator. */
  excludeOperator?: Operator;
  limit?: number;
}

export interface RevisionRepo {
  /**
   * Records a revision, with a snapshot of the full content after it when `stored.snapshot` (its
   * JSON text) is given. Texts come from `Store.keepText` where they may be large; the op's is
   * made from `record.op` when not given.
   */
  insert(record: RevisionRecord, stored?: { readonly op?: string; readonly snapshot?: string }): Promise<void>;
  list(resourceId: string, query?: RevisionQuery): Promise<RevisionRecord[]>;
  /** The newest stored snapshot at or before `revision`. */
  snapshotAtOrBefore(resourceId: string, revision: number): Promise<{ revision: number; content: Json } | undefined>;
}

export interface CandidateRepo {
  insert(record: CandidateRecord): Promise<void>;
  get(id: string): Promise<CandidateRecord | undefined>;
  list(resourceId: string, status?: CandidateStatus): Promise<CandidateRecord[]>;
  /** Closes an open candidate; returns false when it was no longer open. */
  resolve(
    id: string,
    resolution: { status: Exclude<CandidateStatus, 'open'>; resolvedAt: string; resolvedBy: Operator; acceptedRevision: number | null },
  ): Promise<boolean>;
}

export interface DraftRepo {
  insert(record: DraftRecord): Promise<void>;
  get(id: string): Promise<DraftRecord | undefined>;
  update(id: string, patch: Pick<DraftRecord, 'content' | 'ops' | 'status' | 'updatedAt'>): Promise<void>;
}

export interface SelectionRepo {
  put(record: SelectionRecord): Promise<void>;
  get(resourceId: string, person: Operator): Promise<SelectionRecord | undefined>;
  list(resourceId: string): Promise<SelectionRecord[]>;
}

export interface EventRepo {
  /** Appends one event and returns its sequence number (1, 2, 3, ... with no gaps). */
  append(event: { type: string; at: string; data: Json }): Promise<number>;
  list(afterSeq: number, limit?: number): Promise<EventRecord[]>;
  lastSeq(): Promise<number>;
}

/**
 * Results of side effects keyed by an idempotency key within a scope (see store/idempotency.ts), with
 * a fingerprint of the request that made them.
 */
export interface IdempotencyRepo {
  get(scope: string, key: string): Promise<IdempotencyRecord | undefined>;
  put(record: IdempotencyRecord & { readonly at: string }): Promise<void>;
}

export interface IdempotencyRecord {
  readonly scope: string;
  readonly key: string;
  readonly fingerprint: string;
  readonly result: Json;
}
