import type { InboxRecord } from '../store/agent-records';
import { listingOnce, type ListOptions } from './gate-contributors';
import type { HostServices } from './host-services';
import type { Runs } from './runs';
import type { RunningTokenTotals } from './token-totals';

/** What Main's projection is built from each turn (see readProjectionInputs). */
export interface ProjectionInputs {
  readonly pendingForMain: readonly InboxRecord[];
  /** The task's running jobs and active monitors, for its gate and its runs digest alike. */
  readonly listers: ReturnType<typeof listingOnce>;
  readonly runs: Pick<Runs, 'list'>;
  /** The task's model-call tokens so far. */
  readonly tokensUsed: number;
}

/**
 * Reads what Main's projection needs (Main's pending messages, the task's running jobs, active
 * monitors and runs, the model calls since the last turn) in one read transaction rather than one
 * each: every turn builds the projection, and each transaction of its own cost about 15 us a turn
 * (bench:turns). What must be reconciled before it is listed (a running job, whose process and log
 * are looked at; a run still reading a job's output) is left to the services, which then answer
 * those questions as before, once for the gate and the digest together.
 */
export async function readProjectionInputs(host: HostServices, taskId: string, tokens: RunningTokenTotals): Promise<ProjectionInputs> {
  const running = { status: 'running', taskId } as const;
  const active = { status: 'active', taskId } as const;
  const read = await host.store.read(async (tx) => ({
    pendingForMain: await tx.inbox.pending(taskId, 'main'),
    jobs: await host.jobs.listSettled(tx, running),
    monitors: await host.monitors.listIn(tx, active),
    runs: await host.runs.listSettled(tx, taskId),
    tokens: await tokens.readIn(tx),
  }));
  // Asked of the services only when a job runs or a question differs (rare): made then.
  let shared: ReturnType<typeof listingOnce> | undefined;
  const services = (): ReturnType<typeof listingOnce> => (shared ??= listingOnce(host.jobs, host.monitors));
  return {
    pendingForMain: read.pendingForMain,
    listers: {
      jobs: {
        list: (options) => (read.jobs && sameListing(options, running) ? Promise.resolve(read.jobs) : services().jobs.list(options)),
        logs: (id, query) => services().jobs.logs(id, query),
      },
      monitors: { list: (options) => (sameListing(options, active) ? Promise.resolve(read.monitors) : services().monitors.list(options)) },
    },
    runs: { list: (id) => (read.runs && id === taskId ? Promise.resolve(read.runs) : host.runs.list(id)) },
    tokensUsed: read.tokens.total,
  };
}

function sameListing(asked: ListOptions | undefined, read: ListOptions): boolean {
  return asked?.status === read.status && asked?.taskId === read.taskId && asked?.limit === read.limit;
}
