import type { Lifecycle } from '../../coordinator/state';
import { listTasks } from '../../agents/task-view';
import { CoworkError } from '../../errors';
import { leaf, type CliContext, type LeafArgs } from '../command';
import { defaultOperator, operatorOption, parseRevisionOption } from '../values';
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
  details: [
    '',
    '`cowork task TASK files` lists the files of its work/ folder and the snapshots (one per agent turn that',
    'changed files, others\' changes, restores); --diff N shows turn N\'s patch; --restore PATH --turn N',
    'brings PATH back as it was after turn N, as a new commit (by --operator).',
    '',
    'Exit codes: 0 shown, 2 bad input (invalid_input), 4 no such task, turn or file (not_found).',
  ],
  positionals: ['TASK'],
  rest: 'files',
  options: {
    diff: { value: 'TURN', description: 'with files: the patch of this turn\'s snapshot' },
    restore: { value: 'PATH', description: 'with files and --turn: restore this file of work/ as it was after the turn' },
    turn: { value: 'N', description: 'with --restore: the turn whose snapshot to restore from' },
    agent: { value: 'ID', description: "with --diff or --restore: whose turn (default main)" },
    operator: { value: 'OP', description: 'with --restore: who restores (default human:$USER, or human:cli)' },
  },
  async run(args, { out, io, withHost }) {
    const taskId = args.positional('TASK');
    const rest = args.rest();
    if (rest.length > 0) return taskFiles(taskId, rest, args, { out, io, withHost });
    for (const name of ['diff', 'restore', 'turn', 'agent', 'operator']) {
      if (args.option(name) !== undefined) throw new CoworkError('invalid_input', `--${name} goes with \`cowork task TASK files\``, { field: name });
    }
    const view = await withHost((host) => readTaskView(host, taskId));
    out.result(view, describeTaskView);
  },
});

async function taskFiles(taskId: string, rest: readonly string[], args: LeafArgs, { out, io, withHost }: Pick<CliContext, 'out' | 'io' | 'withHost'>): Promise<void> {
  if (rest.length !== 1 || rest[0] !== 'files') throw new CoworkError('invalid_input', `unknown part of a task ${JSON.stringify(rest.join(' '))}; did you mean \`files\`?`, { field: 'files' });
  const diff = args.option('diff');
  const restore = args.option('restore');
  const turnText = args.option('turn');
  const agent = args.option('agent');
  if (diff !== undefined && restore !== undefined) throw new CoworkError('invalid_input', 'give --diff or --restore, not both', { field: 'diff' });
  if (restore !== undefined) {
    if (turnText === undefined) throw new CoworkError('invalid_input', '--restore needs --turn N', { field: 'turn' });
    const turn = parseRevisionOption('turn', turnText);
    const given = args.option('operator');
    const operator = given === undefined ? defaultOperator(io) : operatorOption(given);
    const restored = await withHost((host) => host.workHistory.restore(taskId, restore, turn, operator, agent));
    out.result({ taskId, ...restored }, (r) => [`restored work/${r.path} from turn ${r.turn} as commit ${r.commit.slice(0, 12)}`]);
    return;
  }
  if (diff !== undefined) {
    const turn = parseRevisionOption('diff', diff);
    const shown = await withHost((host) => host.workHistory.diff(taskId, turn, agent));
    out.result({ taskId, ...shown }, (d) => [`${d.commit.slice(0, 12)}  ${d.author}  ${d.at}  ${d.message}`, ...d.patch.replace(/\n$/, '').split('\n')]);
    return;
  }
  if (turnText !== undefined) throw new CoworkError('invalid_input', '--turn goes with --restore', { field: 'turn' });
  const { files, snapshots } = await withHost(async (host) => ({ files: await host.workHistory.files(taskId), snapshots: await host.workHistory.log(taskId) }));
  out.result({ taskId, files, snapshots }, ({ files, snapshots }) => [
    files.length === 0 ? 'no files in work/' : 'files:',
    ...files.map((f) => `  ${f.path}  ${f.large ? `large, ${f.large.size} bytes, sha256 ${f.large.sha256}` : `${f.commit?.slice(0, 12) ?? '-'}  ${f.author ?? '-'}${f.turn !== null ? `  turn ${f.turn}` : ''}`}`),
    'snapshots (newest first):',
    ...snapshots.map((s) => `  ${s.commit.slice(0, 12)}  ${s.at}  ${s.author}  ${s.message}${s.files.length > 0 ? `  [${s.files.join(', ')}]` : ''}`),
  ]);
}

function describeRow(row: TaskRow): string {
  const status = row.status === 'waiting' && row.waitingReason !== null ? `waiting (${firstLine(row.waitingReason, 40)})` : row.status;
  const assignments = `${row.assignments} assignment${row.assignments === 1 ? '' : 's'}`;
  return `${row.taskId}  ${status}  ${row.createdAt}  ${assignments}  "${row.request}"`;
}
