/**
 * Invariant: the host's runtime suite is scored by its checks, both ways, with no model server. Its
 * reference solutions (session scripts played through the real runtime in fresh workspaces) score
 * full marks on every task; each flawed solution loses exactly the rubric items it names
 * (`loses`); replaying the same scripts gives the same scores.
 */
import { join } from 'node:path';
import { runtimeSuite } from '../../src/evaluation/runtime-suite';
import { loadSuiteTasks } from '../../src/evaluation/task-file';
import { replaySolutions, scoreLines, solutionProblems } from '../../src/testkit/suite-solutions';
import { tempDir } from '../support/temp-host';

const dir = tempDir('cowork-bench-runtime-');
afterAll(() => dir.cleanup());

const replay = (variant: string, out: string) => replaySolutions(runtimeSuite, variant, { outDir: join(dir.path, out), host: {}, seconds: 60 });

it('has at least 8 tasks, dev and heldout', async () => {
  const tasks = await loadSuiteTasks(runtimeSuite);
  expect(tasks.length).toBeGreaterThanOrEqual(8);
  expect(new Set(tasks.map((t) => t.split))).toEqual(new Set(['dev', 'heldout']));
});

it('scores every reference solution 100%, and the same again on a second replay', async () => {
  const first = await replay('reference', 'reference-1');
  expect(solutionProblems(first, runtimeSuite, 'reference')).toEqual([]);
  expect(first.trials.every((t) => t.score === t.maxScore)).toBe(true);
  const second = await replay('reference', 'reference-2');
  expect(scoreLines(second)).toEqual(scoreLines(first));
}, 300_000);

it('takes from each flawed solution exactly the items it should lose', async () => {
  const results = await replay('flawed-1', 'flawed');
  expect(results.trials.length).toBeGreaterThanOrEqual(8);
  expect(solutionProblems(results, runtimeSuite, 'flawed-1')).toEqual([]);
}, 300_000);
