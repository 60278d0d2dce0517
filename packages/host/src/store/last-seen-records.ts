/**
 * What each agent last saw of each resource: the revision its last read showed it. A read that
 * names no `sinceRevision` lists the changes by others after this revision, and records the
 * revision it showed. Keyed by task and agent id: subagents' ids are unique within a task, and
 * Main is `main` in every task.
 */
export interface LastSeenRecord {
  readonly taskId: string;
  readonly agentId: string;
  readonly resourceId: string;
  /** The newest revision the agent has seen (read, or committed itself). */
  readonly revision: number;
  /**
   * The tool call (its idempotency key) that last moved `revision`, and the revision before it: a
   * call run again after a crash (its result never reached the conversation) reads from
   * `previousRevision` and so shows the same changes again instead of none.
   */
  readonly callKey: string | null;
  readonly previousRevision: number | null;
  readonly seenAt: string;
}

export interface LastSeenRepo {
  get(taskId: string, agentId: string, resourceId: string): Promise<LastSeenRecord | undefined>;
  /** Writes the record as given (callers keep `revision` from moving back). */
  put(record: LastSeenRecord): Promise<void>;
  list(taskId: string, agentId: string): Promise<LastSeenRecord[]>;
}
