import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * Who holds a lease: `<host id>:<pid>:<nonce>`. The host id names the machine (default its
 * hostname; COWORK_HOST_ID where machines share one), the pid the process, the nonce the `Host`
 * (two hosts opened in one process are two holders).
 */
export interface HolderId {
  readonly hostId: string;
  readonly pid: number;
  readonly text: string;
}

export function newHolderId(hostId: string = hostname()): HolderId {
  const clean = hostId.replace(/:/g, '_');
  return { hostId: clean, pid: process.pid, text: `${clean}:${process.pid}:${randomBytes(4).toString('hex')}` };
}

/**
 * Whether `holder` is provably gone: it ran on this machine (same host id), in another process,
 * and that process no longer exists. Anything else (another machine, a live pid, a text that does
 * not parse) is not known to be gone, and its lease is waited out.
 */
export function provablyGone(holder: string, self: HolderId): boolean {
  const [hostId, pidText] = holder.split(':');
  const pid = Number(pidText);
  if (hostId !== self.hostId || !Number.isInteger(pid) || pid <= 0 || pid === self.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: the pid exists (another user's process); only ESRCH says it is gone.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
