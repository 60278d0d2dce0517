/**
 * The host's idle cost with many monitors: 100 file monitors polling every second, none of them
 * seeing a change. CPU is the process's own (user + system, `process.cpuUsage`) over a measured
 * window after a warm-up, as a share of one core. A host with no monitors is measured the same
 * way first, so that the difference is what the monitors cost. The aim: under 5% of one core.
 *
 * BENCH_MONITORS (default 100), BENCH_IDLE_SECONDS (default 10), BENCH_WARMUP_SECONDS (default 2).
 * Prints figures; asserts nothing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openTempHost } from '@cowork/host/testkit';

const MONITORS = Number(process.env.BENCH_MONITORS ?? 100);
const SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const INTERVAL_SECONDS = 1;

interface IdleFigures {
  readonly cpuPercent: number;
  readonly events: number;
  readonly polledInWindow: number;
}

async function measureIdle(monitors: number): Promise<IdleFigures> {
  const host = await openTempHost({ prefix: 'cowork-bench-monitors-' });
  try {
    let events = 0;
    host.monitors.onEvent(() => events++);
    for (let i = 0; i < monitors; i++) {
      writeFileSync(join(host.dir, `watched-${i}.txt`), `content of file ${i}\n`.repeat(50));
      await host.monitors.create({ kind: 'file', path: `watched-${i}.txt`, intervalSeconds: INTERVAL_SECONDS }, { owner: { taskId: 'task_bench' } });
    }
    await sleep(WARMUP_SECONDS * 1000);
    const windowStart = new Date().toISOString();
    const cpuBefore = process.cpuUsage();
    const started = process.hrtime.bigint();
    await sleep(SECONDS * 1000);
    const cpu = process.cpuUsage(cpuBefore);
    const elapsedUs = Number(process.hrtime.bigint() - started) / 1000;
    // Every monitor must have been polled during the window, or the figure would flatter an idle wheel.
    const polledInWindow = (await host.monitors.list({ status: 'active' })).filter((m) => (m.lastCheckedAt ?? '') > windowStart).length;
    return { cpuPercent: ((cpu.user + cpu.system) / elapsedUs) * 100, events, polledInWindow };
  } finally {
    await host.dispose();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function main(): Promise<void> {
  console.log(`monitors at rest: ${MONITORS} file monitors polling every ${INTERVAL_SECONDS} s, unchanged files, ${SECONDS} s measured after ${WARMUP_SECONDS} s warm-up`);
  const baseline = await measureIdle(0);
  const loaded = await measureIdle(MONITORS);
  const row = (label: string, f: IdleFigures, monitors: number): string =>
    `${label.padEnd(22)} ${f.cpuPercent.toFixed(2).padStart(7)} %   events ${String(f.events).padStart(3)}   polled in window ${f.polledInWindow}/${monitors}`;
  console.log(`${'host'.padEnd(22)} ${'CPU'.padStart(7)} (share of one core)`);
  console.log(row('no monitors', baseline, 0));
  console.log(row(`${MONITORS} monitors`, loaded, MONITORS));
  console.log(`monitors' own cost: ${(loaded.cpuPercent - baseline.cpuPercent).toFixed(2)} % of one core (aim: under 5 %)`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
