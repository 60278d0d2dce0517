/**
 * Invariant: the blender suite is scored by its checks, both ways, with no model server and a real
 * Blender. Its reference solutions (session scripts played through the real runtime in fresh
 * workspaces, each scene in its own Blender job) score full marks on every task; each flawed
 * solution loses exactly the rubric items it names (`loses`); replaying the same scripts gives the
 * same scores and details.
 */
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSuiteTasks, runSuite } from '@cowork/host/embed';
import { blenderSuite, plugin } from '../src';

const solutions = join(blenderSuite.dir, 'solutions');
const dir = mkdtempSync(join(tmpdir(), 'cowork-bench-blender-'));
afterAll(async () => {
  await stopStrayBlenders(dir);
  rmSync(dir, { recursive: true, force: true });
});

async function replay(variant: string, out: string) {
  try {
    return await runSuite({
      suite: blenderSuite,
      trials: 1,
      model: { kind: 'script', dir: join(solutions, variant) },
      modelName: 'replay',
      host: { plugins: [plugin] },
      outDir: join(dir, out),
      defaults: { seconds: 120 },
    });
  } finally {
    await stopStrayBlenders(dir);
  }
}

/**
 * Blenders left running by trials under `dir`, stopped. The harness's trial end (evaluation/trial.ts)
 * cancels the jobs before it closes the host, so a poll in between can restart a scene's Blender
 * from its save, and that one outlives the trial; the plugin's own closeHostAndStopBlender closes
 * the host first. Until the harness does too, this keeps a test run from leaving Blenders behind.
 */
async function stopStrayBlenders(under: string): Promise<void> {
  const stray = (): number[] =>
    readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .filter((pid) => {
        try {
          const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
          // Blender runs in its scene's resource folder, inside the trial's workspace.
          return args[0] === 'blender' && readlinkSync(`/proc/${pid}/cwd`).startsWith(`${under}/`);
        } catch {
          return false; // ended meanwhile
        }
      })
      .map(Number);
  for (const pid of stray()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (let waited = 0; stray().length > 0 && waited < 10_000; waited += 50) await new Promise((done) => setTimeout(done, 50));
}

it('has at least 8 tasks, dev and heldout', async () => {
  const tasks = await loadSuiteTasks(blenderSuite);
  expect(tasks.length).toBeGreaterThanOrEqual(8);
  expect(new Set(tasks.map((t) => t.split))).toEqual(new Set(['dev', 'heldout']));
});

it('scores every reference solution 100%, and the same again on a second replay', async () => {
  const first = await replay('reference', 'reference-1');
  const scores = first.trials.map((t) => [t.task, t.status, t.reason ?? '', t.score, t.maxScore, t.items.filter((i) => !i.pass).map((i) => `${i.id}: ${i.detail}`)]);
  expect(scores).toEqual(first.trials.map((t) => [t.task, 'scored', '', t.maxScore, t.maxScore, []]));
  const second = await replay('reference', 'reference-2');
  expect(second.trials.map((t) => [t.task, t.score, t.items])).toEqual(first.trials.map((t) => [t.task, t.score, t.items]));
}, 900_000);

it('takes from each flawed solution exactly the items it should lose', async () => {
  const results = await replay('flawed-1', 'flawed');
  for (const trial of results.trials) {
    const { loses } = JSON.parse(readFileSync(join(solutions, 'flawed-1', `${trial.task}.json`), 'utf8')) as { loses: string[] };
    expect([trial.task, trial.status, trial.reason ?? '']).toEqual([trial.task, 'scored', '']);
    expect([trial.task, trial.items.filter((i) => !i.pass).map((i) => `${i.id}`).sort()]).toEqual([trial.task, [...loses].sort()]);
  }
}, 600_000);
