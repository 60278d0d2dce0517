import type { Json } from './records';

/**
 * A task event one host relays to the others (see server/task-event-relay.ts): the progress a live
 * client of the task sees (turns, tool calls, Inbox posts, jobs), which is not otherwise in the
 * store. Transient: kept a few minutes for hosts to read, then pruned; not part of a workspace dump.
 */
export interface TaskEventRecord {
  /** Increasing in commit order (rows are written under the store's write lock). */
  readonly seq: number;
  /** The relay that wrote it, so that it skips its own. */
  readonly origin: string;
  readonly taskId: string;
  readonly event: Json;
  /** When it was written, ms since the epoch (for pruning). */
  readonly at: number;
}

export interface TaskEventRepo {
  /** Appends the events in the order given; returns the seq of the last (0 when none). */
  append(events: readonly Omit<TaskEventRecord, 'seq'>[]): Promise<number>;
  /** Events with seq above `afterSeq`, oldest first. */
  after(afterSeq: number, limit: number): Promise<TaskEventRecord[]>;
  lastSeq(): Promise<number>;
  /** Deletes the events written before `beforeMs`; returns how many. */
  prune(beforeMs: number): Promise<number>;
}
