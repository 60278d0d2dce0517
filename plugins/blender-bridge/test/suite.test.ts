/**
 * Invariant: the blender suite is scored by its checks, both ways, with no model server and a real
 * Blender. Its reference solutions (session scripts played through the real runtime in fresh
 * workspaces, each scene in its own Blender job) score full marks on every task; each flawed
 * solution loses exactly the rubric items it names (`loses`); replaying the same scripts gives the
 * same scores and details; and no trial leaves a Blender running after it ends.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { solutionTests } from '@cowork/host/testkit';
import { blenderSuite, plugin } from '../src';

const replays = solutionTests(blenderSuite, {
  host: { plugins: [plugin] },
  timeoutMs: 900_000,
  // A trial's end closes its host and then stops the jobs it left, so no poll can restart a scene's Blender.
  afterReplay: (dir) => expect(blendersUnder(dir)).toEqual([]),
});

afterAll(() => {
  for (const pid of blendersUnder(replays.dir)) process.kill(pid, 'SIGKILL'); // only after a failed test
});

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
