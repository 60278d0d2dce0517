import type { RuntimeEvent } from '../agents/runtime';
import type { Coordinator } from '../coordinator/coordinator';
import type { InboxKind } from '../store/agent-records';
import type { Json } from '../store/records';

/**
 * What a live client sees of a task: the runtime's progress events (turns, model calls, tool
 * calls, Inbox deliveries, subagents starting and finishing, task state), each Inbox post, and
 * each durable coordinator record (delegations, assignment updates, messages between agents), and
 * each of the task's jobs starting and ending.
 */
export type TaskEvent =
  | RuntimeEvent
  | { type: 'inbox_posted'; taskId: string; messageId: string; kind: InboxKind; recipient: string }
  | { type: 'record'; taskId: string; seq: number; recordType: string; at: string; data: Json }
  | { type: 'job'; taskId: string; jobId: string; name: string | null; status: string; exitCode: number | null };

export type TaskEventListener = (event: TaskEvent) => void;

/** Per-task fan-out of task events to live clients; one listener's failure does not reach the others. */
export class TaskEvents {
  private readonly listeners = new Map<string, Set<TaskEventListener>>();

  subscribe(taskId: string, listener: TaskEventListener): () => void {
    let set = this.listeners.get(taskId);
    if (!set) this.listeners.set(taskId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(taskId) === set) this.listeners.delete(taskId);
    };
  }

  publish(event: TaskEvent): void {
    for (const listener of this.listeners.get(event.taskId) ?? []) {
      try {
        listener(event);
      } catch {
        // A client's failure is its own; the hub drops that client.
      }
    }
  }

  /** Republishes the coordinator's records under the task they belong to. */
  followCoordinator(coordinator: Coordinator): () => void {
    return coordinator.subscribe((event) => {
      const data = event.data as Record<string, unknown>;
      const assignmentId = typeof data.assignmentId === 'string' ? data.assignmentId : undefined;
      const taskId = typeof data.taskId === 'string' ? data.taskId : assignmentId && coordinator.current.assignments[assignmentId]?.taskId;
      if (!taskId) return;
      this.publish({ type: 'record', taskId, seq: event.seq, recordType: event.type, at: event.at, data: event.data as Json });
    });
  }
}
