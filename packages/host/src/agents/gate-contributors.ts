import type { JobStatus, JobRecord } from '../store/job-records';
import type { MonitorRecord, MonitorStatus } from '../store/monitor-records';
import type { GateContributor } from './completion-gate';

const DETAIL_CHARS = 120;

/** The host's own contributors: a task's running jobs and active monitors hold its gate open. */
export function hostGateContributors(host: { jobs: JobLister; monitors: MonitorLister }): GateContributor[] {
  return [runningJobs(host.jobs), activeMonitors(host.monitors)];
}

interface JobLister {
  list(options: { status?: JobStatus; taskId?: string }): Promise<JobRecord[]>;
}

interface MonitorLister {
  list(options: { status?: MonitorStatus; taskId?: string }): Promise<MonitorRecord[]>;
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
