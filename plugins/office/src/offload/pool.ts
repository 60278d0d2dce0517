import { extname, join } from 'node:path';
import { availableParallelism } from 'node:os';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { CoworkError, moduleScript, type ErrorCode } from '@cowork/host';
import { inputBytes, resultFrom, runTask, type OfficeTask, type OfficeTaskResults, type OfficeTaskType, type TaskOf } from './tasks';
import type { WorkerError, WorkerReply, WorkerRequest } from './worker';

/** A worker left idle this long is stopped (its modules hold tens of MB); the next task starts one again. */
const IDLE_STOP_MS = 60_000;

/**
 * A task's input bytes go to its worker in copies made this many bytes at a time, a turn of the
 * event loop between slices. Posting the bytes as they are copies them in one go on this thread:
 * measured 17-23 ms for 8 MiB and about 100 ms for a 64 MiB upload (the largest import), where a
 * 1 MiB slice takes 1-3 ms.
 */
const COPY_SLICE_BYTES = 1024 * 1024;

interface Job {
  readonly task: OfficeTask;
  /** The buffers handed over with the task (the copies of its input bytes). */
  readonly transfer: ArrayBuffer[];
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
  /** Answered: an abort answers a job under way before its worker does. */
  done: boolean;
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

  /**
   * A task's result. An abort fails the task at once with the signal's reason: one waiting for a
   * worker is dropped; one under way is told to stop, which imports do at their next part or slide
   * (other tasks run to their end, at most seconds), and its worker takes the next task after that.
   */
  async run<T extends OfficeTaskType>(task: TaskOf<T>, signal?: AbortSignal): Promise<OfficeTaskResults[T]> {
    signal?.throwIfAborted();
    if (this.threads === 0) {
      this.inline++;
      return runTask(task, signal);
    }
    const bytes = inputBytes(task);
    let sent: OfficeTask = task;
    const transfer: ArrayBuffer[] = [];
    if (bytes) {
      // The caller keeps its bytes (a host may read them again): the worker gets a copy it owns.
      const copy = await copyInSlices(bytes, signal);
      sent = { ...task, data: copy } as OfficeTask;
      transfer.push(copy.buffer as ArrayBuffer);
    }
    return new Promise<OfficeTaskResults[T]>((resolve, reject) => {
      const onAbort = (): void => {
        const reason = signal!.reason instanceof Error ? signal!.reason : new Error('aborted');
        const waiting = this.queue.indexOf(job);
        if (waiting >= 0) this.queue.splice(waiting, 1);
        else this.slots.find((slot) => slot.job === job)?.worker.postMessage({ abort: true } satisfies WorkerRequest);
        reject(reason);
      };
      const settle = <V>(then: (value: V) => void) => (value: V): void => {
        job.done = true;
        signal?.removeEventListener('abort', onAbort);
        then(value);
      };
      const job: Job = { task: sent, transfer, resolve: settle(resolve as (value: unknown) => void), reject: settle(reject), done: false };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(job);
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
      slot.worker.postMessage({ task: job.task } satisfies WorkerRequest, job.transfer);
    }
  }

  private start(): Slot {
    const worker = new Worker(moduleScript(join(__dirname, `worker${extname(__filename)}`)), { eval: true });
    const slot: Slot = { worker, job: undefined, idleTimer: undefined };
    worker.unref();
    worker.on('message', (reply: WorkerReply) => {
      const job = slot.job;
      slot.job = undefined;
      this.inWorkers++;
      // A job aborted while under way was answered already: its late reply is not even decoded.
      if (job && !job.done) {
        if (reply.ok) resultFrom(job.task.type, reply.value).then(job.resolve, job.reject);
        else job.reject(errorFrom(reply.error));
      }
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

/**
 * The worker's error as the calling thread's: a CoworkError (an import's `invalid_file` or
 * `content_too_large`) keeps its code and details, so the host answers as if the task had failed on
 * its own thread; any other error keeps its name and message. Both keep the worker's stack.
 */
function errorFrom(error: WorkerError): Error {
  const made = error.code !== undefined ? new CoworkError(error.code as ErrorCode, error.message, error.details) : Object.assign(new Error(error.message), { name: error.name });
  if (error.stack !== undefined) made.stack = error.stack;
  return made;
}

/** A copy of `bytes` in a buffer of its own, made `COPY_SLICE_BYTES` at a time with a turn of the event loop between. */
async function copyInSlices(bytes: Uint8Array, signal: AbortSignal | undefined): Promise<Uint8Array> {
  const copy = new Uint8Array(bytes.byteLength);
  for (let at = 0; at < bytes.byteLength; at += COPY_SLICE_BYTES) {
    if (at > 0) {
      await nextTurn();
      signal?.throwIfAborted();
    }
    copy.set(bytes.subarray(at, at + COPY_SLICE_BYTES), at);
  }
  return copy;
}

/** `COWORK_OFFICE_WORKERS` (0: in the calling thread), else one thread per core beyond the host's own, at most 2. */
export function workerCount(env: string | undefined = process.env.COWORK_OFFICE_WORKERS): number {
  if (env !== undefined && /^\d+$/.test(env.trim())) return Number(env.trim());
  return Math.min(2, Math.max(1, availableParallelism() - 1));
}

/** The process's office workers: like LibreOffice's queue, CPU is a machine resource, not a host's. */
export const officeWorkers = new OfficeWorkers(workerCount());
