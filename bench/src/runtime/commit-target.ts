/** The two implementations compared side by side. */
export type Implementation = 'protocol' | 'raw';

/** SQLite's `synchronous` pragma: `FULL` fsyncs the WAL on every commit, `NORMAL` only at checkpoints. */
export type SyncMode = 'FULL' | 'NORMAL';

/** The outcome of one compare-and-set attempt. */
export type CommitAttempt =
  | { readonly ok: true; readonly revision: number }
  | { readonly ok: false; readonly currentRevision: number };

/**
 * Something writers commit to: text documents, each at a revision. Each attempt appends one
 * character to a document if `baseRevision` is still its current revision, and otherwise reports
 * where the document is now. Every failure other than a revision conflict throws, so it ends the
 * run instead of being counted.
 */
export interface CommitTarget {
  /** May return synchronously: the raw loop does, and awaiting it still yields to other writers. */
  tryCommit(documentId: string, baseRevision: number, writer: string): CommitAttempt | Promise<CommitAttempt>;
  close(): Promise<void>;
}

/** Where a target lives: enough for another thread to open its own connection to it. */
export interface TargetSpec {
  readonly implementation: Implementation;
  readonly sync: SyncMode;
  readonly dir: string;
  /** Every document starts empty at revision 0. */
  readonly documentIds: readonly string[];
}
