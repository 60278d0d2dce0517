/**
 * Invariant: the host's runtime suite is scored by its checks, both ways, with no model server. Its
 * reference solutions (session scripts played through the real runtime in fresh workspaces) score
 * full marks on every task; each flawed solution loses exactly the rubric items it names
 * (`loses`); replaying the same scripts gives the same scores.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runSuite } from '../../src/evaluation/runner';
import { runtimeSuite } from '../../src/evaluation/runtime-suite';
import { loadSuiteTasks } from '../../src/evaluation/task-file';
import { tempDir } from '../support/temp-host';

const solutions = join(runtimeSuite.dir, 'solutions');
const dir = tempDir('cowork-bench-runtime-');
afterAll(() => dir.cleanup());

async function replay(variant: string, out: string) {
  return runSuite({ suite: runtimeSuite, trials: 1, model: { kind: 'script', dir: join(solutions, variant) }, modelName: 'replay', host: {}, outDir: join(dir.path, out), defaults: { seconds: 60 } });
}

it('has at least 8 tasks, dev and heldout', async () => {
  const tasks = await loadSuiteTasks(runtimeSuite);
  expect(tasks.length).toBeGreaterThanOrEqual(8);
  expect(new Set(tasks.map((t) => t.split))).toEqual(new Set(['dev', 'heldout']));
});

it('scores every reference solution 100%, and the same again on a second replay', async () => {
  const first = await replay('reference', 'reference-1');
  const scores = first.trials.map((t) => [t.task, t.status, t.reason ?? '', t.score, t.maxScore, t.items.filter((i) => !i.pass).map((i) => `${i.id}: ${i.detail}`)]);
  expect(scores).toEqual(first.trials.map((t) => [t.task, 'scored', '', t.maxScore, t.maxScore, []]));
  const second = await replay('reference', 'reference-2');
  expect(second.trials.map((t) => [t.task, t.score, t.items])).toEqual(first.trials.map((t) => [t.task, t.score, t.items]));
}, 300_000);

it('takes from each flawed solution exactly the items it should lose', async () => {
  const results = await replay('flawed-1', 'flawed');
  for (const trial of results.trials) {
    const { loses } = JSON.parse(readFileSync(join(solutions, 'flawed-1', `${trial.task}.json`), 'utf8')) as { loses: string[] };
    expect([trial.task, trial.status, trial.reason ?? '']).toEqual([trial.task, 'scored', '']);
    expect([trial.task, trial.items.filter((i) => !i.pass).map((i) => i.id).sort()]).toEqual([trial.task, [...loses].sort()]);
  }
}, 300_000);
