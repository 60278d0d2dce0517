import type { JobService } from '../jobs/job-service';
import type { MonitorService } from '../monitors/monitor-service';
import type { JobStatus, JobRecord } from '../store/job-records';
import type { MonitorRecord, MonitorStatus } from '../store/monitor-records';
import type { GateContributor } from './completion-gate';

const DETAIL_CHARS = 120;

/** The host's own contributors: a task's running jobs and active monitors hold its gate open. */
export function hostGateContributors(host: LiveListers): GateContributor[] {
  return [runningJobs(host.jobs), activeMonitors(host.monitors)];
}

export interface JobLister {
  list(options: { status?: JobStatus; taskId?: string }): Promise<JobRecord[]>;
}

export interface MonitorLister {
  list(options: { status?: MonitorStatus; taskId?: string }): Promise<MonitorRecord[]>;
}

/** What the gate and the runs digest list: a task's jobs and monitors. */
export interface LiveListers {
  readonly jobs: JobLister;
  readonly monitors: MonitorLister;
}

/**
 * Listers that ask the store once per question, for one projection of Main's context: its gate and
 * its runs digest both list the task's running jobs and active monitors (each list of jobs first
 * reconciles every running job), and asked twice they cost five read transactions a turn.
 */
export function listingOnce(jobs: SharedJobs, monitors: SharedMonitors): { readonly jobs: SharedJobs; readonly monitors: SharedMonitors } {
  return {
    jobs: { list: once((options: OptionsOf<SharedJobs>) => jobs.list(options)), logs: (id, query) => jobs.logs(id, query) },
    monitors: { list: once((options: OptionsOf<SharedMonitors>) => monitors.list(options)) },
  };
}

type SharedJobs = Pick<JobService, 'list' | 'logs'>;
type SharedMonitors = Pick<MonitorService, 'list'>;
type OptionsOf<L extends { list(options?: object): unknown }> = NonNullable<Parameters<L['list']>[0]>;

/** The options both listers take; `once` tells them apart by these three. */
export interface ListOptions {
  readonly status?: string;
  readonly taskId?: string;
  readonly limit?: number;
}

/** `list` answered once per distinct options; later callers share the first answer (not to be changed). */
function once<O extends ListOptions, R>(list: (options: O) => Promise<R>): (options: O) => Promise<R> {
  const answers = new Map<string, Promise<R>>();
  return (options) => {
    // By field, not by JSON text: the gate asks { status, taskId }, the digest { taskId, status }.
    const key = `${options.status ?? ''}\u0000${options.taskId ?? ''}\u0000${options.limit ?? ''}`;
    let answer = answers.get(key);
    if (!answer) answers.set(key, (answer = list(options)));
    return answer;
  };
}

/** Jobs an agent of the task started that are still running (reconciled: a dead job does not block). */
export function runningJobs(jobs: JobLister): GateContributor {
  return async (taskId) =>
    (await jobs.list({ status: 'running', taskId })).map((job) => ({
      kind: 'running_job' as const,
      id: job.id,
      detail: `${job.name ?? [job.command, ...job.args].join(' ')}`.slice(0, DETAIL_CHARS) + ': wait for it to end, or cancel_job',
    }));
}

/** Monitors of the task that are still active. */
export function activeMonitors(monitors: MonitorLister): GateContributor {
  return async (taskId) =>
    (await monitors.list({ status: 'active', taskId })).map((monitor) => ({
      kind: 'active_monitor' as const,
      id: monitor.id,
      detail: `${monitor.kind} monitor${monitor.name ? ` ${monitor.name}` : ''}`.slice(0, DETAIL_CHARS) + ' is active: cancel_monitor when it is no longer needed',
    }));
}
