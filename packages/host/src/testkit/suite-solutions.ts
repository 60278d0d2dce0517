import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runSuite, type SuiteRunOptions } from '../evaluation/runner';
import type { ResultsFile } from '../evaluation/results-format';
import { loadSuiteTasks } from '../evaluation/task-file';
import type { SuiteDefinition } from '../plugins/suite';
import { tempDir } from './temp-host';

// The test runner's globals (jest, vitest, node:test's shims): the kit declares tests with them, it does not import one.
declare const it: (name: string, test: () => Promise<void>, timeoutMs?: number) => void;
declare const afterAll: (hook: () => void | Promise<void>) => void;

export interface SolutionTestOptions {
  /** The plugins (and other host options) each trial's host opens with. */
  readonly host: SuiteRunOptions['host'];
  /** Each task's wall-time budget in a replay, in seconds (default 120). */
  readonly seconds?: number;
  /** Each test's time limit (default 10 minutes). */
  readonly timeoutMs?: number;
  /** Run after every replay with the folder the trials' workspaces are under: a suite's own check of what trials leave behind. */
  readonly afterReplay?: (dir: string) => void;
}

/**
 * The standard tests of a suite, declared in the calling test file: it has at least 8 tasks, dev
 * and heldout; its reference solutions (`<suite dir>/solutions/reference/<task>.json`, replayed
 * through the real runtime in fresh workspaces, with no model server) score full marks, and the same
 * scores and details again on a second replay; each flawed solution (`solutions/flawed-1/`) loses
 * exactly the rubric items its `loses` names. Returns the folder the replays write under.
 */
export function solutionTests(suite: SuiteDefinition, options: SolutionTestOptions): { readonly dir: string } {
  const dir = tempDir(`cowork-bench-${suite.name}-`);
  afterAll(() => dir.cleanup());
  const timeout = options.timeoutMs ?? 600_000;
  const replay = async (variant: string, out: string): Promise<ResultsFile> => {
    const results = await replaySolutions(suite, variant, { outDir: join(dir.path, out), host: options.host, seconds: options.seconds });
    options.afterReplay?.(dir.path);
    return results;
  };

  it('has at least 8 tasks, dev and heldout', async () => {
    const tasks = await loadSuiteTasks(suite);
    const splits = [...new Set(tasks.map((t) => t.split))].sort();
    assertNone(tasks.length >= 8 && splits.join() === 'dev,heldout' ? [] : [`${tasks.length} tasks in splits ${splits.join(', ')}`]);
  });

  it('scores every reference solution 100%, and the same again on a second replay', async () => {
    const first = await replay('reference', 'reference-1');
    assertNone(solutionProblems(first, suite, 'reference'));
    const second = await replay('reference', 'reference-2');
    const differ = first.trials.filter((trial, i) => JSON.stringify(scoreLine(trial)) !== JSON.stringify(scoreLine(second.trials[i])));
    assertNone(differ.map((trial) => `${trial.task}: scored differently on a second replay`));
  }, timeout);

  it('takes from each flawed solution exactly the items it should lose', async () => {
    const results = await replay('flawed-1', 'flawed');
    assertNone(solutionProblems(results, suite, 'flawed-1'));
  }, timeout);

  return { dir: dir.path };
}

/**
 * A suite's solution scripts (`<suite dir>/solutions/<variant>/<task>.json`) replayed through the
 * real runtime in fresh workspaces under `outDir`, one trial per task, with no model server.
 */
export async function replaySolutions(
  suite: SuiteDefinition,
  variant: string,
  options: { readonly outDir: string; readonly host: SuiteRunOptions['host']; readonly seconds?: number },
): Promise<ResultsFile> {
  return runSuite({
    suite,
    trials: 1,
    model: { kind: 'script', dir: join(suite.dir, 'solutions', variant) },
    modelName: 'replay',
    host: options.host,
    outDir: options.outDir,
    defaults: { seconds: options.seconds ?? 120 },
  });
}

/**
 * What is wrong with a replay of a solution variant, one sentence per trial that went wrong (none
 * when all is well): every task ran, every trial was scored (not invalid) and lost exactly the
 * rubric items its script names in `loses` (none for a script without it, like a reference solution).
 */
export function solutionProblems(results: ResultsFile, suite: SuiteDefinition, variant: string): string[] {
  const problems: string[] = results.trials.length === 0 ? ['no trial ran'] : [];
  for (const trial of results.trials) {
    if (trial.status !== 'scored') {
      problems.push(`${trial.task}: ${trial.status}${trial.reason ? ` (${trial.reason})` : ''}`);
      continue;
    }
    const expected = [...lossesOf(suite, variant, trial.task)].sort();
    const lost = trial.items.filter((item) => !item.pass);
    if (lost.map((item) => item.id).sort().join('\n') === expected.join('\n')) continue;
    const why = lost.map((item) => `${item.id} (${item.detail})`).join('; ') || 'nothing';
    problems.push(`${trial.task}: lost ${why}; expected to lose ${expected.join(', ') || 'nothing'}`);
  }
  return problems;
}

function scoreLine(trial: ResultsFile['trials'][number] | undefined): unknown {
  return trial && [trial.task, trial.score, trial.items];
}

function assertNone(problems: readonly string[]): void {
  if (problems.length > 0) throw new Error(problems.join('\n'));
}

function lossesOf(suite: SuiteDefinition, variant: string, task: string): readonly string[] {
  const script = JSON.parse(readFileSync(join(suite.dir, 'solutions', variant, `${task}.json`), 'utf8')) as { loses?: string[] };
  return script.loses ?? [];
}
