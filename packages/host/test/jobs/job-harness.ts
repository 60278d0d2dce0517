import { spawn } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JobService, type JobServiceOptions } from '../../src/jobs/job-service';
import { isSameProcess, processStartTime, signalGroup } from '../../src/util/process-identity';
import type { JobRecord } from '../../src/store/job-records';
import { openWorkspaceStore } from '../../src/store/open-store';
import type { Store } from '../../src/store/store';

/** A workspace with a store and job services over it; `dispose` kills every job process it started. */
export interface JobsFixture {
  readonly dir: string;
  readonly store: Store;
  readonly service: JobService;
  /** Another service over the same workspace: a restarted host, as far as jobs are concerned. */
  reopen(options?: Partial<JobServiceOptions>): JobService;
  dispose(): Promise<void>;
}

export async function jobsFixture(options: Partial<JobServiceOptions> = {}): Promise<JobsFixture> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cowork-jobs-')));
  const store = await openWorkspaceStore(dir);
  const services: JobService[] = [];
  const reopen = (more: Partial<JobServiceOptions> = {}): JobService => {
    const service = new JobService({ store, workspaceDir: dir, ...options, ...more });
    services.push(service);
    return service;
  };
  const service = reopen();
  return {
    dir,
    store,
    service,
    reopen,
    async dispose() {
      for (const s of services) await s.close();
      killJobProcesses(await store.read((tx) => tx.jobs.list()));
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** SIGKILLs the supervisor and the process group of each job, where they are still the job's own. */
export function killJobProcesses(jobs: readonly JobRecord[]): void {
  for (const job of jobs) {
    if (job.supervisorPid !== null && isSameProcess({ pid: job.supervisorPid, startTime: job.supervisorStartTime })) {
      process.kill(job.supervisorPid, 'SIGKILL');
    }
    if (job.pid !== null && isSameProcess({ pid: job.pid, startTime: job.processStartTime })) signalGroup(job.pid, 'SIGKILL');
  }
}

/** Polls `read` until `done` holds for its value, failing after `timeoutMs` with the last value seen. */
export async function waitFor<T>(read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 15_000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() >= deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((resolveDelay) => setTimeout(resolveDelay, intervalMs));
  }
}

/** Waits until the job is no longer running. */
export function waitForEnd(service: JobService, id: string, timeoutMs = 15_000): Promise<JobRecord> {
  return waitFor(() => service.get(id), (job) => job.status !== 'running', timeoutMs);
}

/** Whether the pid is a live process at all (whoever it is now; a zombie is not). */
export function pidAlive(pid: number): boolean {
  return processStartTime(pid) !== undefined;
}

/** A process that has nothing to do with any job, in its own group; `stop` kills it. */
export function unrelatedProcess(): { pid: number; stop: () => void } {
  const child = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
  child.unref();
  const pid = child.pid!;
  return { pid, stop: () => signalGroup(pid, 'SIGKILL') };
}
