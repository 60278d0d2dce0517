/**
 * Invariant: cancel sends SIGTERM to the job's whole process group and SIGKILL after the grace
 * period if anything is left, and the job ends `cancelled`; this holds when the supervisor is
 * gone too (the host then escalates itself). A job that already ended is returned unchanged.
 */
import { pidAlive, jobsFixture, waitFor, waitForEnd, type JobsFixture } from './job-harness';

/** Traps TERM (logging it) and keeps going, so only SIGKILL stops it. */
const STUBBORN = ['-c', 'trap "echo got TERM" TERM; echo ready; while true; do sleep 0.05; done'];
/** Ignores TERM (its children too) and writes nothing more, so no SIGPIPE can end it either. */
const DEAF = ['-c', 'trap "" TERM; echo ready; while true; do sleep 0.05; done'];

let fx: JobsFixture;
beforeEach(async () => {
  fx = await jobsFixture();
});
afterEach(async () => {
  await fx.dispose();
});

async function readyJob(args: string[]): Promise<{ id: string; pid: number; supervisorPid: number }> {
  const job = await fx.service.start({ command: 'sh', args });
  await waitFor(() => fx.service.readLog(job.id, 'stdout'), (text) => text.includes('ready'));
  return { id: job.id, pid: job.pid!, supervisorPid: job.supervisorPid! };
}

describe('cancel', () => {
  it('ends a process that obeys SIGTERM without waiting for the grace period', async () => {
    const job = await readyJob(['-c', 'echo ready; exec sleep 30']);
    const started = Date.now();
    const cancelled = await fx.service.cancel(job.id, { graceMs: 10_000 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(cancelled).toMatchObject({ status: 'cancelled', signal: 'SIGTERM', exitCode: null });
    expect(cancelled.cancelRequestedAt).not.toBeNull();
  });

  it('SIGKILLs a process that traps SIGTERM once the grace period is over', async () => {
    const job = await readyJob(STUBBORN);
    const started = Date.now();
    const cancelled = await fx.service.cancel(job.id, { graceMs: 1000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(cancelled).toMatchObject({ status: 'cancelled', signal: 'SIGKILL' });
    expect(await fx.service.readLog(job.id, 'stdout')).toContain('got TERM');
    expect(pidAlive(job.pid)).toBe(false);
  });

  it('escalates from the host when the supervisor is gone', async () => {
    const job = await readyJob(DEAF);
    process.kill(job.supervisorPid, 'SIGKILL');
    await waitFor(() => pidAlive(job.supervisorPid), (alive) => !alive);
    const started = Date.now();
    const cancelled = await fx.service.cancel(job.id, { graceMs: 500 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(cancelled).toMatchObject({ status: 'cancelled', exitCode: null });
    expect(pidAlive(job.pid)).toBe(false);
  });

  it('returns a job that already ended unchanged', async () => {
    const job = await fx.service.start({ command: 'true' });
    const ended = await waitForEnd(fx.service, job.id);
    expect(await fx.service.cancel(job.id)).toEqual(ended);
  });
});
