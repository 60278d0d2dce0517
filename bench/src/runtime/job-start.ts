/**
 * Time from `JobService.start` to the returned job: running, with its process identity (pid and
 * start time) recorded in the store. That is what `start_job` waits for before it answers the
 * model: the record is durable, a detached supervisor is launched, and the command is seen running.
 *
 * BENCH_JOB_SAMPLES (default 20), after 2 warm-up starts. Prints figures; asserts nothing.
 */
import { openTempHost } from '@cowork/host/testkit';
import { latencyLine } from '../stats';

const SAMPLES = Number(process.env.BENCH_JOB_SAMPLES ?? 20);
const WARMUP = 2;

async function main(): Promise<void> {
  const host = await openTempHost({ prefix: 'cowork-bench-jobs-' });
  const samples: number[] = [];
  try {
    for (let i = 0; i < WARMUP + SAMPLES; i++) {
      const started = performance.now();
      const job = await host.jobs.start({ command: 'sleep', args: ['30'], name: `bench-${i}` });
      const elapsed = performance.now() - started;
      const stored = await host.store.read((tx) => tx.jobs.get(job.id));
      if (job.status !== 'running' || job.pid === null || stored?.pid !== job.pid || stored.processStartTime === null) {
        throw new Error(`job ${job.id} was not returned running and recorded: ${JSON.stringify(stored)}`);
      }
      if (i >= WARMUP) samples.push(elapsed);
      await host.jobs.cancel(job.id, { graceMs: 0 });
    }
    console.log(`job start: JobService.start -> running job with recorded pid and start time, ${SAMPLES} samples (synchronous=FULL)`);
    console.log(latencyLine('JobService.start', samples, 20));
  } finally {
    await host.dispose();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
