import type { JobProcessIdentity, JobRecord } from '../store/job-records';
import { type ExitFile, type IdentityFile, type JobPaths } from './job-files';
import { readJsonFile } from '../util/atomic-file';
import { groupAlive, isSameProcess, signalGroup, signalProcess, type ProcessRef } from '../util/process-identity';
import type { JobObservation } from './reconcile';

/** The processes of a job, from its record or, before the record has them, from identity.json. */
interface JobRefs {
  readonly supervisor: ProcessRef;
  readonly command: ProcessRef;
}

/** An observation, plus the identity read from identity.json when the record did not have it yet. */
export interface Observed extends JobObservation {
  readonly identity?: JobProcessIdentity;
}

/**
 * Looks at a running job's processes and files. Liveness is checked before exit.json is read
 * (see `JobObservation`): the other order could see neither and call a job that just finished
 * `uncertain`.
 */
export function observe(record: JobRecord, paths: JobPaths, nowMs: number): Observed {
  const file = record.pid === null ? readJsonFile<IdentityFile>(paths.identity) : undefined;
  const identity = file && { ...file, pgid: file.pid };
  const refs = refsOf(identity ?? record);
  const supervisorAlive = refs !== undefined && isSameProcess(refs.supervisor);
  const processAlive = refs !== undefined && isSameProcess(refs.command);
  const exit = readJsonFile<ExitFile>(paths.exit);
  return {
    identityKnown: refs !== undefined,
    supervisorAlive,
    processAlive,
    exit,
    ageMs: nowMs - Date.parse(record.createdAt),
    ...(identity && { identity }),
  };
}

/**
 * Looks at a running job of another machine, where its processes cannot be checked: `hostRunning`
 * (whether a host there runs, found first: liveness before exit.json, as above) and its exit
 * record, which the supervisor there wrote into the shared workspace folder.
 */
export function observeElsewhere(record: JobRecord & { hostId: string }, paths: JobPaths, nowMs: number, hostRunning: boolean): Observed {
  return {
    identityKnown: record.pid !== null,
    supervisorAlive: false,
    processAlive: false,
    exit: readJsonFile<ExitFile>(paths.exit),
    ageMs: nowMs - Date.parse(record.createdAt),
    elsewhere: { hostId: record.hostId, hostRunning },
  };
}

/**
 * Asks a running job to stop. With its supervisor alive, SIGTERM to the supervisor, which
 * SIGTERMs the command's group and SIGKILLs it after the grace period (so the escalation survives
 * the host). With the supervisor gone but the command alive, SIGTERM to the group here, and the
 * returned function is the SIGKILL the caller sends when the grace period is over. A pid that is
 * no longer the job's process is never signalled.
 */
export function signalJob(record: JobRecord): (() => void) | undefined {
  const refs = refsOf(record);
  if (!refs) return undefined;
  if (isSameProcess(refs.supervisor) && signalProcess(refs.supervisor.pid, 'SIGTERM')) return undefined;
  if (!isSameProcess(refs.command)) return undefined;
  const pgid = refs.command.pid;
  signalGroup(pgid, 'SIGTERM');
  return () => {
    if (isSameProcess(refs.command) || groupAlive(pgid)) signalGroup(pgid, 'SIGKILL');
  };
}

function refsOf(p: Pick<JobRecord, 'pid' | 'processStartTime' | 'supervisorPid' | 'supervisorStartTime'>): JobRefs | undefined {
  if (p.pid === null || p.supervisorPid === null) return undefined;
  return {
    supervisor: { pid: p.supervisorPid, startTime: p.supervisorStartTime },
    command: { pid: p.pid, startTime: p.processStartTime },
  };
}
