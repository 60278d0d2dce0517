import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import type { Json } from '@cowork/host';
import { trainerError } from './errors';

/** The run-record format the benchmark runner writes (`RUN_RECORD_FORMAT` in the host's evaluation). */
export const RUN_RECORD_FORMAT = 'cowork-bench-run/1';
export const RESULTS_FORMAT = 'cowork-bench-results/1';

/** The parts of a run record (`RunRecord` in the host's results-format.ts) the trainer reads. */
export interface RunRecordView {
  readonly format: typeof RUN_RECORD_FORMAT;
  readonly suite: string;
  readonly task: string;
  readonly trial: number;
  readonly request: string;
  readonly outcome: string;
  readonly status: 'scored' | 'invalid';
  readonly reason?: string;
  readonly entries: readonly { readonly agentId: string; readonly turn: number; readonly message: Json }[];
  readonly items: readonly { readonly id: string; readonly pass: boolean; readonly points: number; readonly earned: number }[];
}

/** A run record with where it came from and its split (from the run's results.json, when there is one). */
export interface LoadedRun {
  /** Path relative to the folder it was collected from (or the file name): stable across machines. */
  readonly source: string;
  readonly split: 'dev' | 'heldout' | 'unknown';
  readonly record: RunRecordView;
}

/** Checks a parsed JSON value is a run record the trainer can read; refuses anything else by name. */
export function asRunRecord(value: unknown, source: string): RunRecordView {
  const v = value as Partial<RunRecordView> | null;
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw trainerError('not_a_run_record', `${source} is not a run record (not a JSON object)`, { source });
  if (v.format !== RUN_RECORD_FORMAT) {
    throw trainerError('not_a_run_record', `${source} has format ${JSON.stringify(v.format ?? null)}, not ${RUN_RECORD_FORMAT}: the trainer reads the benchmark runner's run records only`, { source });
  }
  const problems: string[] = [];
  if (typeof v.task !== 'string') problems.push('task is not a string');
  if (typeof v.request !== 'string') problems.push('request is not a string');
  if (v.status !== 'scored' && v.status !== 'invalid') problems.push('status is neither scored nor invalid');
  if (!Array.isArray(v.entries)) problems.push('entries is not a list');
  else if (v.entries.some((e) => e === null || typeof e !== 'object' || typeof e.agentId !== 'string' || typeof e.message !== 'object')) problems.push('an entry lacks agentId or message');
  if (!Array.isArray(v.items)) problems.push('items is not a list');
  if (problems.length > 0) throw trainerError('not_a_run_record', `${source} is not a well-formed ${RUN_RECORD_FORMAT} record: ${problems.join('; ')}`, { source });
  return v as RunRecordView;
}

function readJson(path: string, source: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw trainerError('unreadable_input', `cannot read ${source}: ${(error as Error).message}`, { source });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw trainerError('not_a_run_record', `${source} is not JSON`, { source });
  }
}

/**
 * Loads run records from paths: a run folder (its `results.json` gives each trial's split, its
 * `records/*.json` the records), a `records` folder, or one record file. Every file is checked before
 * any is returned, so a bad one refuses the whole collection and nothing is half-read.
 */
export function loadRuns(paths: readonly string[], baseDir: string): LoadedRun[] {
  const runs: LoadedRun[] = [];
  for (const path of paths) {
    let isDir: boolean;
    try {
      isDir = statSync(path).isDirectory();
    } catch {
      throw trainerError('unreadable_input', `${relative(baseDir, path) || path} does not exist`, { source: path });
    }
    if (!isDir) {
      runs.push({ source: relative(baseDir, path) || basename(path), split: 'unknown', record: asRunRecord(readJson(path, path), relative(baseDir, path)) });
      continue;
    }
    const splits = splitsOf(path);
    const recordsDir = statSafe(join(path, 'records')) ? join(path, 'records') : path;
    for (const name of readdirSync(recordsDir).filter((n) => n.endsWith('.json') && n !== 'results.json').sort()) {
      const file = join(recordsDir, name);
      const source = relative(baseDir, file);
      const record = asRunRecord(readJson(file, source), source);
      runs.push({ source, split: splits.get(record.task) ?? 'unknown', record });
    }
  }
  return runs;
}

function statSafe(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function splitsOf(runDir: string): Map<string, 'dev' | 'heldout'> {
  try {
    return new Map(readResults(runDir, runDir).trials.map((t) => [t.task, t.split]));
  } catch {
    return new Map(); // a records folder without results.json: splits unknown
  }
}

/** What the scores read of a benchmark run's `results.json`. */
export interface TrialView {
  readonly task: string;
  readonly split: 'dev' | 'heldout';
  readonly status: 'scored' | 'invalid';
  readonly passed: boolean;
  readonly score: number;
  readonly maxScore: number;
  /** The run record, relative to the run folder. */
  readonly record?: string;
}

export interface RunView {
  readonly suite: string;
  readonly model: string | null;
  readonly trials: readonly TrialView[];
}

/** Reads a run folder's results.json; anything else is `not_a_results_file`. */
export function readResults(runDir: string, shown: string): RunView {
  let parsed: { format?: unknown; suite?: unknown; model?: { name?: unknown }; trials?: unknown };
  try {
    parsed = JSON.parse(readFileSync(join(runDir, 'results.json'), 'utf8')) as typeof parsed;
  } catch (error) {
    throw trainerError('not_a_results_file', `${shown} has no readable results.json (${(error as Error).message}): give the folder a benchmark run wrote`, { run: shown });
  }
  if (parsed.format !== RESULTS_FORMAT || !Array.isArray(parsed.trials) || typeof parsed.suite !== 'string') {
    throw trainerError('not_a_results_file', `${shown}/results.json is not a ${RESULTS_FORMAT} file`, { run: shown });
  }
  return { suite: parsed.suite, model: typeof parsed.model?.name === 'string' ? parsed.model.name : null, trials: parsed.trials as TrialView[] };
}
