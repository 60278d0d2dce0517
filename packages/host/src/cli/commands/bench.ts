import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CoworkError } from '../../errors';
import type { ResultsFile } from '../../evaluation/results-format';
import type { SuiteRunOptions } from '../../evaluation/runner';
import type { TrialModel } from '../../evaluation/trial';
import type { ModelProvider } from '../../models/types';
import { modelConfigFromEnv } from '../../models';
import type { TextModel } from '../../plugins/suite';
import { group, leaf, type CliContext, type LeafArgs } from '../command';
import { modelOverrides, providerOrExit } from './run';
import { defaultOperator, operatorOption } from '../values';

/*
 * The evaluation modules (the runner, the suites and their plugins, the report page) load when a
 * bench command runs, not when the CLI starts.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const pairwise = (): typeof import('../../evaluation/pairwise') => require('../../evaluation/pairwise');
const metrics = (): typeof import('../../evaluation/metrics') => require('../../evaluation/metrics');
const reportPage = (): typeof import('../../evaluation/report-html') => require('../../evaluation/report-html');
const resultsFormat = (): typeof import('../../evaluation/results-format') => require('../../evaluation/results-format');
const resultsTable = (): typeof import('../../evaluation/results-table') => require('../../evaluation/results-table');
const runner = (): typeof import('../../evaluation/runner') => require('../../evaluation/runner');
const suiteRunRecord = (): typeof import('../../evaluation/suite-run-record') => require('../../evaluation/suite-run-record');
const runs = (): typeof import('../../agents/runs') => require('../../agents/runs');
const suites = (): typeof import('../../evaluation/suites') => require('../../evaluation/suites');
const taskFile = (): typeof import('../../evaluation/task-file') => require('../../evaluation/task-file');
const benchRoutes = (): typeof import('../../server/routes/bench') => require('../../server/routes/bench');
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * `cowork bench`: benchmark suites of tasks run as real host tasks and scored by deterministic
 * checks (see evaluation/). `list` shows the suites, `run` runs one against the configured model
 * or against session scripts, `report` prints and renders a run's results.
 */

const listCommand = leaf({
  summary: 'list the benchmark suites (the host runtime suite and those of the loaded plugins) with their tasks',
  positionals: [],
  options: { data: { value: 'DIR', description: "a suite's data folder, for suites read from a public benchmark's data" } },
  async run(args, context) {
    const available = await suites().availableSuites({ pluginModules: context.pluginModules, resolveFrom: context.io.cwd });
    const rows = [];
    for (const { plugin, suite } of available) {
      const tasks = await taskFile().loadSuiteTasks(suite, { data: args.option('data') }).catch((error: unknown) => error as Error);
      rows.push({
        suite: suite.name,
        plugin,
        description: suite.description,
        ...(tasks instanceof Error ? { problem: tasks.message } : { dev: tasks.filter((t) => t.split === 'dev').length, heldout: tasks.filter((t) => t.split === 'heldout').length }),
      });
    }
    context.out.result({ suites: rows }, ({ suites: list }) =>
      list.map((r) => ('problem' in r ? `${r.suite.padEnd(16)} (${r.plugin})  cannot list its tasks: ${r.problem}` : `${r.suite.padEnd(16)} (${r.plugin})  ${r.dev} dev, ${r.heldout} heldout  ${r.description}`)),
    );
  },
});

const runSuiteCommand = leaf({
  summary: 'run a suite: each task as a real host task in a fresh workspace, scored by its rubric; results in --out',
  details: [
    '',
    'The model is the configured OpenAI-compatible server (COWORK_MODEL_BASE_URL, COWORK_MODEL), or --replay DIR:',
    "session scripts (<task>.json) played back with no model server, such as a suite's solutions/reference. --record",
    'writes the run as scripts (in --out/scripts) that replay it. Every trial leaves a run record in --out/records and',
    'updates --out/results.json; a stopped run goes on with --resume. A trial that fails (a crash, the model, a',
    'script that does not fit, a check that throws) is recorded as invalid with its reason, and the run goes on.',
    '--task TASK also records the finished suite run as a run of that task of the workspace (cowork task TASK runs,',
    "Main's runs digest): each trial a step with its score and pass, then all_pass (%), mean_score and invalid.",
  ],
  positionals: ['SUITE'],
  options: {
    tasks: { value: 'a,b', description: 'only these tasks' },
    trials: { value: 'K', description: 'trials of each task (default 1)' },
    split: { value: 'dev|heldout|all', description: 'which tasks (default all)' },
    replay: { value: 'DIR', description: 'play session scripts from DIR instead of asking a model' },
    record: { description: 'with a model: write each task\'s first trial as a session script' },
    out: { value: 'DIR', description: 'where results.json and records/ go (default <workspace>/bench-runs/<suite>-<time>, served by cowork serve)' },
    resume: { description: 'go on with the run in --out: keep its trials, run the missing ones' },
    data: { value: 'DIR', description: "a suite's data folder (a public benchmark's data)" },
    html: { value: 'FILE', description: 'also write the HTML report there' },
    'model-base-url': { value: 'URL', description: 'the OpenAI-compatible server' },
    model: { value: 'NAME', description: 'the model name' },
    task: { value: 'TASK', description: "also record the suite run as a run of this task (checked before anything runs)" },
    operator: { value: 'OP', description: 'who records the run with --task (default human:$USER)' },
  },
  async run(args, context) {
    const taskId = args.option('task');
    const operator = args.option('operator') === undefined ? defaultOperator(context.io) : operatorOption(args.option('operator')!);
    if (taskId !== undefined) await context.withHost(async (host) => suiteRunRecord().requireTaskOf(host, taskId));
    const available = await suites().availableSuites({ pluginModules: context.pluginModules, resolveFrom: context.io.cwd });
    const { suite, pluginModules } = suites().findSuite(available, args.positional('SUITE'));
    const trials = positiveInteger(args.option('trials') ?? '1', 'trials');
    const split = splitOption(args.option('split'));
    const replay = args.option('replay');
    const model = trialModel(args, context, replay);
    // By default in the workspace, where `cowork serve` lists the runs and serves their reports.
    const outDir = args.option('out') ? resolve(context.io.cwd, args.option('out')!) : join(context.workspaceDir, benchRoutes().BENCH_RUNS_DIR, `${suite.name}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    const options: SuiteRunOptions = {
      suite,
      trials,
      split,
      model: model.trial,
      modelName: model.name,
      host: { pluginModules, resolveFrom: context.io.cwd },
      outDir,
      resume: args.flag('resume'),
      ...(args.option('tasks') ? { tasks: args.option('tasks')!.split(',').map((t) => t.trim()).filter(Boolean) } : {}),
      ...(args.option('data') ? { data: resolve(context.io.cwd, args.option('data')!) } : {}),
      onTrial: (event) => {
        const progress = (line: string): void => {
          if (!context.out.json) context.io.stderr(`${line}\n`);
        };
        if (event.phase === 'start') progress(`[${event.index + 1}/${event.total}] ${suite.name}/${event.task} trial ${event.trial}…`);
        else progress(`[${event.index + 1}/${event.total}] ${event.result.task} trial ${event.result.trial}: ${event.result.status === 'invalid' ? `invalid (${event.result.reason})` : `${event.result.score}/${event.result.maxScore}${event.result.passed ? ' all passed' : ''}`}`);
      },
    };
    const results = await runner().runSuite(options);
    writeHtml(args, context, results);
    const resultsPath = join(outDir, 'results.json');
    const run = taskId === undefined ? null : await context.withHost(async (host) => runs().runView(await suiteRunRecord().recordSuiteRun(host, taskId, results, resultsPath, operator)));
    context.out.result({ outDir, results: resultsPath, summary: metrics().summarize(results), ...(run ? { run } : {}) }, ({ summary }) => [
      ...resultsTable().formatResultsTable(summary),
      `results: ${resultsPath}`,
      ...(run ? [`recorded as run ${(run as { id: string }).id} of task ${taskId}`] : []),
    ]);
  },
});

const reportCommand = leaf({
  summary: "print a run's results (RUN: its folder or results.json) with the metrics; --html writes the report page, --compare another run",
  positionals: ['RUN'],
  options: {
    html: { value: 'FILE', description: 'write the HTML report there' },
    compare: { value: 'RUN', description: 'another run of the same suite: wins, losses, ties, Elo and win rate' },
  },
  async run(args, context) {
    const results = readResults(resolve(context.io.cwd, args.positional('RUN')));
    const other = args.option('compare') ? readResults(resolve(context.io.cwd, args.option('compare')!)) : undefined;
    writeHtml(args, context, results, other);
    const summary = metrics().summarize(results);
    const comparison = other ? pairwise().compareResults(results.trials, other.trials) : undefined;
    const { formatComparison, formatResultsTable } = resultsTable();
    context.out.result({ summary, ...(comparison ? { comparison } : {}) }, () => [...formatResultsTable(summary), ...(comparison ? ['', ...formatComparison(comparison)] : [])]);
  },
});

export const benchCommand = group({
  summary: 'benchmark suites: run tasks as real host tasks scored by deterministic checks, and report the metrics',
  children: { list: listCommand, run: runSuiteCommand, report: reportCommand },
});

function trialModel(args: LeafArgs, context: CliContext, replay: string | undefined): { trial: TrialModel; name: string | null } {
  if (replay) {
    const dir = resolve(context.io.cwd, replay);
    if (!existsSync(dir)) throw new CoworkError('invalid_input', `--replay ${replay}: no such folder`, { replay });
    return { trial: { kind: 'script', dir }, name: 'replay' };
  }
  const config = modelConfigFromEnv(context.io.env, modelOverrides(args));
  const provider = providerOrExit(config, context);
  return { trial: { kind: 'model', provider, text: textModel(provider), record: args.flag('record') }, name: config.model ?? null };
}

/** The model as plain text in, text out: the simulated user of a suite, and a judge. */
function textModel(provider: ModelProvider): TextModel {
  return async (messages, signal) => (await provider.complete({ messages: messages.map((m) => ({ ...m })), tools: [], signal })).message.content ?? '';
}

function writeHtml(args: LeafArgs, context: CliContext, results: ResultsFile, other?: ResultsFile): void {
  const html = args.option('html');
  if (html) writeFileSync(resolve(context.io.cwd, html), reportPage().reportHtml(results, other ? { compareWith: other } : {}));
}

function readResults(path: string): ResultsFile {
  const file = existsSync(join(path, 'results.json')) ? join(path, 'results.json') : path;
  if (!existsSync(file)) throw new CoworkError('not_found', `no results at ${path}`, { path });
  const results = JSON.parse(readFileSync(file, 'utf8')) as ResultsFile;
  const { RESULTS_FORMAT } = resultsFormat();
  if (results.format !== RESULTS_FORMAT) throw new CoworkError('invalid_input', `${file} is not a results file (${RESULTS_FORMAT})`, { file });
  return results;
}

function positiveInteger(text: string, field: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw new CoworkError('invalid_input', `--${field} must be a whole number above 0, got ${JSON.stringify(text)}`, { field });
  return value;
}

function splitOption(text: string | undefined): 'dev' | 'heldout' | 'all' {
  if (text === undefined || text === 'all' || text === 'dev' || text === 'heldout') return text ?? 'all';
  throw new CoworkError('invalid_input', `--split must be dev, heldout or all, got ${JSON.stringify(text)}`, { field: 'split' });
}
