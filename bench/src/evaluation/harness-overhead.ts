/**
 * The benchmark harness's own cost per trial beside the time the runtime spent: the host's runtime
 * suite replayed from its reference scripts (no model server, so the runtime's time is the host's
 * own work), BENCH_SUITE_TRIALS trials of each task (default 3). Set-up is the fresh workspace, the
 * host and the task's starting resources; scoring is the rubric's checks. The baseline, measured in
 * the same run, is the hand-written least a trial must do: a fresh temporary folder, `Host.open`
 * on it and `close`, as many times as there are trials. Asserts nothing.
 *
 *   npm run bench:harness -w @cowork/bench
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Host, runSuite, runtimeSuite } from '@cowork/host/embed';
import { latencyLine } from '../stats';

const TRIALS = Number(process.env.BENCH_SUITE_TRIALS ?? 3);

async function main(): Promise<void> {
  const out = mkdtempSync(join(tmpdir(), 'cowork-bench-harness-'));
  try {
    const results = await runSuite({
      suite: runtimeSuite,
      trials: TRIALS,
      model: { kind: 'script', dir: join(runtimeSuite.dir, 'solutions', 'reference') },
      modelName: 'replay',
      host: {},
      outDir: out,
    });
    const ms = (pick: (t: (typeof results.trials)[number]) => number) => results.trials.map((t) => pick(t) * 1000);
    const invalid = results.trials.filter((t) => t.status === 'invalid').length;
    console.log(`runtime suite replayed: ${results.trials.length} trials (${TRIALS} a task), ${invalid} invalid`);
    const bare = await bareHostOpens(results.trials.length);
    console.log(latencyLine('baseline: a temp folder, Host.open and close', bare, 48));
    console.log(latencyLine('harness: set-up (workspace, host, resources)', ms((t) => t.setupSeconds), 48));
    console.log(latencyLine('harness: scoring (rubric checks)', ms((t) => t.scoringSeconds), 48));
    console.log(latencyLine('runtime: the task itself', ms((t) => t.seconds), 48));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The hand-written least a trial does before its task: a fresh workspace and a host opened on it (and closed). */
async function bareHostOpens(count: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const dir = mkdtempSync(join(tmpdir(), 'cowork-bench-bare-'));
    const host = await Host.open({ workspaceDir: dir });
    await host.close();
    samples.push(performance.now() - start);
    rmSync(dir, { recursive: true, force: true });
  }
  return samples;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
