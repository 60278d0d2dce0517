import { AgentRuntime } from '../../agents/runtime';
import type { Lifecycle } from '../../coordinator/state';
import { CoworkError } from '../../errors';
import type { ModelProvider } from '../../models';
import { leaf } from '../command';
import { describeTaskView, firstLine, readTaskView } from '../task-view';

/**
 * `cowork tasks` and `cowork task TASK`: what the durable records say about tasks, read without a
 * model and without running anything. A task shown as `running` with no `cowork run` alive was
 * stopped (Ctrl-C, a crash); `cowork run --resume TASK` continues it.
 */

/** One row of `cowork tasks`. */
export interface TaskRow {
  readonly taskId: string;
  readonly status: Lifecycle;
  readonly waitingReason: string | null;
  /** The first line of the request. */
  readonly request: string;
  readonly createdAt: string;
  readonly assignments: number;
}

/**
 * The provider of a runtime that only reads (the completion gate): reading needs no model, and a
 * call would mean a bug, so it fails the way an unconfigured host does.
 */
export const READ_ONLY_NO_MODEL_PROVIDER: ModelProvider = {
  name: 'none (read-only)',
  maxContextTokens: 0,
  complete: () => Promise.reject(new CoworkError('model_not_configured', 'this command only reads tasks and calls no model')),
};

export const tasksCommand = leaf({
  summary: 'list tasks, oldest first: id, status, request, created, number of assignments',
  positionals: [],
  options: {},
  async run(_args, { out, withHost }) {
    const tasks = await withHost(async (host): Promise<TaskRow[]> => {
      await host.coordinator.refresh();
      return Object.values(host.coordinator.current.tasks)
        .map((t) => ({
          taskId: t.id,
          status: t.status,
          waitingReason: t.waitingReason,
          request: firstLine(t.request, 60),
          createdAt: t.createdAt,
          assignments: t.assignmentIds.length,
        }))
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.taskId.localeCompare(b.taskId));
    });
    out.result({ tasks }, ({ tasks }) => (tasks.length === 0 ? ['no tasks'] : tasks.map(describeRow)));
  },
});

export const taskCommand = leaf({
  summary: "show a task: status and why it waits, request, assignments, undelivered Inbox messages, the completion gate, tokens",
  details: ['', 'Exit codes: 0 shown, 4 no such task (not_found).'],
  positionals: ['TASK'],
  options: {},
  async run(args, { out, withHost }) {
    const taskId = args.positional('TASK');
    const view = await withHost(async (host) => {
      const runtime = new AgentRuntime({ host, provider: READ_ONLY_NO_MODEL_PROVIDER });
      try {
        return await readTaskView(host, taskId, (id) => runtime.gate(id));
      } finally {
        await runtime.close();
      }
    });
    out.result(view, describeTaskView);
  },
});

function describeRow(row: TaskRow): string {
  const status = row.status === 'waiting' && row.waitingReason !== null ? `waiting (${firstLine(row.waitingReason, 40)})` : row.status;
  const assignments = `${row.assignments} assignment${row.assignments === 1 ? '' : 's'}`;
  return `${row.taskId}  ${status}  ${row.createdAt}  ${assignments}  "${row.request}"`;
}
