import { randomBytes } from 'node:crypto';
import { AppendFollower } from '../store/append-follower';
import type { Json } from '../store/records';
import type { Store } from '../store/store';
import type { TaskEventRecord } from '../store/task-event-records';
import type { TaskEvent, TaskEvents } from './task-events';

/** How long relayed events are kept for hosts to read; a host further behind than this misses them. */
const RETENTION_MS = 10 * 60_000;
/** How often a relay deletes the events older than that (every host does; deleting nothing is cheap). */
const PRUNE_EVERY_MS = 60_000;
/** Events written per transaction. */
const BATCH = 500;

export interface TaskEventRelayOptions {
  readonly store: Store;
  readonly events: TaskEvents;
  /** This host in the rows it writes (its lease holder id, see leases/holder.ts), for reading the table. */
  readonly hostName: string;
  /** A batch that could not be written (it is dropped: progress, not records), or a failed read. */
  readonly onError: (error: unknown) => void;
  readonly now?: () => number;
}

/**
 * Task events between the hosts of a PostgreSQL workspace, so a live client of a task on one host
 * sees what the host running the task publishes (turns, model and tool calls, Inbox posts,
 * subagents, jobs, approvals). What this host publishes is written to `task_events` in publish
 * order, one transaction per turn of the event loop; its commit announces the last seq
 * (NOTIFY cowork_task_events), and every other host reads the rows after its cursor and hands each
 * to its own clients (see AppendFollower: in order, none skipped). The coordinator's records are
 * not relayed: every host folds them from the log itself (Coordinator.follow), which numbers them.
 */
export class TaskEventRelay {
  /** Unique per relay: two servers on one host id (or in one process) still tell their rows apart. */
  private readonly origin: string;
  private readonly now: () => number;
  private queue: Omit<TaskEventRecord, 'seq'>[] = [];
  private flushing: Promise<void> | undefined;
  private lastPrune = 0;
  private closed = false;
  private readonly stopPublished: () => void;

  private constructor(
    private readonly options: TaskEventRelayOptions,
    private readonly follower: AppendFollower<TaskEventRecord>,
    origin: string,
  ) {
    this.origin = origin;
    this.now = options.now ?? Date.now;
    this.stopPublished = options.events.onPublished((event) => this.enqueue(event));
  }

  /** The relay of a store that announces appends; undefined for one that does not (SQLite: one machine). */
  static async start(options: TaskEventRelayOptions): Promise<TaskEventRelay | undefined> {
    if (!options.store.announcesAppends) return undefined;
    const origin = `${options.hostName}/${randomBytes(4).toString('hex')}`;
    const follower = await AppendFollower.start<TaskEventRecord>(options.store, 'task_events', {
      lastSeq: (tx) => tx.taskEvents.lastSeq(),
      after: (tx, seq, limit) => tx.taskEvents.after(seq, limit),
      onRow: (row) => {
        if (row.origin !== origin) options.events.receive(row.event as unknown as TaskEvent);
      },
      onError: options.onError,
    });
    return new TaskEventRelay(options, follower, origin);
  }

  /** Stops relaying; events already published are written first. */
  async close(): Promise<void> {
    this.closed = true;
    this.stopPublished();
    this.follower.close();
    await this.flushing;
  }

  private enqueue(event: TaskEvent): void {
    if (this.closed || event.type === 'record') return;
    this.queue.push({ origin: this.origin, taskId: event.taskId, event: event as unknown as Json, at: this.now() });
    // setImmediate: the events of one turn of the event loop share a transaction.
    this.flushing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.flush());
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, BATCH);
      const prune = this.now() - this.lastPrune >= PRUNE_EVERY_MS;
      if (prune) this.lastPrune = this.now();
      try {
        await this.options.store.transaction(async (tx) => {
          await tx.taskEvents.append(batch);
          if (prune) await tx.taskEvents.prune(this.now() - RETENTION_MS);
        });
      } catch (error) {
        this.options.onError(error);
      }
    }
    this.flushing = undefined;
  }
}
