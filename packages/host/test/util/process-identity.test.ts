/**
 * Invariant: a process is recognised by its pid and its start time together: the same pid with
 * another start time (a reused pid) is not the process, and a process that exited is not alive.
 */
import { spawnSync } from 'node:child_process';
import { isSameProcess, processStartTime } from '../../src/util/process-identity';

describe('process identity', () => {
  it('knows a live process by pid and start time', () => {
    const startTime = processStartTime(process.pid);
    expect(typeof startTime).toBe('number');
    expect(isSameProcess({ pid: process.pid, startTime: startTime! })).toBe(true);
  });

  it('does not mistake another process with the same pid', () => {
    const startTime = processStartTime(process.pid)!;
    expect(isSameProcess({ pid: process.pid, startTime: startTime - 1 })).toBe(false);
  });

  it('sees an exited process as gone', () => {
    const pid = spawnSync('sh', ['-c', 'echo $$'], { encoding: 'utf8' }).stdout.trim();
    expect(processStartTime(Number(pid))).toBeUndefined();
    expect(isSameProcess({ pid: Number(pid), startTime: 1 })).toBe(false);
  });
});
