/**
 * Invariant: a job whose processes were killed from outside, leaving no exit record, is reported
 * `uncertain`, never `succeeded`; a recorded pid that now belongs to another process is not taken
 * for the job (it is neither counted as running nor ever signalled); when only the command is
 * killed, the supervisor records the true outcome.
 */
import { signalJob } from '../../src/jobs/observe';
import { signalGroup } from '../../src/util/process-identity';
import { jobsFixture, pidAlive, unrelatedProcess, waitFor, waitForEnd, type JobsFixture } from './job-harness';

let fx: JobsFixture;
beforeEach(async () => {
  fx = await jobsFixture();
});
afterEach(async () => {
  await fx.dispose();
});

describe('processes gone without an exit record', () => {
  it('reports a job killed from outside as uncertain', async () => {
    const job = await fx.service.start({ command: 'sleep', args: ['30'] });
    process.kill(job.supervisorPid!, 'SIGKILL');
    signalGroup(job.pgid!, 'SIGKILL');
    await waitFor(() => pidAlive(job.supervisorPid!) || pidAlive(job.pid!), (alive) => !alive);
    const after = await fx.reopen().get(job.id);
    expect(after).toMatchObject({ status: 'uncertain', exitCode: null, signal: null });
    expect(after.error).toMatch(/no exit record/);
  });

  it('keeps a job running while its command lives on without the supervisor, uncertain once it is gone', async () => {
    const job = await fx.service.start({ command: 'sleep', args: ['30'] });
    process.kill(job.supervisorPid!, 'SIGKILL');
    await waitFor(() => pidAlive(job.supervisorPid!), (alive) => !alive);
    expect((await fx.service.get(job.id)).status).toBe('running');
    signalGroup(job.pgid!, 'SIGKILL');
    expect((await waitForEnd(fx.service, job.id)).status).toBe('uncertain');
  });

  it('records the true outcome when only the command is killed', async () => {
    const job = await fx.service.start({ command: 'sleep', args: ['30'] });
    signalGroup(job.pgid!, 'SIGKILL');
    expect(await waitForEnd(fx.service, job.id)).toMatchObject({ status: 'failed', signal: 'SIGKILL', exitCode: null });
  });
});

describe('a recorded pid that now belongs to another process', () => {
  it('is not mistaken for the job, and is never signalled', async () => {
    const job = await fx.service.start({ command: 'sleep', args: ['30'] });
    process.kill(job.supervisorPid!, 'SIGKILL');
    signalGroup(job.pgid!, 'SIGKILL');
    await waitFor(() => pidAlive(job.supervisorPid!) || pidAlive(job.pid!), (alive) => !alive);
    // The pids were reused: the record now names live processes that are not the job's
    // (same pids, other start times).
    const other = unrelatedProcess();
    try {
      const reused = { ...job, pid: other.pid, pgid: other.pid, supervisorPid: process.pid };
      await fx.store.transaction((tx) => tx.jobs.setProcess(job.id, { ...reused, startedAt: job.startedAt! }));
      expect(signalJob(reused)).toBeUndefined();
      expect((await fx.service.get(job.id)).status).toBe('uncertain');
      expect(pidAlive(other.pid)).toBe(true);
    } finally {
      other.stop();
    }
  });
});
