import { gateBlockers, type GateBlocker } from '../agents/completion-gate';
import { hostGateContributors } from '../agents/gate-contributors';
import type { AssignmentState, TaskState } from '../coordinator/state';
import { CoworkError } from '../errors';
import type { Host } from '../host';
import type { ConversationRecord, InboxRecord } from '../store/agent-records';
import type { JobRecord } from '../store/job-records';
import type { MonitorRecord } from '../store/monitor-records';
import type { TaskRunner } from './task-runner';

/**
 * Read-only views of tasks for the API. They read the durable records (the coordinator's fold,
 * the Inbox, the conversation log), so they work without a model and see tasks run by other
 * processes on the same workspace.
 */

export interface TaskView {
  readonly task: TaskState;
  /** Whether this server is running the task's Main loop right now. */
  readonly running: boolean;
  readonly assignments: AssignmentState[];
  /** Inbox messages not yet consumed, for Main and for subagents. */
  readonly inbox: InboxRecord[];
  /** Jobs the task's agents started, oldest first, with their reconciled status. */
  readonly jobs: JobRecord[];
  /** The task's monitors and timers. */
  readonly monitors: MonitorRecord[];
  /** Why the task may not finish yet; empty when `finish` would be accepted. */
  readonly gate: GateBlocker[];
}

export async function listTasks(host: Host): Promise<TaskState[]> {
  await host.coordinator.refresh();
  return Object.values(host.coordinator.current.tasks).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

export async function taskView(host: Host, runner: TaskRunner, taskId: string): Promise<TaskView> {
  const task = await currentTask(host, taskId);
  const state = host.coordinator.current;
  const inbox = await host.store.read((tx) => tx.inbox.pending(taskId));
  const [jobs, monitors] = await Promise.all([host.jobs.list({ taskId }), host.monitors.list({ taskId })]);
  // Without a runtime (no model), the same gate the runtime would apply, from the same records.
  const gate = runner.runtime
    ? await runner.runtime.gate(taskId)
    : await gateBlockers(taskId, state, inbox.filter((m) => m.recipient === 'main'), hostGateContributors(host));
  return {
    task,
    running: runner.isRunning(taskId),
    assignments: task.assignmentIds.map((id) => state.assignments[id]!),
    inbox,
    jobs,
    monitors,
    gate,
  };
}

/** One agent's conversation log (Main's by default), oldest first, after `afterSeq`. */
export async function taskLog(host: Host, taskId: string, agentId: string, afterSeq?: number): Promise<ConversationRecord[]> {
  await currentTask(host, taskId);
  return host.store.read((tx) => tx.conversation.list(taskId, agentId, afterSeq));
}

/** A task as the log has it now (other processes' records included); `not_found` when there is none. */
export async function currentTask(host: Host, taskId: string): Promise<TaskState> {
  await host.coordinator.refresh();
  const task = host.coordinator.current.tasks[taskId];
  if (!task) throw new CoworkError('not_found', `no task ${JSON.stringify(taskId)}`, { taskId });
  return task;
}
