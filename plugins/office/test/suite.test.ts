/**
 * Invariant: the office suite is scored by its checks, both ways, with no model server and with the
 * real applications (LibreOffice renders, office_lint, poppler, python-docx). Its reference
 * solutions (session scripts played through the real runtime in fresh workspaces) score full marks
 * on every task; each flawed solution loses exactly the rubric items it names (`loses`); replaying
 * the same scripts gives the same scores and details.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSuiteTasks, runSuite } from '@cowork/host/embed';
import { tempDir } from '@cowork/host/testkit';
import { plugin } from '../src';
import { officeSuite } from '../src/suite';

const solutions = join(officeSuite.dir, 'solutions');
const dir = tempDir('cowork-bench-office-');
afterAll(() => dir.cleanup());

async function replay(variant: string, out: string) {
  return runSuite({
    suite: officeSuite,
    trials: 1,
    model: { kind: 'script', dir: join(solutions, variant) },
    modelName: 'replay',
    host: { plugins: [plugin] },
    outDir: join(dir.path, out),
    defaults: { seconds: 120 },
  });
}

it('has at least 8 tasks, dev and heldout, on decks and documents', async () => {
  const tasks = await loadSuiteTasks(officeSuite);
  expect(tasks.length).toBeGreaterThanOrEqual(8);
  expect(new Set(tasks.map((t) => t.split))).toEqual(new Set(['dev', 'heldout']));
  expect(new Set(tasks.flatMap((t) => t.resources.map((r) => r.kind)))).toEqual(new Set(['office.presentation', 'office.document']));
  expect(plugin.suites).toContain(officeSuite);
});

it('scores every reference solution 100%, and the same again on a second replay', async () => {
  const first = await replay('reference', 'reference-1');
  const scores = first.trials.map((t) => [t.task, t.status, t.reason ?? '', t.score, t.maxScore, t.items.filter((i) => !i.pass).map((i) => `${i.id}: ${i.detail}`)]);
  expect(scores).toEqual(first.trials.map((t) => [t.task, 'scored', '', t.maxScore, t.maxScore, []]));
  const second = await replay('reference', 'reference-2');
  expect(second.trials.map((t) => [t.task, t.score, t.items])).toEqual(first.trials.map((t) => [t.task, t.score, t.items]));
}, 600_000);

it('takes from each flawed solution exactly the items it should lose', async () => {
  const results = await replay('flawed-1', 'flawed');
  for (const trial of results.trials) {
    const { loses } = JSON.parse(readFileSync(join(solutions, 'flawed-1', `${trial.task}.json`), 'utf8')) as { loses: string[] };
    expect([trial.task, trial.status, trial.reason ?? '']).toEqual([trial.task, 'scored', '']);
    expect([trial.task, trial.items.filter((i) => !i.pass).map((i) => i.id).sort()]).toEqual([trial.task, [...loses].sort()]);
  }
}, 600_000);
