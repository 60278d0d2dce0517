import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CoworkError } from '../errors';
import type { SuiteDefinition, SuiteTask } from '../plugins/suite';
import { writeJsonAtomic } from '../util/atomic-file';
import { RESULTS_FORMAT, type ResultsFile, type TaskBudget, type TrialResult } from './results-format';
import { loadSuiteTasks } from './task-file';
import { runTrial, type TrialModel, type TrialOptions } from './trial';

export interface SuiteRunOptions {
  readonly suite: SuiteDefinition;
  /** Only these task ids (all when absent); an unknown id is refused before anything runs. */
  readonly tasks?: readonly string[];
  readonly split?: 'dev' | 'heldout' | 'all';
  readonly trials: number;
  readonly model: TrialModel;
  /** The model's name for the results (`replay` for scripts). */
  readonly modelName: string | null;
  readonly host: TrialOptions['host'];
  /** Where results.json and records/ go. */
  readonly outDir: string;
  /** Go on with a run whose results.json is there: trials it holds are kept, the others run. */
  readonly resume?: boolean;
  readonly data?: string;
  readonly defaults?: Partial<TaskBudget>;
  /** Told before and after each trial (the CLI's progress lines). */
  readonly onTrial?: (event: { phase: 'start'; task: string; trial: number; index: number; total: number } | { phase: 'end'; result: TrialResult; index: number; total: number }) => void;
}

export const DEFAULT_BUDGET: TaskBudget = { tokens: 400_000, turns: 60, seconds: 1800 };

/**
 * Runs a suite's tasks, `trials` times each, one trial after another. After every trial its run
 * record (`records/<task>.<trial>.json`) and the whole results.json are written atomically, so a
 * run stopped at any point (Ctrl-C, SIGKILL) has every finished trial on disk, and `resume` runs
 * only the missing ones. A trial's failure is an `invalid` result, never a stop.
 */
export async function runSuite(o: SuiteRunOptions): Promise<ResultsFile> {
  const all = await loadSuiteTasks(o.suite, { data: o.data });
  const tasks = pick(all, o);
  const outDir = resolve(o.outDir);
  const resultsPath = join(outDir, 'results.json');
  const previous = o.resume ? readResults(resultsPath, o) : undefined;
  if (!o.resume && existsSync(resultsPath)) {
    throw new CoworkError('invalid_input', `${resultsPath} exists: pass --resume to go on with that run, or another --out for a new one`, { file: resultsPath });
  }
  mkdirSync(join(outDir, 'records'), { recursive: true });
  if (o.model.kind === 'model' && o.model.record) mkdirSync(join(outDir, 'scripts'), { recursive: true });
  const done = new Map((previous?.trials ?? []).map((t) => [`${t.task}#${t.trial}`, t]));
  const createdAt = previous?.createdAt ?? new Date().toISOString();
  const defaults = { ...DEFAULT_BUDGET, ...o.defaults };
  const plan = tasks.flatMap((task) => Array.from({ length: o.trials }, (_, trial) => ({ task, trial })));
  const trials: TrialResult[] = [];
  const write = (): ResultsFile => {
    const file: ResultsFile = {
      format: RESULTS_FORMAT,
      suite: o.suite.name,
      createdAt,
      updatedAt: new Date().toISOString(),
      model: { provider: o.model.kind === 'script' ? 'replay' : o.model.provider.name, name: o.modelName, replay: o.model.kind === 'script' ? resolve(o.model.dir) : null },
      trialsPerTask: o.trials,
      split: o.split ?? 'all',
      trials: [...trials],
    };
    writeJsonAtomic(resultsPath, file);
    return file;
  };
  for (const [index, { task, trial }] of plan.entries()) {
    const kept = done.get(`${task.id}#${trial}`);
    if (kept) {
      trials.push(kept);
      continue;
    }
    o.onTrial?.({ phase: 'start', task: task.id, trial, index, total: plan.length });
    const outcome = await runTrial({ suite: o.suite, task, trial, host: o.host, model: o.model, workspaceDir: join(outDir, 'workspaces', `${task.id}.${trial}`), defaults });
    const recordPath = join('records', `${task.id}.${trial}.json`);
    writeJsonAtomic(join(outDir, recordPath), outcome.record);
    if (outcome.script && trial === 0) writeJsonAtomic(join(outDir, 'scripts', `${task.id}.json`), outcome.script);
    const result: TrialResult = { ...outcome.result, record: recordPath };
    trials.push(result);
    write();
    o.onTrial?.({ phase: 'end', result, index, total: plan.length });
  }
  rmSync(join(outDir, 'workspaces'), { recursive: true, force: true });
  return write();
}

function pick(all: readonly SuiteTask[], o: SuiteRunOptions): SuiteTask[] {
  if (o.tasks) {
    const known = new Set(all.map((t) => t.id));
    const unknown = o.tasks.filter((id) => !known.has(id));
    if (unknown.length > 0) throw new CoworkError('invalid_input', `suite ${o.suite.name} has no task ${unknown.join(', ')}; it has: ${[...known].join(', ')}`, { tasks: unknown });
  }
  return all.filter((t) => (!o.tasks || o.tasks.includes(t.id)) && (!o.split || o.split === 'all' || t.split === o.split));
}

/** A results.json to resume: it must be of this suite, model and trial count, or resuming would mix runs. */
function readResults(path: string, o: SuiteRunOptions): ResultsFile | undefined {
  if (!existsSync(path)) return undefined;
  const file = JSON.parse(readFileSync(path, 'utf8')) as ResultsFile;
  if (file.format !== RESULTS_FORMAT) throw new CoworkError('invalid_input', `${path} is not a results file (${RESULTS_FORMAT})`, { file: path });
  if (file.suite !== o.suite.name || file.trialsPerTask !== o.trials) {
    throw new CoworkError('invalid_input', `${path} holds a run of ${file.suite} with ${file.trialsPerTask} trials a task; resume it with the same suite and --trials, or use another --out`, { file: path });
  }
  return file;
}
