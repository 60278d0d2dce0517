import type { CoordinatorState } from '../coordinator/state';
import { TERMINAL } from '../coordinator/state';
import type { InboxRecord } from '../store/agent-records';
import { hostGateContributors, type LiveListers } from './gate-contributors';
import type { HostServices } from './host-services';

/** One reason a task may not end yet. */
export interface GateBlocker {
  readonly kind: 'open_subtask' | 'undelivered_callback' | 'unanswered_user_request' | 'running_job' | 'active_monitor';
  readonly id: string;
  readonly detail: string;
}

/** Other subsystems (jobs, monitors) report what they hold open for a task. */
export type GateContributor = (taskId: string) => Promise<GateBlocker[]>;

/**
 * The completion gate: `finish` is refused while anything the runtime promised is still open.
 * Whether the artifact is good enough stays Main's judgement; this only checks the runtime's books.
 */
export async function gateBlockers(
  taskId: string,
  state: Readonly<CoordinatorState>,
  pendingForMain: readonly InboxRecord[],
  contributors: readonly GateContributor[] = [],
): Promise<GateBlocker[]> {
  const blockers: GateBlocker[] = [];
  for (const id of state.tasks[taskId]?.assignmentIds ?? []) {
    const assignment = state.assignments[id]!;
    if (!TERMINAL.has(assignment.status)) {
      blockers.push({ kind: 'open_subtask', id, detail: `${assignment.agentId} is ${assignment.status}: ${assignment.assignment.slice(0, 80)}` });
    }
  }
  for (const message of pendingForMain) {
    const body = typeof message.body === 'string' ? message.body : JSON.stringify(message.body);
    blockers.push(
      message.kind === 'user'
        ? { kind: 'unanswered_user_request', id: message.messageId, detail: body.slice(0, 120) }
        : { kind: 'undelivered_callback', id: message.messageId, detail: `${message.kind} from ${message.sender}` },
    );
  }
  for (const contributor of contributors) blockers.push(...(await contributor(taskId)));
  return blockers;
}

/** What a caller may have read for the gate already (Main's projection reads it with the rest it needs). */
export interface GateSources {
  /** Lists the task's running jobs and active monitors (the host's services when absent). */
  readonly listers?: LiveListers;
  /** Main's undelivered Inbox messages (read from the store when absent). */
  readonly pendingForMain?: readonly InboxRecord[];
}

/**
 * A task's gate as the durable records have it now (this process's and others'): the one place it
 * is computed, for the runtime's `finish`, the task views of the server and the CLI, and Main's
 * context. Running jobs and active monitors always hold it open; `extra` adds a caller's own.
 */
export async function taskGate(host: HostServices, taskId: string, extra: readonly GateContributor[] = [], sources: GateSources = {}): Promise<GateBlocker[]> {
  await host.coordinator.refresh();
  const pendingForMain = sources.pendingForMain ?? (await host.store.read((tx) => tx.inbox.pending(taskId, 'main')));
  return gateBlockers(taskId, host.coordinator.current, pendingForMain, [...extra, ...hostGateContributors(sources.listers ?? host)]);
}
