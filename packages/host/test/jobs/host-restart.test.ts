/**
 * Invariant: a job outlives a SIGKILLed host. A restarted host re-attaches to it: the job is shown
 * running while it runs, then ended with its true exit code and its whole log.
 *
 * JOB_TEST_SECONDS sets the job's length (default 3; the judged run uses 20).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { jobsFixture, pidAlive, waitForEnd, type JobsFixture } from './job-harness';

const SECONDS = Number(process.env.JOB_TEST_SECONDS ?? 3);
const PACKAGE_DIR = resolve(__dirname, '../..');

let fx: JobsFixture;
beforeEach(async () => {
  fx = await jobsFixture();
});
afterEach(async () => {
  await fx.dispose();
});

/** Runs host-child.ts until it printed the started job's id, then SIGKILLs it. */
async function startJobAndKillHost(workspaceDir: string, mode: 'plain' | 'sandbox' = 'plain'): Promise<string> {
  const host = spawn(process.execPath, ['--import', 'tsx', resolve(__dirname, 'host-child.ts'), workspaceDir, String(SECONDS), mode], {
    cwd: PACKAGE_DIR,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  host.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const jobId = await new Promise<string>((resolveId, reject) => {
    host.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /^started (\S+)\n/m.exec(stdout);
      if (match) resolveId(match[1]!);
    });
    host.once('exit', (code) => reject(new Error(`host exited (${code}) before starting the job: ${stderr}`)));
  });
  const exited = new Promise((resolveExit) => host.once('exit', resolveExit));
  host.kill('SIGKILL');
  await exited;
  return jobId;
}

describe('host restart', () => {
  it(`re-attaches to a running job and records its true end (${SECONDS}s job)`, async () => {
    const jobId = await startJobAndKillHost(fx.dir);
    const restarted = fx.reopen();
    await restarted.reconcile();
    const running = await restarted.get(jobId);
    expect(running.status).toBe('running');
    expect(pidAlive(running.pid!)).toBe(true);

    const ended = await waitForEnd(restarted, jobId, (SECONDS + 20) * 1000);
    expect(ended).toMatchObject({ status: 'failed', exitCode: 7, signal: null, error: null });
    const expected = Array.from({ length: SECONDS }, (_, i) => `line${i + 1}\n`).join('');
    expect(await restarted.readLog(jobId, 'stdout')).toBe(expected);
  }, (SECONDS + 40) * 1000);

  it(`re-attaches to an agent's sandboxed job the same way (${SECONDS}s job)`, async () => {
    const jobId = await startJobAndKillHost(fx.dir, 'sandbox');
    const restarted = fx.reopen();
    await restarted.reconcile();
    expect((await restarted.get(jobId)).status).toBe('running');
    expect(await restarted.sandboxOf(jobId)).toMatchObject({ workDir: join(fx.dir, 'tasks', 'task_restart', 'work'), network: false });

    const ended = await waitForEnd(restarted, jobId, (SECONDS + 20) * 1000);
    expect(ended).toMatchObject({ status: 'failed', exitCode: 7, signal: null, error: null });
    const expected = Array.from({ length: SECONDS }, (_, i) => `line${i + 1}\n`).join('');
    expect(await restarted.readLog(jobId, 'stdout')).toBe(expected);
    // It wrote in its work folder all along.
    expect(readFileSync(join(fx.dir, 'tasks', 'task_restart', 'work', 'lines.txt'), 'utf8')).toBe(expected);
  }, (SECONDS + 40) * 1000);
});
