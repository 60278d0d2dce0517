/**
 * Invariant: `cowork jobs` drives the same durable jobs from the shell: `start` returns once the
 * process is recorded, `show` and `logs --follow` re-attach from a separate command and see the
 * true exit code and the whole log, `cancel` ends the job, and bad input comes back as the coded
 * error (as JSON with `--json`) with nothing started.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jobsCommand } from '../../src/cli/commands/jobs';
import { COMMANDS, main } from '../../src/cli/main';
import type { JobRecord } from '../../src/store/job-records';
import { jobsFixture, type JobsFixture } from './job-harness';

let fx: JobsFixture;
beforeEach(async () => {
  fx = await jobsFixture();
  script('count.sh', 'for i in 1 2 3; do echo line$i; sleep 0.2; done\nexit 7');
  script('forever.sh', 'echo ready\nexec sleep 30');
});
afterEach(async () => {
  await fx.dispose();
});

function script(name: string, body: string): void {
  writeFileSync(join(fx.dir, name), `#!/bin/sh\n${body}\n`);
  chmodSync(join(fx.dir, name), 0o755);
}

/** `options` inserted before any `--`, where cowork still reads options. */
function withOptions(args: readonly string[], ...options: string[]): string[] {
  const end = args.indexOf('--');
  return end === -1 ? [...args, ...options] : [...args.slice(0, end), ...options, ...args.slice(end)];
}

/** `cowork jobs <args...> --workspace <fixture>` in-process. */
async function jobs(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const argv = withOptions(args, '--workspace', fx.dir);
  let stdout = '';
  let stderr = '';
  const code = await main(
    ['jobs', ...argv],
    { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), env: { USER: 'tester' }, cwd: fx.dir },
    { ...COMMANDS, jobs: jobsCommand },
  );
  return { code, stdout, stderr };
}

async function json<T>(...args: string[]): Promise<T> {
  const run = await jobs(...withOptions(args, '--json'));
  if (run.code !== 0) throw new Error(`exit ${run.code}: ${run.stdout}${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

describe('cowork jobs', () => {
  it('starts a job, follows its log to the end and shows its true exit code', async () => {
    const job = await json<JobRecord>('start', '--name', 'counter', '--', './count.sh');
    expect(job).toMatchObject({ status: 'running', name: 'counter', command: './count.sh', pid: expect.any(Number) });

    const followed = await jobs('logs', job.id, '--follow');
    expect(followed).toEqual({ code: 0, stdout: 'line1\nline2\nline3\n', stderr: '' });
    expect(await json<JobRecord>('show', job.id)).toMatchObject({ id: job.id, status: 'failed', exitCode: 7 });
    expect(await json<{ jobs: JobRecord[] }>()).toEqual({ jobs: [expect.objectContaining({ id: job.id, status: 'failed' })] });
    expect(await json('logs', job.id, '--tail', '1')).toMatchObject({ lines: [{ n: 3, text: 'line3' }], totalLines: 3 });
    expect((await jobs('show', job.id)).stdout).toContain('exit code: 7');
  });

  it('passes the arguments after -- to the command as they are', async () => {
    const job = await json<JobRecord>('start', '--', 'sh', '-c', 'echo "$0|$1"; exit 5', 'a', 'b c');
    expect(job).toMatchObject({ command: 'sh', args: ['-c', 'echo "$0|$1"; exit 5', 'a', 'b c'] });
    expect((await jobs('logs', job.id, '--follow')).stdout).toBe('a|b c\n');
    expect(await json<JobRecord>('show', job.id)).toMatchObject({ status: 'failed', exitCode: 5 });
  });

  it('cancels a running job', async () => {
    const job = await json<JobRecord>('start', '--', './forever.sh');
    expect(await json<JobRecord>('cancel', job.id, '--grace', '2000')).toMatchObject({ status: 'cancelled', signal: 'SIGTERM' });
  });

  it("says that a person's job runs unsandboxed, and confines it with --sandbox", async () => {
    const open = await jobs('start', '--', 'sh', '-c', 'echo open > open.txt');
    expect(open.stdout).toMatch(/^started job_\S+ .*\nnot sandboxed: it runs with your permissions/);
    expect(JSON.parse((await jobs('start', '--json', '--', 'true')).stdout)).toMatchObject({ sandboxed: false });

    mkdirSync(join(fx.dir, 'box'));
    const boxed = await json<JobRecord & { sandboxed: boolean }>('start', '--sandbox', '--cwd', 'box', '--', 'sh', '-c', `echo in > in.txt; echo out > ${fx.dir}/out.txt`);
    expect(boxed).toMatchObject({ sandboxed: true, cwd: join(fx.dir, 'box') });
    expect((await jobs('logs', boxed.id, '--follow')).code).toBe(0);
    expect(readFileSync(join(fx.dir, 'box', 'in.txt'), 'utf8')).toBe('in\n');
    expect(existsSync(join(fx.dir, 'out.txt'))).toBe(false);
    const whole = await jobs('start', '--sandbox', '--cwd', '.', '--json', '--', 'true');
    expect(JSON.parse(whole.stdout)).toMatchObject({ error: { code: 'invalid_input', field: 'workDir', reason: 'outside_work_area' } });
  });

  it('refuses bad input with the coded error and starts nothing', async () => {
    const missing = await jobs('start', '--json', '--', 'no-such-command-4711');
    expect(missing.code).not.toBe(0);
    expect(JSON.parse(missing.stdout)).toMatchObject({ error: { code: 'command_not_found' } });
    const outside = await jobs('start', '--cwd', '/', '--json', '--', './count.sh');
    expect(outside.code).toBe(2);
    expect(JSON.parse(outside.stdout)).toMatchObject({ error: { code: 'invalid_input', field: 'cwd', reason: 'outside_workspace' } });
    expect((await jobs('show', 'job_nope', '--json')).code).toBe(4);
    expect(await json<{ jobs: JobRecord[] }>()).toEqual({ jobs: [] });
  });
});
