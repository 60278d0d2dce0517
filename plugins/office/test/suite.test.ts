/**
 * Invariant: the office suite is scored by its checks, both ways, with no model server and with the
 * real applications (LibreOffice renders, office_lint, poppler, python-docx). Its reference
 * solutions (session scripts played through the real runtime in fresh workspaces) score full marks
 * on every task; each flawed solution loses exactly the rubric items it names (`loses`); replaying
 * the same scripts gives the same scores and details.
 */
import { join } from 'node:path';
import { loadSuiteTasks } from '@cowork/host/embed';
import { replaySolutions, scoreLines, solutionProblems, tempDir } from '@cowork/host/testkit';
import { plugin } from '../src';
import { officeSuite } from '../src/suite';

const dir = tempDir('cowork-bench-office-');
afterAll(() => dir.cleanup());

const replay = (variant: string, out: string) => replaySolutions(officeSuite, variant, { outDir: join(dir.path, out), host: { plugins: [plugin] } });

it('has at least 8 tasks, dev and heldout, on decks and documents', async () => {
  const tasks = await loadSuiteTasks(officeSuite);
  expect(tasks.length).toBeGreaterThanOrEqual(8);
  expect(new Set(tasks.map((t) => t.split))).toEqual(new Set(['dev', 'heldout']));
  expect(new Set(tasks.flatMap((t) => t.resources.map((r) => r.kind)))).toEqual(new Set(['office.presentation', 'office.document']));
  expect(plugin.suites).toContain(officeSuite);
});

it('scores every reference solution 100%, and the same again on a second replay', async () => {
  const first = await replay('reference', 'reference-1');
  expect(solutionProblems(first, officeSuite, 'reference')).toEqual([]);
  expect(first.trials.every((t) => t.score === t.maxScore)).toBe(true);
  const second = await replay('reference', 'reference-2');
  expect(scoreLines(second)).toEqual(scoreLines(first));
}, 600_000);

it('takes from each flawed solution exactly the items it should lose', async () => {
  const results = await replay('flawed-1', 'flawed');
  expect(results.trials.length).toBeGreaterThanOrEqual(8);
  expect(solutionProblems(results, officeSuite, 'flawed-1')).toEqual([]);
}, 600_000);
