import type { RuntimeEvent } from '../agents/runtime';
import type { Coordinator } from '../coordinator/coordinator';
import type { McpProgressEvent } from '../mcp-client/servers';
import type { InboxKind } from '../store/agent-records';
import type { Json } from '../store/records';
import { Emitter } from '../util/emitter';

/**
 * What a live client sees of a task: the runtime's progress events (turns, model calls, tool
 * calls, Inbox deliveries, subagents starting and finishing, task state), each Inbox post, and
 * each durable coordinator record (delegations, assignment updates, messages between agents), and
 * each of the task's jobs starting and ending, each approval asked for or decided, each result published, and the progress of its mounted MCP servers' tool calls.
 */
export type TaskEvent =
  | RuntimeEvent
  | { type: 'inbox_posted'; taskId: string; messageId: string; kind: InboxKind; recipient: string }
  | { type: 'record'; taskId: string; seq: number; recordType: string; at: string; data: Json }
  | { type: 'job'; taskId: string; jobId: string; name: string | null; status: string; exitCode: number | null }
  | { type: 'approval'; taskId: string; approval: Json }
  | { type: 'published'; taskId: string; publication: Json }
  | McpProgressEvent;

export type TaskEventListener = (event: TaskEvent) => void;

/**
 * Per-task fan-out of task events to live clients; one listener's failure does not reach the others.
 * What this host publishes also goes to `onPublished` (the relay to other hosts, task-event-relay.ts);
 * what another host published arrives through `receive`, to this host's clients only.
 */
export class TaskEvents {
  private readonly byTask = new Map<string, Emitter<TaskEvent>>();
  private readonly published = new Emitter<TaskEvent>();

  subscribe(taskId: string, listener: TaskEventListener): () => void {
    let emitter = this.byTask.get(taskId);
    if (!emitter) this.byTask.set(taskId, (emitter = new Emitter()));
    const unsubscribe = emitter.subscribe(listener);
    return () => {
      unsubscribe();
      if (emitter.empty && this.byTask.get(taskId) === emitter) this.byTask.delete(taskId);
    };
  }

  /** An event of this host, to the task's listeners; a client's failure is its own (the hub drops that client). */
  publish(event: TaskEvent): void {
    this.byTask.get(event.taskId)?.emit(event);
    this.published.emit(event);
  }

  /** An event another host published: to this host's listeners of the task, not relayed again. */
  receive(event: TaskEvent): void {
    this.byTask.get(event.taskId)?.emit(event);
  }

  /** Every event this host publishes, whoever listens to its task here. */
  onPublished(listener: TaskEventListener): () => void {
    return this.published.subscribe(listener);
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
