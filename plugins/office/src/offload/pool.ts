import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { moduleScript } from './script';
import { runTask, type OfficeTaskResults, type OfficeTaskType, type TaskOf } from './tasks';
import type { WorkerReply } from './worker';

/** A worker left idle this long is stopped (its modules hold tens of MB); the next task starts one again. */
const IDLE_STOP_MS = 60_000;

interface Job {
  readonly task: TaskOf<OfficeTaskType>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
}

interface Slot {
  readonly worker: Worker;
  job: Job | undefined;
  idleTimer: NodeJS.Timeout | undefined;
}

export interface OfficeWorkerStats {
  /** How many worker threads the pool may run; 0 means every task runs on the calling thread. */
  readonly threads: number;
  /** Tasks answered by a worker thread, and tasks run on the calling thread, since the pool was made. */
  readonly inWorkers: number;
  readonly inline: number;
}

/**
 * Runs office tasks (./tasks.ts) in up to `threads` worker threads, so that serialising a file or
 * stacking page images never holds up the host's event loop. Workers start on first use, each does
 * one task at a time, tasks beyond them wait in arrival order. A worker that is not working is
 * `unref`'d (it never keeps a process alive) and stopped after a minute idle; one that dies fails
 * only its own task, and the next task starts another. With `threads` 0 tasks run in the calling
 * thread, as before the pool existed (`COWORK_OFFICE_WORKERS=0`; the benchmark's baseline).
 */
export class OfficeWorkers {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private inWorkers = 0;
  private inline = 0;

  constructor(readonly threads: number) {}

  /** A task's result. An abort while the task waits for a worker drops it; a started task runs to its end (at most seconds). */
  run<T extends OfficeTaskType>(task: TaskOf<T>, signal?: AbortSignal): Promise<OfficeTaskResults[T]> {
    signal?.throwIfAborted();
    if (this.threads === 0) {
      this.inline++;
      return runTask(task);
    }
    return new Promise<OfficeTaskResults[T]>((resolve, reject) => {
      const job: Job = { task, resolve: resolve as (value: unknown) => void, reject };
      this.queue.push(job);
      signal?.addEventListener(
        'abort',
        () => {
          const waiting = this.queue.indexOf(job);
          if (waiting < 0) return;
          this.queue.splice(waiting, 1);
          reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
        },
        { once: true },
      );
      this.dispatch();
    });
  }

  stats(): OfficeWorkerStats {
    return { threads: this.threads, inWorkers: this.inWorkers, inline: this.inline };
  }

  /** Stops every worker; their running tasks fail. The next task starts a new one. */
  async close(): Promise<void> {
    await Promise.all(this.slots.splice(0).map((slot) => this.stop(slot, new Error('the office workers were closed'))));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((s) => !s.job) ?? (this.slots.length < this.threads ? this.start() : undefined);
      if (!slot) return;
      const job = this.queue.shift()!;
      clearTimeout(slot.idleTimer);
      slot.job = job;
      slot.worker.ref(); // a task under way keeps the process alive, as an in-thread one would
      slot.worker.postMessage(job.task);
    }
  }

  private start(): Slot {
    const worker = new Worker(moduleScript(__dirname, 'worker'), { eval: true });
    const slot: Slot = { worker, job: undefined, idleTimer: undefined };
    worker.unref();
    worker.on('message', (reply: WorkerReply) => {
      const job = slot.job;
      slot.job = undefined;
      this.inWorkers++;
      if (reply.ok) job?.resolve(reply.value);
      else job?.reject(Object.assign(new Error(reply.error.message), { name: reply.error.name, stack: reply.error.stack }));
      this.idle(slot);
      this.dispatch();
    });
    worker.on('error', (error) => this.lose(slot, error));
    worker.on('exit', (code) => this.lose(slot, new Error(`an office worker exited (code ${code})`)));
    this.slots.push(slot);
    return slot;
  }

  private idle(slot: Slot): void {
    if (slot.job) return;
    slot.worker.unref();
    slot.idleTimer = setTimeout(() => {
      const at = this.slots.indexOf(slot);
      if (at >= 0 && !slot.job) void this.stop(this.slots.splice(at, 1)[0]!, new Error('stopped while idle'));
    }, IDLE_STOP_MS);
    slot.idleTimer.unref();
  }

  /** A worker that failed or exited: its task fails with why, and waiting tasks go to a new one. */
  private lose(slot: Slot, error: Error): void {
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1);
    clearTimeout(slot.idleTimer);
    slot.job?.reject(new Error(`an office worker stopped: ${error.message}`));
    slot.job = undefined;
    this.dispatch();
  }

  private async stop(slot: Slot, why: Error): Promise<void> {
    clearTimeout(slot.idleTimer);
    slot.job?.reject(why);
    slot.job = undefined;
    slot.worker.removeAllListeners();
    await slot.worker.terminate();
  }
}

/** `COWORK_OFFICE_WORKERS` (0: in the calling thread), else one thread per core beyond the host's own, at most 2. */
export function workerCount(env: string | undefined = process.env.COWORK_OFFICE_WORKERS): number {
  if (env !== undefined && /^\d+$/.test(env.trim())) return Number(env.trim());
  return Math.min(2, Math.max(1, availableParallelism() - 1));
}

/** The process's office workers: like LibreOffice's queue, CPU is a machine resource, not a host's. */
export const officeWorkers = new OfficeWorkers(workerCount());
