import type { AssignmentState, TaskState } from '../coordinator/state';
import { CoworkError } from '../errors';
import type { ConversationRecord, InboxRecord } from '../store/agent-records';
import type { JobRecord } from '../store/job-records';
import type { MonitorRecord } from '../store/monitor-records';
import { taskGate, type GateBlocker, type GateContributor } from './completion-gate';
import type { HostServices } from './host-services';

/**
 * A task as its durable records have it: the coordinator's state, the Inbox, the conversation logs,
 * the token ledger, its jobs and monitors, and the completion gate. Read without a model and without
 * running anything, so the server, the CLI and any other edge show the same task, including tasks
 * another process on the workspace runs.
 */
export interface TaskView {
  readonly task: TaskState;
  readonly assignments: readonly AssignmentView[];
  /** Inbox messages not yet delivered, for Main and for subagents. */
  readonly inbox: readonly InboxRecord[];
  /** Jobs the task's agents started, oldest first, with their reconciled status. */
  readonly jobs: readonly JobRecord[];
  /** The task's monitors and timers. */
  readonly monitors: readonly MonitorRecord[];
  /** Why `finish` would be refused now; empty when nothing is open. */
  readonly gate: readonly GateBlocker[];
  /** Main's turns so far. */
  readonly turns: number;
  readonly tokens: TokenTotals;
}

export interface AssignmentView {
  readonly state: AssignmentState;
  readonly turns: number;
  readonly tokens: TokenTotals;
  /** The subagent's own result status (`done`, `timeout`, `budget_exhausted`, ...) once it ended. */
  readonly resultStatus: string | null;
}

export interface TokenTotals {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** A task's view; `not_found` when there is none. `gate` adds contributors beyond the host's own. */
export async function readTaskView(host: HostServices, taskId: string, options: { gate?: readonly GateContributor[] } = {}): Promise<TaskView> {
  const task = await currentTask(host, taskId);
  const state = host.coordinator.current;
  const assignments = await Promise.all(task.assignmentIds.map((id) => readAssignment(host, state.assignments[id]!)));
  const { inbox, turns, tokens } = await host.store.read(async (tx) => ({
    inbox: await tx.inbox.pending(taskId),
    turns: (await tx.conversation.last(taskId, 'main'))?.turn ?? 0,
    tokens: await tx.modelCalls.totals(taskId),
  }));
  const [jobs, monitors, gate] = await Promise.all([host.jobs.list({ taskId }), host.monitors.list({ taskId }), taskGate(host, taskId, options.gate)]);
  return { task, assignments, inbox, jobs, monitors, gate, turns, tokens: { inputTokens: tokens.inputTokens, outputTokens: tokens.outputTokens } };
}

/** Every task of the workspace, oldest first. */
export async function listTasks(host: HostServices): Promise<TaskState[]> {
  await host.coordinator.refresh();
  return Object.values(host.coordinator.current.tasks).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

/** One agent's conversation log (Main's by default), oldest first, after `afterSeq`. */
export async function taskLog(host: HostServices, taskId: string, agentId: string, afterSeq?: number): Promise<ConversationRecord[]> {
  await currentTask(host, taskId);
  return host.store.read((tx) => tx.conversation.list(taskId, agentId, afterSeq));
}

/** A task as the log has it now (other processes' records included); `not_found` when there is none. */
export async function currentTask(host: HostServices, taskId: string): Promise<TaskState> {
  await host.coordinator.refresh();
  const task = host.coordinator.current.tasks[taskId];
  if (!task) throw new CoworkError('not_found', `no task ${JSON.stringify(taskId)}; the task list (GET /api/tasks, \`cowork tasks\`) shows them`, { taskId });
  return task;
}

async function readAssignment(host: HostServices, state: AssignmentState): Promise<AssignmentView> {
  const { turns, tokens } = await host.store.read(async (tx) => ({
    turns: (await tx.conversation.last(state.taskId, state.agentId))?.turn ?? 0,
    tokens: await tx.modelCalls.totals(state.taskId, state.agentId),
  }));
  return { state, turns, tokens: { inputTokens: tokens.inputTokens, outputTokens: tokens.outputTokens }, resultStatus: resultStatusOf(state) };
}

function resultStatusOf(a: AssignmentState): string | null {
  const result = a.result;
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return null;
  return typeof result.status === 'string' ? result.status : null;
}
