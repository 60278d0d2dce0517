/**
 * Invariant: the cad suite is scored by its checks, both ways, with no model server. Its reference
 * solutions (session scripts played through the real runtime with the cad plugin, in fresh
 * workspaces, judged by FreeCAD reading the STEP exports and by cad_check) score full marks on every
 * task; each flawed solution loses exactly the rubric items it names (`loses`); replaying the same
 * scripts gives the same scores and details.
 */
import { join } from 'node:path';
import { loadSuiteTasks } from '@cowork/host/embed';
import { replaySolutions, scoreLines, solutionProblems, tempDir } from '@cowork/host/testkit';
import { cadSuite, plugin, sharedKernel } from '../src';

const dir = tempDir('cowork-bench-cad-');
// Every trial opens and closes a host; holding the kernel keeps one OpenCascade worker for them all.
beforeAll(() => sharedKernel().acquire({ warm: true }));
afterAll(async () => {
  await sharedKernel().release();
  dir.cleanup();
});

const replay = (variant: string, out: string) => replaySolutions(cadSuite, variant, { outDir: join(dir.path, out), host: { plugins: [plugin] } });

it('has at least 8 tasks, dev and heldout', async () => {
  const tasks = await loadSuiteTasks(cadSuite);
  expect(tasks.length).toBeGreaterThanOrEqual(8);
  expect(new Set(tasks.map((t) => t.split))).toEqual(new Set(['dev', 'heldout']));
});

it('scores every reference solution 100%, and the same again on a second replay', async () => {
  const first = await replay('reference', 'reference-1');
  expect(solutionProblems(first, cadSuite, 'reference')).toEqual([]);
  expect(first.trials.every((t) => t.score === t.maxScore)).toBe(true);
  const second = await replay('reference', 'reference-2');
  expect(scoreLines(second)).toEqual(scoreLines(first));
}, 600_000);

it('takes from each flawed solution exactly the items it should lose', async () => {
  const results = await replay('flawed-1', 'flawed');
  expect(results.trials.length).toBeGreaterThanOrEqual(8);
  expect(solutionProblems(results, cadSuite, 'flawed-1')).toEqual([]);
}, 600_000);
