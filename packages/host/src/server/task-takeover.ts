import { taskLeaseKey } from '../agents/task-lease';
import { TERMINAL, type TaskState } from '../coordinator/state';
import { isCoworkError } from '../errors';
import type { HostServices } from '../agents/host-services';
import { provablyGone } from '../store/leases/holder';
import type { LeaseRecord } from '../store/lease-records';

const MAIN = 'main';
/** Failures a later look gets past by itself. */
const QUIET: ReadonlySet<string> = new Set(['store_unavailable', 'store_busy']);

export interface TaskTakeoverOptions {
  readonly host: Pick<HostServices, 'store' | 'coordinator' | 'leases'>;
  /** How often to look (the first look is at once). */
  readonly pollMs: number;
  /** Whether this process runs the task now. */
  running(taskId: string): boolean;
  /** Runs the task here from its log; its lease decides whether it may (a live holder elsewhere refuses it). */
  run(taskId: string): void;
  readonly onError: (error: unknown) => void;
}

/**
 * Takes over the tasks of hosts that died. A host runs a task while it holds the task's lease and
 * renews it; one that stops cleanly (Ctrl-C, a server closing) releases it, and its tasks wait
 * until someone resumes them. One that dies (SIGKILL, a lost machine) leaves its lease to expire:
 * every `pollMs` this host looks for unfinished tasks whose lease has expired, or whose holder ran
 * on this machine in a process that is gone, and runs them here from their log, so a dead host's
 * task is taken within its lease's duration plus one interval. Hosts that look together race for
 * the lease in one write; the others are refused with `task_leased`, which their runner ignores.
 *
 * What is taken: tasks Main was working on (queued, running, or parked on `sleep_until`). A task
 * waiting for its person is not run again, which would ask the model for nothing, unless one of
 * their messages is pending: a message this host could not deliver because another host held the
 * task (`want`), and which that host may have died or stopped without taking.
 */
export class TaskTakeover {
  private readonly timer: NodeJS.Timeout;
  private readonly first: NodeJS.Immediate;
  private readonly wanted = new Set<string>();
  private sweeping = false;
  private closed = false;

  constructor(private readonly options: TaskTakeoverOptions) {
    this.timer = setInterval(() => void this.sweep(), options.pollMs);
    this.timer.unref();
    // At once too: a server restarted after a crash takes its own dead predecessor's tasks now.
    this.first = setImmediate(() => void this.sweep());
  }

  /** A run of the task here was refused by another host's lease: look again once that lease has ended. */
  want(taskId: string): void {
    if (!this.closed) this.wanted.add(taskId);
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    clearImmediate(this.first);
  }

  /** One look; one at a time (a look still running when the timer fires again is not doubled). */
  async sweep(): Promise<void> {
    if (this.sweeping || this.closed) return;
    this.sweeping = true;
    try {
      const { coordinator, leases, store } = this.options.host;
      await coordinator.refresh();
      const tasks = Object.values(coordinator.current.tasks).filter((t) => !TERMINAL.has(t.status) && !this.options.running(t.id));
      for (const id of this.wanted) if (!tasks.some((t) => t.id === id)) this.wanted.delete(id);
      const candidates = tasks.filter((t) => abandoned(t) || this.wanted.has(t.id));
      if (candidates.length === 0) return;
      const looks = await store.read(async (tx) => {
        const found: { task: TaskState; lease: LeaseRecord | undefined; pending: boolean }[] = [];
        for (const task of candidates) {
          const wanted = this.wanted.has(task.id);
          found.push({ task, lease: await tx.leases.get(taskLeaseKey(task.id)), pending: wanted && (await tx.inbox.pending(task.id, MAIN)).length > 0 });
        }
        return found;
      });
      for (const { task, lease, pending } of looks) {
        if (this.closed) return;
        const mine = lease?.holder === leases.holder.text;
        const free = lease === undefined || (!mine && (lease.expiresAt <= lease.now || provablyGone(lease.holder, leases.holder)));
        // Main's own work left behind by a holder that did not release its lease: it died.
        const dead = lease !== undefined && free && abandoned(task);
        const waiting = this.wanted.has(task.id) && free;
        if (waiting && !pending) this.wanted.delete(task.id);
        if (dead || (waiting && pending)) {
          this.wanted.delete(task.id);
          this.options.run(task.id);
        }
      }
    } catch (error) {
      // A store that cannot be reached or is busy: the next look tries again, and says nothing meanwhile.
      if (!isCoworkError(error) || !QUIET.has(error.code)) this.options.onError(error);
    } finally {
      this.sweeping = false;
    }
  }
}

/** Whether Main was at work on the task (not waiting for its person): what a host that died leaves. */
function abandoned(task: TaskState): boolean {
  return task.status === 'queued' || task.status === 'running' || (task.status === 'waiting' && (task.waitingReason ?? '').startsWith('parked:'));
}
