import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CoworkError } from '@cowork/host';
import { recordKeyOrder } from './key-order';
import { InvalidDatabase, normalizeDb, type RetailDb } from './model';

/**
 * τ²-bench retail's data (MIT, Sierra) is read from a folder given by the `--data DIR` setting and
 * never copied into the project: db.json, tasks.json, split_tasks.json and policy.md. Without the
 * setting, the folder is `../shared/benchmarks/tau2-retail` beside the repository that holds this
 * plugin, found from the plugin's own location.
 */
export const DATA_FILES = ['db.json', 'tasks.json', 'split_tasks.json', 'policy.md'] as const;

/** This plugin's folder (plugins/tau2-retail), from its sources or its build alike. */
export function pluginRoot(): string {
  return resolve(__dirname, '..');
}

export function defaultDataDir(): string {
  return resolve(pluginRoot(), '..', '..', '..', 'shared', 'benchmarks', 'tau2-retail');
}

/** A gold action as tasks.json has it. */
export interface RawAction {
  readonly action_id?: string;
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  readonly requestor?: string;
  readonly info?: string | null;
  readonly compare_args?: string[] | null;
}

export interface RawInstructions {
  readonly domain: string;
  readonly reason_for_call: string;
  readonly known_info?: string | null;
  readonly unknown_info?: string | null;
  readonly task_instructions?: string | null;
}

/** One task of tasks.json (the fields this suite reads). */
export interface RawTask {
  readonly id: string;
  readonly user_scenario: { readonly persona?: string | null; readonly instructions: RawInstructions | string };
  readonly initial_state?: unknown;
  readonly evaluation_criteria?: {
    readonly actions?: RawAction[] | null;
    readonly env_assertions?: unknown[] | null;
    readonly communicate_info?: string[] | null;
    readonly nl_assertions?: string[] | null;
    readonly reward_basis?: string[];
  } | null;
}

export interface RetailData {
  readonly dir: string;
  readonly db: RetailDb;
  readonly tasks: readonly RawTask[];
  readonly split: Readonly<Record<string, readonly string[]>>;
  readonly policy: string;
}

/** The data folder to use: `data` when given, else the default; an error naming the setting when it is not there. */
export function resolveDataDir(data?: string): string {
  const dir = data ? resolve(data) : defaultDataDir();
  const missing = DATA_FILES.filter((file) => !existsSync(join(dir, file)));
  if (missing.length > 0) {
    throw new CoworkError(
      'invalid_input',
      `τ²-bench retail data not found: ${dir} lacks ${missing.join(', ')}. ` +
        `Give the folder with --data DIR (the tau2-retail suite's data setting; by default ${defaultDataDir()}, which ${data ? 'was not used' : 'is not there'})`,
      { dir, missing: [...missing] },
    );
  }
  return dir;
}

const cache = new Map<string, RetailData>();

/** Reads (once per folder) and checks the data. */
export function loadData(data?: string): RetailData {
  const dir = resolveDataDir(data);
  const known = cache.get(dir);
  if (known) return known;
  const read = (file: string): unknown => {
    try {
      const text = readFileSync(join(dir, file), 'utf8');
      if (file === 'db.json') recordKeyOrder(text);
      return JSON.parse(text);
    } catch (error) {
      throw new CoworkError('invalid_input', `${join(dir, file)} is not valid JSON: ${(error as Error).message}`, { file: join(dir, file) });
    }
  };
  let db: RetailDb;
  try {
    db = normalizeDb(read('db.json'));
  } catch (error) {
    if (error instanceof InvalidDatabase) throw new CoworkError('invalid_input', `${join(dir, 'db.json')} is not a τ²-bench retail database: ${error.message}`, { file: join(dir, 'db.json') });
    throw error;
  }
  const tasks = read('tasks.json');
  if (!Array.isArray(tasks) || !tasks.every((t) => typeof t?.id === 'string' && typeof t?.user_scenario === 'object')) {
    throw new CoworkError('invalid_input', `${join(dir, 'tasks.json')} is not a list of τ²-bench tasks (each with an id and a user_scenario)`, { file: join(dir, 'tasks.json') });
  }
  const split = read('split_tasks.json') as Record<string, string[]>;
  if (typeof split !== 'object' || split === null || !Array.isArray(split.train) || !Array.isArray(split.test)) {
    throw new CoworkError('invalid_input', `${join(dir, 'split_tasks.json')} must have "train" and "test" lists of task ids`, { file: join(dir, 'split_tasks.json') });
  }
  const loaded: RetailData = { dir, db, tasks: tasks as RawTask[], split, policy: readFileSync(join(dir, 'policy.md'), 'utf8') };
  cache.set(dir, loaded);
  return loaded;
}

/** A task by id, or an error listing what there is. */
export function rawTask(data: RetailData, id: string): RawTask {
  const task = data.tasks.find((t) => t.id === id);
  if (!task) throw new CoworkError('invalid_input', `τ²-bench retail has no task ${JSON.stringify(id)} in ${data.dir}/tasks.json (ids ${data.tasks[0]?.id}..${data.tasks.at(-1)?.id})`, { task: id });
  return task;
}
