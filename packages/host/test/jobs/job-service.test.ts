/**
 * Invariant: a job runs its command in the working directory and environment it was given, and
 * ends with the command's true exit code and its whole output; `start` resolves only once the
 * process and its identity (pid and start time) are recorded; a repeated start with the same
 * idempotency key starts nothing new.
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { processStartTime, signalGroup } from '../../src/util/process-identity';
import type { JobRecord } from '../../src/store/job-records';
import { jobsFixture, pidAlive, waitFor, waitForEnd, type JobsFixture } from './job-harness';

let fx: JobsFixture;

beforeEach(async () => {
  fx = await jobsFixture();
});

afterEach(async () => {
  await fx.dispose();
});

describe('jobs', () => {
  it('records a running process with its identity before start resolves', async () => {
    const job = await fx.service.start({ command: 'sleep', args: ['30'], name: 'nap' }, { operator: 'agent:a' });
    expect(job).toMatchObject({ status: 'running', name: 'nap', command: 'sleep', args: ['30'], cwd: fx.dir, createdBy: 'agent:a' });
    expect(job.pid).not.toBeNull();
    expect(job.pgid).toBe(job.pid);
    expect(job.processStartTime).toBe(processStartTime(job.pid!));
    expect(job.supervisorStartTime).toBe(processStartTime(job.supervisorPid!));
    const stored = await fx.store.read((tx) => tx.jobs.get(job.id));
    expect(stored).toEqual(job);
    expect(await fx.service.list({ status: 'running' })).toEqual([job]);
  });

  it('ends with the true exit code, in the given cwd and environment, with both logs', async () => {
    mkdirSync(join(fx.dir, 'sub'));
    const job = await fx.service.start({
      command: 'sh',
      args: ['-c', 'pwd; echo "greeting=$GREETING"; echo oops >&2; exit 7'],
      cwd: 'sub',
      env: { GREETING: 'hello' },
    });
    const ended = await waitForEnd(fx.service, job.id);
    expect(ended).toMatchObject({ status: 'failed', exitCode: 7, signal: null, error: null });
    expect(ended.endedAt).not.toBeNull();
    expect(await fx.service.readLog(job.id, 'stdout')).toBe(`${join(fx.dir, 'sub')}\ngreeting=hello\n`);
    expect(await fx.service.readLog(job.id, 'stderr')).toBe('oops\n');
    // The supervisor writes the exit record and then exits: it must not linger (on a loaded machine it takes a moment).
    expect(await waitFor(() => pidAlive(job.supervisorPid!), (alive) => !alive, 5_000)).toBe(false);
  });

  it('succeeds only on exit code 0; a signal is a failure', async () => {
    const ok = await fx.service.start({ command: 'true' });
    const killed = await fx.service.start({ command: 'sh', args: ['-c', 'kill -9 $$'] });
    expect(await waitForEnd(fx.service, ok.id)).toMatchObject({ status: 'succeeded', exitCode: 0 });
    expect(await waitForEnd(fx.service, killed.id)).toMatchObject({ status: 'failed', exitCode: null, signal: 'SIGKILL' });
  });

  it('tails and searches the log', async () => {
    const job = await fx.service.start({ command: 'sh', args: ['-c', 'for i in 1 2 3 4 5 6; do echo "line $i"; done; echo "ERROR late"'] });
    await waitForEnd(fx.service, job.id);
    const tail = await fx.service.logs(job.id, { tail: 2 });
    expect(tail).toEqual({ jobId: job.id, stream: 'stdout', totalLines: 7, lines: [{ n: 6, text: 'line 6' }, { n: 7, text: 'ERROR late' }] });
    const found = await fx.service.logs(job.id, { search: 'line [246]$', tail: 2 });
    expect(found).toMatchObject({ matches: 3, lines: [{ n: 4, text: 'line 4' }, { n: 6, text: 'line 6' }] });
    await expect(fx.service.logs(job.id, { search: '(' })).rejects.toMatchObject({ code: 'invalid_input', details: { field: 'search' } });
  });

  it('caps each log by rotating it, keeping the newest output', async () => {
    await fx.dispose();
    fx = await jobsFixture({ log: { maxBytes: 1000, keep: 1 } });
    // 400 lines of 10 bytes: 4000 bytes through a 1000-byte cap with one rotated file.
    const job = await fx.service.start({ command: 'sh', args: ['-c', 'i=0; while [ $i -lt 400 ]; do printf "%09d\\n" $i; i=$((i+1)); done'] });
    await waitForEnd(fx.service, job.id);
    const dir = join(fx.dir, 'jobs', job.id);
    expect(readdirSync(dir).filter((name) => name.startsWith('stdout')).sort()).toEqual(['stdout.log', 'stdout.log.1']);
    const text = await fx.service.readLog(job.id, 'stdout');
    expect(text.length).toBe(2000);
    expect(text.endsWith('000000399\n')).toBe(true);
    expect(text.startsWith('000000200\n')).toBe(true);
  });

  it('returns the first job for a repeated idempotency key', async () => {
    const first = await fx.service.start({ command: 'sleep', args: ['30'] }, { idempotencyKey: 'task1:turn2:call3' });
    const again = await fx.service.start({ command: 'sleep', args: ['30'] }, { idempotencyKey: 'task1:turn2:call3' });
    expect(again.id).toBe(first.id);
    expect(await fx.service.list()).toHaveLength(1);
  });

  it("reconciles a task's jobs when that task's are listed, and leaves other tasks' to the watcher", async () => {
    const mine = await fx.service.start({ command: 'sh', args: ['-c', 'sleep 0.3; exit 3'] }, { taskId: 'task_a' });
    const theirs = await fx.service.start({ command: 'sh', args: ['-c', 'sleep 0.3; exit 4'] }, { taskId: 'task_b' });
    const stored = (id: string) => fx.store.read((tx) => tx.jobs.get(id));
    await waitFor(() => stored(mine.id), () => existsSync(join(fx.dir, 'jobs', mine.id, 'exit.json')) && existsSync(join(fx.dir, 'jobs', theirs.id, 'exit.json')));
    expect(await fx.service.list({ status: 'running', taskId: 'task_a' })).toEqual([]);
    expect(await stored(mine.id)).toMatchObject({ status: 'failed', exitCode: 3 });
    // Task B's job ended too, but nobody listed task B: its record waits for the watcher's tick.
    expect(await stored(theirs.id)).toMatchObject({ status: 'running' });
    expect(await fx.service.list({ taskId: 'task_b' })).toEqual([expect.objectContaining({ id: theirs.id, status: 'failed', exitCode: 4 })]);
  });

  it('notices an exit while watching, without being asked', async () => {
    const ended: JobRecord[] = [];
    const watching = fx.reopen({ pollMs: 50, onJobEnded: (job) => ended.push(job) });
    watching.watch();
    // The command outlives start(): an instant exit could be reconciled by start's own read instead.
    const job = await fx.service.start({ command: 'sh', args: ['-c', 'sleep 0.5; exit 3'] });
    await waitFor(() => ended, (list) => list.length > 0);
    expect(ended).toEqual([expect.objectContaining({ id: job.id, status: 'failed', exitCode: 3 })]);
    expect(existsSync(join(fx.dir, 'jobs', job.id, 'exit.json'))).toBe(true);
  });
});

describe('a job whose background child keeps its output open', () => {
  it('ends when the command exits, not when the last pipe closes', async () => {
    const job = await fx.service.start({ command: 'sh', args: ['-c', 'sleep 30 & echo started; exit 0'] });
    try {
      const ended = await waitForEnd(fx.service, job.id);
      expect(ended).toMatchObject({ status: 'succeeded', exitCode: 0 });
      expect(await fx.service.readLog(job.id, 'stdout')).toBe('started\n');
    } finally {
      signalGroup(job.pgid!, 'SIGKILL');
    }
  });
});
