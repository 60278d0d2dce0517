import type { Lifecycle } from '../../coordinator/state';
import { listTasks } from '../../agents/task-view';
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

export const tasksCommand = leaf({
  summary: 'list tasks, oldest first: id, status, request, created, number of assignments',
  positionals: [],
  options: {},
  async run(_args, { out, withHost }) {
    const tasks = await withHost(async (host): Promise<TaskRow[]> =>
      (await listTasks(host)).map((t) => ({
        taskId: t.id,
        status: t.status,
        waitingReason: t.waitingReason,
        request: firstLine(t.request, 60),
        createdAt: t.createdAt,
        assignments: t.assignmentIds.length,
      })),
    );
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
    const view = await withHost((host) => readTaskView(host, taskId));
    out.result(view, describeTaskView);
  },
});

function describeRow(row: TaskRow): string {
  const status = row.status === 'waiting' && row.waitingReason !== null ? `waiting (${firstLine(row.waitingReason, 40)})` : row.status;
  const assignments = `${row.assignments} assignment${row.assignments === 1 ? '' : 's'}`;
  return `${row.taskId}  ${status}  ${row.createdAt}  ${assignments}  "${row.request}"`;
}
