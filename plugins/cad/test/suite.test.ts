/**
 * Invariant: the cad suite is scored by its checks, both ways, with no model server. Its reference
 * solutions (session scripts played through the real runtime with the cad plugin, in fresh
 * workspaces, judged by FreeCAD reading the STEP exports and by cad_check) score full marks on every
 * task; each flawed solution loses exactly the rubric items it names (`loses`); replaying the same
 * scripts gives the same scores and details.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSuiteTasks, runSuite } from '@cowork/host/embed';
import { cadSuite, plugin, sharedKernel } from '../src';

const solutions = join(cadSuite.dir, 'solutions');
const dir = mkdtempSync(join(tmpdir(), 'cowork-bench-cad-'));
// Every trial opens and closes a host; holding the kernel keeps one OpenCascade worker for them all.
beforeAll(() => sharedKernel().acquire({ warm: true }));
afterAll(async () => {
  await sharedKernel().release();
  rmSync(dir, { recursive: true, force: true });
});

async function replay(variant: string, out: string) {
  return runSuite({ suite: cadSuite, trials: 1, model: { kind: 'script', dir: join(solutions, variant) }, modelName: 'replay', host: { plugins: [plugin] }, outDir: join(dir, out), defaults: { seconds: 120 } });
}

it('has at least 8 tasks, dev and heldout', async () => {
  const tasks = await loadSuiteTasks(cadSuite);
  expect(tasks.length).toBeGreaterThanOrEqual(8);
  expect(new Set(tasks.map((t) => t.split))).toEqual(new Set(['dev', 'heldout']));
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
