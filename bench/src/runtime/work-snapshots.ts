/**
 * What a task's `work/` under git costs per turn (packages/host/src/agents/work-history.ts): with
 * 10, 1,000 and 10,000 files in `work/`, one file changed per turn, the time of
 *
 *   - the runtime's snapshot (`WorkHistory.snapshot`: status, size rule, add, commit), and
 *   - the check at the start of a turn when nothing changed (the same call, answering null),
 *
 * beside a baseline measured in the same run on a copy of the same tree: the hand-written
 * `git add -A && git commit` through child_process.
 *
 * BENCH_SNAPSHOT_TURNS (default 10) turns per size. Prints figures; asserts nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openTempHost, tempDir } from '@cowork/host/testkit';
import { latencyLine } from '../stats';

const TURNS = Number(process.env.BENCH_SNAPSHOT_TURNS ?? 10);
const SIZES = [10, 1_000, 10_000];

function fillTree(dir: string, files: number): void {
  for (let i = 0; i < files; i++) {
    const folder = join(dir, `d${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `f${i}.txt`), `file ${i}\n`);
  }
}

async function main(): Promise<void> {
  const host = await openTempHost({ prefix: 'cowork-bench-snapshots-' });
  const baseline = tempDir('cowork-bench-git-');
  const git = (cwd: string, ...args: string[]): void => {
    execFileSync('git', args, { cwd, stdio: 'ignore', env: { PATH: process.env.PATH ?? '', GIT_CONFIG_NOSYSTEM: '1', LANG: 'C' } });
  };
  try {
    console.log(`work/ snapshots: ${TURNS} turns per size, one file changed per turn`);
    for (const files of SIZES) {
      const taskId = `bench-${files}`;
      await host.workHistory.init(taskId);
      const work = join(host.workspaceDir, 'tasks', taskId, 'work');
      fillTree(work, files);
      let started = performance.now();
      await host.workHistory.snapshot(taskId, 'agent:main', 'first', {});
      const first = performance.now() - started;

      const raw = join(baseline.path, String(files));
      mkdirSync(raw);
      git(raw, 'init', '-q');
      git(raw, 'config', 'user.name', 'bench');
      git(raw, 'config', 'user.email', 'bench@cowork');
      fillTree(raw, files);
      started = performance.now();
      git(raw, 'add', '-A');
      git(raw, 'commit', '-q', '-m', 'first');
      const rawFirst = performance.now() - started;

      const snapshot: number[] = [];
      const idle: number[] = [];
      const hand: number[] = [];
      for (let turn = 1; turn <= TURNS; turn++) {
        const name = join('d0', `f${turn % Math.min(files, 100)}.txt`);
        writeFileSync(join(work, name), `turn ${turn}\n`);
        started = performance.now();
        await host.workHistory.snapshot(taskId, 'agent:main', `turn ${turn}: bench`, { 'Cowork-Kind': 'turn', 'Cowork-Agent': 'main', 'Cowork-Turn': String(turn) });
        snapshot.push(performance.now() - started);
        started = performance.now();
        await host.workHistory.snapshot(taskId, 'others', 'nothing', {});
        idle.push(performance.now() - started);

        writeFileSync(join(raw, name), `turn ${turn}\n`);
        started = performance.now();
        execFileSync('sh', ['-c', `git add -A && git commit -q -m 'turn ${turn}'`], { cwd: raw, stdio: 'ignore', env: { PATH: process.env.PATH ?? '', GIT_CONFIG_NOSYSTEM: '1', LANG: 'C' } });
        hand.push(performance.now() - started);
      }
      console.log(`\n${files} files in work/ (first commit: runtime ${first.toFixed(0)} ms, raw git ${rawFirst.toFixed(0)} ms)`);
      console.log(latencyLine('  snapshot, one file changed', snapshot));
      console.log(latencyLine('  turn-start check, nothing changed', idle));
      console.log(latencyLine('  baseline: git add -A && git commit', hand));
    }
  } finally {
    await host.dispose();
    baseline.cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
