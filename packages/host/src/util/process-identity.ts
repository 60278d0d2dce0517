import { readFileSync } from 'node:fs';

/** A process as the host remembers it: its pid and when it started, so a reused pid is not mistaken for it. */
export interface ProcessRef {
  readonly pid: number;
  /** Clock ticks since boot (field 22 of /proc/<pid>/stat); null where /proc is not available. */
  readonly startTime: number | null;
}

/**
 * The start time of a live process, or undefined when there is no such process (a zombie counts as
 * gone: it has exited and only waits to be reaped). Null when the platform has no /proc.
 */
export function processStartTime(pid: number): number | null | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    if (process.platform === 'linux') return undefined;
    return signalZero(pid) ? null : undefined;
  }
  // The command name (field 2) is in parentheses and may itself hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z' || fields[0] === 'X') return undefined;
  const startTime = Number(fields[19]);
  return Number.isSafeInteger(startTime) ? startTime : null;
}

/** Whether `ref` names a live process that is still the one it was: same pid and same start time. */
export function isSameProcess(ref: ProcessRef): boolean {
  const now = processStartTime(ref.pid);
  if (now === undefined) return false;
  // Without /proc there is nothing to compare; a live pid is the best evidence there is.
  return now === null || ref.startTime === null || now === ref.startTime;
}

/** Whether any process of the group `pgid` is still alive. */
export function groupAlive(pgid: number): boolean {
  return signalZero(-pgid);
}

/** Whether the process `pid` is still alive (a zombie counts until it is reaped). */
export function processAlive(pid: number): boolean {
  return signalZero(pid);
}

/** Sends `signal` to the whole process group; false when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  return signalProcess(-pgid, signal);
}

/** Sends `signal` to one process (or, with a negative number, a group); false when it is gone. */
export function signalProcess(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

function signalZero(target: number): boolean {
  try {
    process.kill(target, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
