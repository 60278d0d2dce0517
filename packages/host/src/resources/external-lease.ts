import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CoworkError } from '../errors';
import { isSameProcess, processStartTime, type ProcessRef } from '../util/process-identity';

/** Who drives a resource's application now: a process (pid and start time) and one host in it. */
interface LeaseHolder extends ProcessRef {
  readonly token: string;
}

const LEASE_FILE = 'session.lease';

/**
 * One host at a time drives an external resource's application: two hosts (a server and a CLI
 * command, or two servers) each taking its own per-resource lock would interleave their ops. The
 * lease is a file in the resource directory naming the holder; a holder that is no longer running
 * (a crashed host) is replaced. Returns the release function.
 */
export function takeExternalLease(resourceDir: string, resourceId: string): () => void {
  const path = join(resourceDir, LEASE_FILE);
  const me: LeaseHolder = { pid: process.pid, startTime: processStartTime(process.pid) ?? null, token: randomBytes(8).toString('hex') };
  for (let attempt = 0; attempt < 3; attempt++) {
    if (create(path, me)) return () => release(path, me);
    const holder = read(path);
    if (holder && isSameProcess(holder)) {
      throw new CoworkError('external_unavailable', `resource ${resourceId} is driven by another host (pid ${holder.pid}); make changes through that host, or stop it first`, {
        reason: 'held_by_another_host',
        resourceId,
        holderPid: holder.pid,
      });
    }
    // The holder is gone (a crashed host): its lease is stale.
    rmSync(path, { force: true });
  }
  throw new CoworkError('external_unavailable', `could not take the lease of resource ${resourceId}`, { reason: 'lease_contended', resourceId });
}

/** Creates the lease atomically: written aside, then linked into place, which fails if one exists. */
function create(path: string, me: LeaseHolder): boolean {
  const temporary = `${path}.${me.token}`;
  writeFileSync(temporary, JSON.stringify(me));
  try {
    linkSync(temporary, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(temporary);
  }
}

function read(path: string): LeaseHolder | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LeaseHolder;
  } catch {
    return undefined;
  }
}

function release(path: string, me: LeaseHolder): void {
  if (read(path)?.token === me.token) rmSync(path, { force: true });
}
