import type { Lifecycle } from '../../coordinator/state';
import { runView, type MetricSummary, type RunStatus } from '../../agents/runs';
import { currentTask, listTasks } from '../../agents/task-view';
import { CoworkError } from '../../errors';
import { checkOperator } from '../../resources/input-checks';
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
    '`cowork task TASK runs` lists its runs, newest first: id, name, status, started, and up to four metrics',
    'with their last and best values; `cowork task TASK runs RUN` shows one run: params, goal, jobs, every',
    'metric (last and best, with steps), artifacts and bad metrics lines.',
    '',
    'Exit codes: 0 shown, 2 bad input (invalid_input), 4 no such task, run, turn or file (not_found).',
  ],
  positionals: ['TASK'],
  rest: 'files | runs [RUN]',
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
    if (rest[0] === 'runs') {
      refuseFileOptions(args);
      return taskRuns(taskId, rest, { out, withHost });
    }
    if (rest.length > 0) return taskFiles(taskId, rest, args, { out, io, withHost });
    refuseFileOptions(args);
    const view = await withHost((host) => readTaskView(host, taskId));
    out.result(view, describeTaskView);
  },
});

async function taskFiles(taskId: string, rest: readonly string[], args: LeafArgs, { out, io, withHost }: Pick<CliContext, 'out' | 'io' | 'withHost'>): Promise<void> {
  if (rest.length !== 1 || rest[0] !== 'files') throw new CoworkError('invalid_input', `unknown part of a task ${JSON.stringify(rest.join(' '))}; did you mean \`files\` or \`runs [RUN]\`?`, { field: 'files' });
  const diff = args.option('diff');
  const restore = args.option('restore');
  const turnText = args.option('turn');
  const agent = args.option('agent');
  if (diff !== undefined && restore !== undefined) throw new CoworkError('invalid_input', 'give --diff or --restore, not both', { field: 'diff' });
  if (restore !== undefined) {
    if (turnText === undefined) throw new CoworkError('invalid_input', '--restore needs --turn N', { field: 'turn' });
    const turn = parseRevisionOption('turn', turnText);
    const given = args.option('operator');
    // Checked here as every other write checks it: the work history takes the author as given.
    const operator = checkOperator(given === undefined ? defaultOperator(io) : operatorOption(given));
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

function refuseFileOptions(args: LeafArgs): void {
  for (const name of ['diff', 'restore', 'turn', 'agent', 'operator']) {
    if (args.option(name) !== undefined) throw new CoworkError('invalid_input', `--${name} goes with \`cowork task TASK files\``, { field: name });
  }
}

/** `cowork task TASK runs [RUN]`: the task's runs newest first, or one run with all its metrics. */
async function taskRuns(taskId: string, rest: readonly string[], { out, withHost }: Pick<CliContext, 'out' | 'withHost'>): Promise<void> {
  if (rest.length > 2) throw new CoworkError('invalid_input', `\`cowork task TASK runs\` takes at most one run id, got ${JSON.stringify(rest.slice(1).join(' '))}`, { field: 'runs' });
  const runId = rest[1];
  if (runId !== undefined) {
    const run = await withHost(async (host) => {
      await currentTask(host, taskId);
      return runView(await host.runs.get(taskId, runId)) as unknown as RunView;
    });
    out.result(run, describeRun);
    return;
  }
  const runs = await withHost(async (host) => {
    await currentTask(host, taskId);
    return (await host.runs.list(taskId)).map((r) => runView(r) as unknown as RunView);
  });
  out.result({ taskId, runs }, ({ runs }) => (runs.length === 0 ? ['no runs'] : runs.map(describeRunRow)));
}

/** What `runView` gives, as the CLI reads it. */
export interface RunView {
  readonly id: string;
  readonly taskId: string;
  readonly name: string;
  readonly status: RunStatus;
  readonly params: Record<string, unknown>;
  readonly goal: { readonly metric: string; readonly direction: string } | null;
  readonly jobIds: string[];
  readonly startedAt: string;
  readonly endedAt: string | null;
  readonly metrics: Record<string, MetricSummary>;
  readonly artifacts: string[];
  readonly problems: { jobId: string; file: string; line: number; reason: string }[];
  readonly problemCount: number;
}

/** Metrics shown on a run's row of the list. */
const ROW_METRICS = 4;

function describeRunRow(run: RunView): string {
  // The goal's metric first, then the others by name.
  const names = Object.keys(run.metrics).sort((a, b) => (a === run.goal?.metric ? -1 : b === run.goal?.metric ? 1 : a < b ? -1 : a > b ? 1 : 0));
  const shown = names.slice(0, ROW_METRICS).map((name) => {
    const m = run.metrics[name]!;
    return `${name} ${m.last} (best ${m.best})`;
  });
  const more = names.length > ROW_METRICS ? `, … ${names.length - ROW_METRICS} more` : '';
  const metrics = shown.length === 0 ? 'no metrics' : `${shown.join(', ')}${more}`;
  return `${run.id}  "${firstLine(run.name, 60)}"  ${run.status}  started ${run.startedAt}  ${metrics}`;
}

function describeRun(run: RunView): string[] {
  const step = (s: number | null): string => (s === null ? '' : ` @${s}`);
  const names = Object.keys(run.metrics).sort();
  return [
    `${run.id}  "${run.name}"  ${run.status}`,
    `started ${run.startedAt}${run.endedAt === null ? '' : `, ended ${run.endedAt}`}`,
    `jobs: ${run.jobIds.length === 0 ? 'none' : run.jobIds.join(', ')}`,
    `params: ${JSON.stringify(run.params)}`,
    ...(run.goal ? [`goal: ${run.goal.metric} (${run.goal.direction})`] : []),
    names.length === 0 ? 'metrics: none yet' : 'metrics:',
    ...names.map((name) => {
      const m = run.metrics[name]!;
      return `  ${name}  last ${m.last}${step(m.lastStep)}  best ${m.best}${step(m.bestStep)}  (${m.direction}, ${m.count} point${m.count === 1 ? '' : 's'})`;
    }),
    ...(run.artifacts.length > 0 ? [`artifacts: ${run.artifacts.join(', ')}`] : []),
    ...(run.problemCount > 0
      ? [`bad metrics lines: ${run.problemCount}${run.problemCount > run.problems.length ? ` (first ${run.problems.length} shown)` : ''}`, ...run.problems.map((p) => `  ${p.file} line ${p.line} (${p.jobId}): ${p.reason}`)]
      : []),
  ];
}

function describeRow(row: TaskRow): string {
  const status = row.status === 'waiting' && row.waitingReason !== null ? `waiting (${firstLine(row.waitingReason, 40)})` : row.status;
  const assignments = `${row.assignments} assignment${row.assignments === 1 ? '' : 's'}`;
  return `${row.taskId}  ${status}  ${row.createdAt}  ${assignments}  "${row.request}"`;
}
