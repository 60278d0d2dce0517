import type { Approvals } from '../approvals/approvals';
import type { Coordinator } from '../coordinator/coordinator';
import type { JobService } from '../jobs/job-service';
import type { MonitorService } from '../monitors/monitor-service';
import type { PluginRegistry } from '../plugins/registry';
import type { ResourceApi } from '../plugins/resource-api';
import type { Store } from '../store/store';
import type { Leases } from '../store/leases/leases';
import type { InboxFeed } from './inbox-feed';
import type { Publications } from './publications';
import type { Runs } from './runs';
import type { WorkHistory } from './work-history';

/**
 * The services the agent runtime works with. The `Host` that opens a workspace provides them; the
 * runtime depends on this shape, not on the host that assembles it (which sits above it).
 */
export interface HostServices {
  readonly workspaceDir: string;
  readonly store: Store;
  /** One host at a time runs a task: its Main loop holds the task's lease (see runtime.ts). */
  readonly leases: Leases;
  readonly registry: PluginRegistry;
  readonly resources: ResourceApi;
  readonly coordinator: Coordinator;
  readonly jobs: JobService;
  readonly monitors: MonitorService;
  readonly approvals: Approvals;
  readonly publications: Publications;
  /** Tasks' runs: experiments with their jobs, params and metrics (see runs.ts). */
  readonly runs: Runs;
  /** Tasks' `work/` folders under git (absent: no snapshots). */
  readonly workHistory?: WorkHistory;
  /** Other hosts' Inbox posts, to wake agents parked here (absent on SQLite: one machine). */
  readonly inboxFeed?: InboxFeed;
}
