/**
 * Invariant: the blender suite is scored by its checks, both ways, with no model server and a real
 * Blender. Its reference solutions (session scripts played through the real runtime in fresh
 * workspaces, each scene in its own Blender job) score full marks on every task; each flawed
 * solution loses exactly the rubric items it names (`loses`); replaying the same scripts gives the
 * same scores and details; and no trial leaves a Blender running after it ends.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { loadSuiteTasks } from '@cowork/host/embed';
import { replaySolutions, scoreLines, solutionProblems, tempDir } from '@cowork/host/testkit';
import { blenderSuite, plugin } from '../src';

const dir = tempDir('cowork-bench-blender-');
afterAll(() => {
  for (const pid of blendersUnder(dir.path)) process.kill(pid, 'SIGKILL'); // only after a failed test
  dir.cleanup();
});

async function replay(variant: string, out: string) {
  const results = await replaySolutions(blenderSuite, variant, { outDir: join(dir.path, out), host: { plugins: [plugin] } });
  // A trial's end closes its host and then stops the jobs it left, so no poll can restart a scene's Blender.
  expect(blendersUnder(dir.path)).toEqual([]);
  return results;
}

/** Blenders running in a scene's resource folder inside a trial's workspace under `under`. */
function blendersUnder(under: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        return args[0] === 'blender' && readlinkSync(`/proc/${pid}/cwd`).startsWith(`${under}/`);
      } catch {
        return false; // ended meanwhile
      }
    })
    .map(Number);
}

it('has at least 8 tasks, dev and heldout', async () => {
  const tasks = await loadSuiteTasks(blenderSuite);
  expect(tasks.length).toBeGreaterThanOrEqual(8);
  expect(new Set(tasks.map((t) => t.split))).toEqual(new Set(['dev', 'heldout']));
});

it('scores every reference solution 100%, and the same again on a second replay', async () => {
  const first = await replay('reference', 'reference-1');
  expect(solutionProblems(first, blenderSuite, 'reference')).toEqual([]);
  expect(first.trials.every((t) => t.score === t.maxScore)).toBe(true);
  const second = await replay('reference', 'reference-2');
  expect(scoreLines(second)).toEqual(scoreLines(first));
}, 900_000);

it('takes from each flawed solution exactly the items it should lose', async () => {
  const results = await replay('flawed-1', 'flawed');
  expect(results.trials.length).toBeGreaterThanOrEqual(8);
  expect(solutionProblems(results, blenderSuite, 'flawed-1')).toEqual([]);
}, 600_000);
