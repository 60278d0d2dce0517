/**
 * Invariant: the web suite is scored by its checks, both ways, with no model server. Its reference
 * solutions (session scripts played through the real runtime, with the web plugin, in fresh
 * workspaces) score full marks on every task, judged in Chromium, by files and by the zip export;
 * each flawed solution loses exactly the rubric items it names (`loses`); replaying the same
 * scripts gives the same scores, details included.
 */
import { join } from 'node:path';
import { loadSuiteTasks } from '@cowork/host/embed';
import { replaySolutions, scoreLines, solutionProblems, tempDir } from '@cowork/host/testkit';
import { plugin, sharedChromium, webSuite } from '../src';

const dir = tempDir('cowork-bench-web-');
// One Chromium for every trial: each trial's host would otherwise start and stop its own.
beforeAll(() => sharedChromium().acquire());
afterAll(async () => {
  await sharedChromium().release();
  dir.cleanup();
});

const replay = (variant: string, out: string) => replaySolutions(webSuite, variant, { outDir: join(dir.path, out), host: { plugins: [plugin] } });

it('has at least 8 tasks, dev and heldout, on web apps', async () => {
  const tasks = await loadSuiteTasks(webSuite);
  expect(tasks.length).toBeGreaterThanOrEqual(8);
  expect(new Set(tasks.map((t) => t.split))).toEqual(new Set(['dev', 'heldout']));
  expect(new Set(tasks.flatMap((t) => t.resources.map((r) => r.kind)))).toEqual(new Set(['web.app']));
  expect(plugin.suites).toContain(webSuite);
});

it('scores every reference solution 100%, and the same again on a second replay', async () => {
  const first = await replay('reference', 'reference-1');
  expect(solutionProblems(first, webSuite, 'reference')).toEqual([]);
  expect(first.trials.every((t) => t.score === t.maxScore)).toBe(true);
  const second = await replay('reference', 'reference-2');
  expect(scoreLines(second)).toEqual(scoreLines(first));
}, 600_000);

it('takes from each flawed solution exactly the items it should lose', async () => {
  const results = await replay('flawed-1', 'flawed');
  expect(results.trials.length).toBeGreaterThanOrEqual(8);
  expect(solutionProblems(results, webSuite, 'flawed-1')).toEqual([]);
}, 600_000);
