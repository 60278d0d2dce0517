import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runSuite, type SuiteRunOptions } from '../evaluation/runner';
import type { ResultsFile } from '../evaluation/results-format';
import type { SuiteDefinition } from '../plugins/suite';

/**
 * A suite's solution scripts (`<suite dir>/solutions/<variant>/<task>.json`), replayed through the
 * real runtime in fresh workspaces under `outDir`, one trial per task, with no model server: how a
 * suite's author proves its checks score a right answer fully and a wrong one as intended.
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
 * when all is well): every trial must be scored (not invalid) and lose exactly the rubric items its
 * script names in `loses` (none for a script without it, like a reference solution).
 */
export function solutionProblems(results: ResultsFile, suite: SuiteDefinition, variant: string): string[] {
  const problems: string[] = [];
  for (const trial of results.trials) {
    if (trial.status !== 'scored') {
      problems.push(`${trial.task}: ${trial.status}${trial.reason ? ` (${trial.reason})` : ''}`);
      continue;
    }
    const expected = [...lossesOf(suite, variant, trial.task)].sort();
    const lost = trial.items.filter((item) => !item.pass);
    const ids = lost.map((item) => item.id).sort();
    if (ids.join('\n') === expected.join('\n')) continue;
    const why = lost.map((item) => `${item.id} (${item.detail})`).join('; ') || 'nothing';
    problems.push(`${trial.task}: lost ${why}; expected to lose ${expected.join(', ') || 'nothing'}`);
  }
  return problems;
}

/** Each trial's task, score and item verdicts with their details: two replays of one script must agree on all of it. */
export function scoreLines(results: ResultsFile): unknown[] {
  return results.trials.map((trial) => [trial.task, trial.score, trial.items]);
}

function lossesOf(suite: SuiteDefinition, variant: string, task: string): readonly string[] {
  const script = JSON.parse(readFileSync(join(suite.dir, 'solutions', variant, `${task}.json`), 'utf8')) as { loses?: string[] };
  return script.loses ?? [];
}
