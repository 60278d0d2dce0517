import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isCoworkError } from '@cowork/host';
import { loadData, rawTask } from './data';
import { goldActions, replayGold } from './gold';
import { canonicalJson } from './py';
import { referenceScript } from './scripts';

/**
 * The plugin's two commands (bin/gold-db.js, bin/make-scripts.js). Each returns its exit code and
 * writes its output whole (a file is written in one call, after everything is computed).
 */
interface Parsed {
  readonly positional: string[];
  readonly options: Record<string, string>;
}

function parse(argv: readonly string[], known: readonly string[]): Parsed {
  const positional: string[] = [];
  const options: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
      if (!known.includes(name)) throw new UsageError(`unknown option --${name}`);
      const value = inline ?? argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      options[name] = value;
    } else positional.push(arg);
  }
  return { positional, options };
}

class UsageError extends Error {}

type Io = { out: (text: string) => void; err: (text: string) => void };
const processIo: Io = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };

function run(usage: string, io: Io, body: () => void): number {
  try {
    body();
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n${usage}\n`);
      return 2;
    }
    io.err(`${isCoworkError(error) ? error.message : (error as Error).stack ?? String(error)}\n`);
    return 1;
  }
}

const GOLD_USAGE = `usage: gold-db TASK_ID [--data DIR] [--out FILE]
Replays the task's gold actions through the suite's tools on db.json and writes the resulting
database as canonical JSON (keys sorted, no spaces, floats as Python prints them): the same bytes as
json.dumps(db.model_dump(), sort_keys=True, separators=(",", ":")) of the reference's database, with
every number a float. Each action's result goes to stderr.`;

export function goldDbCli(argv: readonly string[], io: Io = processIo): number {
  return run(GOLD_USAGE, io, () => {
    const { positional, options } = parse(argv, ['data', 'out']);
    if (positional.length !== 1) throw new UsageError('give one task id');
    const data = loadData(options.data);
    const task = rawTask(data, positional[0]!);
    const { db, steps } = replayGold(data.db, goldActions(task) ?? []);
    for (const step of steps) io.err(`${step.error ? 'error' : step.wrote ? 'wrote' : 'read '} ${step.action.name} ${JSON.stringify(step.action.arguments)} -> ${step.output.slice(0, 160)}\n`);
    const text = `${canonicalJson(db)}\n`;
    if (options.out) writeFileSync(resolve(options.out), text);
    else io.out(text);
  });
}

const SCRIPTS_USAGE = `usage: make-scripts --out DIR [--data DIR] [--tasks ID,ID]
Writes a reference session script (cowork-bench-script/1) for each task into DIR/<task>.json, made
from the data: Main calls the task's gold actions, the customer's messages come from its scenario.
Replay them with: cowork bench run tau2-retail --replay DIR`;

export function makeScriptsCli(argv: readonly string[], io: Io = processIo): number {
  return run(SCRIPTS_USAGE, io, () => {
    const { positional, options } = parse(argv, ['data', 'out', 'tasks']);
    if (positional.length > 0 || !options.out) throw new UsageError('give --out DIR');
    const data = loadData(options.data);
    const tasks = options.tasks ? options.tasks.split(',').map((id) => rawTask(data, id.trim())) : data.tasks;
    const dir = resolve(options.out);
    mkdirSync(dir, { recursive: true });
    for (const task of tasks) writeFileSync(join(dir, `${task.id}.json`), `${JSON.stringify(referenceScript(task), null, 2)}\n`);
    io.out(`wrote ${tasks.length} reference scripts to ${dir}\n`);
  });
}
