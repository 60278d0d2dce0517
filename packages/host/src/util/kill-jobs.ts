import { processAlive, signalGroup } from './process-identity';

/** What killing a job needs of its record: its process group, and the processes to wait for. */
export interface JobProcesses {
  readonly pgid: number | null;
  readonly pid: number | null;
  readonly supervisorPid: number | null;
}

/**
 * Kills the process groups of jobs (SIGKILL) and waits until their processes and supervisors are
 * gone, so that nothing of them writes into a workspace about to be removed. Resolves true when
 * all are gone, false when some still ran after `timeoutMs`. For jobs a closed host left running
 * on purpose (an application that outlives a host, such as Blender), at the end of a test or trial.
 */
export async function killJobProcesses(jobs: readonly JobProcesses[], timeoutMs = 30_000): Promise<boolean> {
  for (const job of jobs) if (job.pgid !== null) signalGroup(job.pgid, 'SIGKILL');
  const pids = jobs.flatMap((job) => [job.pid, job.supervisorPid]).filter((pid): pid is number => pid !== null);
  const deadline = Date.now() + timeoutMs;
  while (pids.some(processAlive)) {
    if (Date.now() > deadline) return false;
    await new Promise((done) => setTimeout(done, 50));
  }
  return true;
}
