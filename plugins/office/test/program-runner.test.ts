// Invariant: the preview's programs are started by the program runner, a small process of its own,
// never by the host process (forking a large process stalls its event loop): a program's parent is
// the runner. Its output, exit failures, a missing program and an abort (the program's whole group
// is gone before the caller hears of it) reach the caller as they did when the host started them,
// and a runner that dies fails only what it was running; the next program starts a new one.
import { readdirSync, readFileSync } from 'node:fs';
import { isCoworkError } from '@cowork/host';
import { runProgram } from '../src/preview/run-program';
import { waitFor } from './preview-support';

const options = { signal: new AbortController().signal, timeoutMs: 30_000, packages: 'coreutils' };

/** The running processes (pid, parent pid, command line) whose command line includes `text`, read from /proc. */
function processes(text = ''): { pid: number; ppid: number; cmdline: string }[] {
  const found: { pid: number; ppid: number; cmdline: string }[] = [];
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      if (!cmdline.includes(text)) continue;
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
      found.push({ pid: Number(name), ppid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]), cmdline });
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

function commandLine(pid: number): string {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
}

describe('program runner', () => {
  it('starts programs from the runner process and answers with their output', async () => {
    expect(await runProgram('echo', ['from', 'the', 'runner'], options)).toBe('from the runner\n');
    const controller = new AbortController();
    const running = runProgram('sleep', ['7.25'], { ...options, signal: controller.signal });
    await waitFor(() => processes('sleep 7.25').length > 0, 'sleep to start');
    const [sleep] = processes('sleep 7.25');
    expect(sleep!.ppid).not.toBe(process.pid);
    expect(commandLine(sleep!.ppid)).toContain('program-runner');
    const runner = processes().find((p) => p.pid === sleep!.ppid)!;
    expect(runner.ppid).toBe(process.pid);
    controller.abort(new Error('the person left'));
    await expect(running).rejects.toThrow('the person left');
    expect(processes('sleep 7.25')).toEqual([]);
  });

  it('reports a failing and a missing program with their reasons', async () => {
    const failed = await runProgram('sh', ['-c', 'echo broken >&2; exit 3'], options).catch((e: unknown) => e);
    expect(isCoworkError(failed) && failed.details).toMatchObject({ reason: 'program_failed', command: 'sh' });
    expect((failed as Error).message).toMatch(/exit 3.*broken/);
    const missing = await runProgram('no-such-program-here', [], options).catch((e: unknown) => e);
    expect(isCoworkError(missing) && missing.details.reason).toBe('program_missing');
    expect((missing as Error).message).toContain('apt-get install coreutils');
  });

  it('fails what a dying runner was running, and starts a new runner for the next program', async () => {
    const running = runProgram('sleep', ['7.5'], options);
    await waitFor(() => processes('sleep 7.5').length > 0, 'sleep to start');
    const runnerPid = processes('sleep 7.5')[0]!.ppid;
    process.kill(runnerPid, 'SIGKILL');
    const error = await running.catch((e: unknown) => e);
    expect(isCoworkError(error) && error.details.reason).toBe('program_failed');
    expect((error as Error).message).toMatch(/program runner stopped/);
    // The orphaned sleep is not ours to wait for; end it so nothing is left behind.
    for (const { pid } of processes('sleep 7.5')) process.kill(pid, 'SIGKILL');
    expect(await runProgram('echo', ['again'], options)).toBe('again\n');
  });
});
