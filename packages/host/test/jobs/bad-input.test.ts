/**
 * Invariant: bad input to a job is refused with a coded error before anything is written or
 * started: a command that does not exist (`command_not_found`), a working directory outside the
 * workspace, symlinks included, or missing (`invalid_input`), an unknown job id (`not_found`).
 */
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkJobInput, type StartJobInput } from '../../src/jobs/job-input';
import { jobsFixture, type JobsFixture } from './job-harness';

let fx: JobsFixture;
beforeAll(async () => {
  fx = await jobsFixture();
  mkdirSync(join(fx.dir, 'inside'));
  symlinkSync('/tmp', join(fx.dir, 'escape'));
  writeFileSync(join(fx.dir, 'not-executable.sh'), 'echo hi\n');
  writeFileSync(join(fx.dir, 'file'), '');
});
afterAll(async () => {
  await fx.dispose();
});

async function refused(input: StartJobInput): Promise<{ code?: string; details?: Record<string, unknown> }> {
  try {
    await fx.service.start(input);
  } catch (error) {
    return error as { code?: string; details?: Record<string, unknown> };
  }
  throw new Error(`start(${JSON.stringify(input)}) was not refused`);
}

describe('bad job input', () => {
  afterEach(async () => {
    expect(await fx.service.list()).toEqual([]);
    expect(readdirSync(fx.dir).includes('jobs')).toBe(false);
  });

  it.each([
    ['a name not on PATH', { command: 'no-such-command-4711' }],
    ['a path that does not exist', { command: './missing.sh' }],
    ['a file that is not executable', { command: './not-executable.sh' }],
    ['a directory', { command: '/bin' }],
    ['a name on an empty PATH', { command: 'sh', env: { PATH: '/nonexistent' } }],
  ])('command_not_found: %s', async (_name, input) => {
    expect(await refused(input)).toMatchObject({ code: 'command_not_found', details: { command: input.command } });
  });

  it.each([
    ['an absolute path outside', { command: 'true', cwd: '/tmp' }, 'outside_workspace'],
    ['a relative path that climbs out', { command: 'true', cwd: 'inside/../..' }, 'outside_workspace'],
    ['a symlink that points outside', { command: 'true', cwd: 'escape' }, 'outside_workspace'],
    ['a directory that does not exist', { command: 'true', cwd: 'nowhere' }, 'missing'],
    ['a file', { command: 'true', cwd: 'file' }, 'not_a_directory'],
  ])('invalid_input: cwd is %s', async (_name, input, reason) => {
    expect(await refused(input)).toMatchObject({ code: 'invalid_input', details: { field: 'cwd', reason } });
  });

  it.each([
    ['an empty command', { command: ' ' }, 'command'],
    ['args that are not strings', { command: 'true', args: [1] as unknown as string[] }, 'args'],
    ['an environment variable with a bad name', { command: 'true', env: { 'A-B': 'x' } }, 'env'],
  ])('invalid_input: %s', async (_name, input, field) => {
    expect(await refused(input)).toMatchObject({ code: 'invalid_input', details: { field } });
  });

  it('not_found for an unknown job id', async () => {
    for (const call of [() => fx.service.get('job_nope'), () => fx.service.logs('job_nope'), () => fx.service.cancel('job_nope')]) {
      await expect(call()).rejects.toMatchObject({ code: 'not_found', details: { jobId: 'job_nope' } });
    }
  });

  it('accepts a cwd inside the workspace given as an absolute path', async () => {
    const inside = join(fx.dir, 'inside');
    expect(checkJobInput(fx.dir, { command: 'true', cwd: inside }).cwd).toBe(inside);
  });
});
