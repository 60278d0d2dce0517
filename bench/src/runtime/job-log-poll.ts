/**
 * What one poll of a `job_log` monitor costs on a long job's log: a job writes about 30 MiB (its
 * log rotates into three 10 MiB files), then a line every 100 ms, like a training run. Each poll
 * counts the lines matching a pattern two ways: reading the whole retained log (`jobs.logs` with
 * `search`, what the monitor did before) and with the incremental counter the monitor now keeps
 * (`jobs.logMatchCounter`), which reads only what was appended. Both must give the same count:
 * while the job writes, the full read's count must lie between the counter's counts taken just
 * before and just after it (it reads the log at a moment between them, and matches only grow here:
 * nothing matching is rotated away); once the job has stopped, the two must be equal.
 *
 * BENCH_LOG_MIB (default 30), BENCH_LOG_POLLS (default 20). Prints figures; asserts nothing.
 */
import { openTempHost } from '@cowork/host/testkit';
import { timed } from '../clock';
import { latencyLine } from '../stats';
import { machineLine } from './report';

const MIB = Number(process.env.BENCH_LOG_MIB ?? 30);
const POLLS = Number(process.env.BENCH_LOG_POLLS ?? 20);
const PATTERN = '^step \\d+ loss=';

async function main(): Promise<void> {
  const host = await openTempHost({ pollMonitors: false, prefix: 'cowork-bench-joblog-' });
  try {
    const script = `head -c ${MIB * 1024 * 1024} /dev/zero | tr '\\0' x | fold -w 99; i=0; while true; do i=$((i+1)); echo "step $i loss=0.$i"; sleep 0.1; done`;
    const job = await host.jobs.start({ command: 'bash', args: ['-c', script], cwd: host.dir, name: 'bench log writer' });
    // Wait for the bulk to be written: the first step line marks its end.
    for (;;) {
      const logs = await host.jobs.logs(job.id, { search: PATTERN, tail: 1 });
      if ((logs.matches ?? 0) > 0) break;
      await sleep(200);
    }
    const counter = await host.jobs.logMatchCounter(job.id, 'stdout', PATTERN);
    const [, firstCount] = await timed(async () => counter.count());
    const full: number[] = [];
    const incremental: number[] = [];
    let disagreements = 0;
    for (let i = 0; i < POLLS; i++) {
      await sleep(250);
      const [counted, incrementalMs] = await timed(async () => counter.count());
      const [logs, fullMs] = await timed(() => host.jobs.logs(job.id, { search: PATTERN, tail: 1 }));
      // Lines land between the reads (one every 100 ms; a full read takes tens of ms): the full
      // read saw the log at some moment after `counted` and before `after`.
      const after = counter.count();
      const seen = logs.matches ?? 0;
      if (seen < counted.matches || seen > after.matches) disagreements += 1;
      full.push(fullMs);
      incremental.push(incrementalMs);
    }
    await host.jobs.cancel(job.id);
    // The log no longer changes: both reads see the same text.
    const last = counter.count();
    const logs = await host.jobs.logs(job.id, { search: PATTERN, tail: 1 });
    const stoppedAgree = last.matches === logs.matches && last.lastMatch === (logs.lines[0]?.text ?? null);
    console.log(`job_log monitor poll on a ${MIB} MiB rotated log gaining a line every 100 ms, ${POLLS} polls (${machineLine()})`);
    console.log(latencyLine('whole retained log read per poll', full, 36));
    console.log(latencyLine('incremental counter per poll', incremental, 36));
    console.log(`incremental counter's first count (reads everything once): ${firstCount.toFixed(1)} ms`);
    console.log(`counts that disagreed (full read outside the counter's counts just before and after it): ${disagreements}`);
    console.log(
      `after the job stopped: counter ${last.matches} matches, full read ${logs.matches} (${stoppedAgree ? 'equal, last match too' : 'DIFFERENT'})`,
    );
  } finally {
    await host.dispose();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
