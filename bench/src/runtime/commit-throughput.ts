/**
 * The runtime commit benchmark: commits/s and p50/p99 commit latency of the resource protocol on
 * the `text` kind, next to a plain SQLite compare-and-set loop, for synchronous=FULL and NORMAL.
 * Prints a table and writes the same figures to bench/results/commit-throughput.json.
 *
 * BENCH_SECONDS sets the measured seconds per run (default 3); TMPDIR picks the disk it runs on.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeMachine, formatMachine, formatTable, LEGEND } from './report';
import { DEFAULT_CASES, runCommitSuite } from './suite';
import { formatFirstCycle, measureFirstWalCycle } from './wal-first-cycle';

const RESULTS_FILE = join(__dirname, '..', '..', 'results', 'commit-throughput.json');
const WARMUP_SECONDS = 0.5;

async function main(): Promise<void> {
  const seconds = secondsFromEnv(process.env.BENCH_SECONDS, 3);
  const machine = describeMachine();
  console.log(formatMachine(machine, seconds, WARMUP_SECONDS));
  const { runs, comparisons } = await runCommitSuite({
    seconds,
    warmupSeconds: WARMUP_SECONDS,
    syncModes: ['FULL', 'NORMAL'],
    cases: DEFAULT_CASES,
    onResult: (r) => console.error(`  done: ${r.sync} ${r.shape} x${r.writers} ${r.documents} ${r.implementation}`),
  });
  console.log();
  console.log(formatTable(runs, comparisons));
  console.log();
  console.log(LEGEND);
  const firstCycle = await measureFirstWalCycle();
  console.log();
  console.log(formatFirstCycle(firstCycle));
  mkdirSync(join(RESULTS_FILE, '..'), { recursive: true });
  const report = {
    benchmark: 'commit-throughput',
    at: new Date().toISOString(),
    machine,
    seconds,
    warmupSeconds: WARMUP_SECONDS,
    runs,
    comparisons,
    firstCycle,
  };
  writeFileSync(RESULTS_FILE, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwrote ${RESULTS_FILE}`);
}

function secondsFromEnv(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new Error(`BENCH_SECONDS must be a positive number, got ${JSON.stringify(value)}`);
  return seconds;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
