import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { windowFromNow, type Timing } from '../clock';
import type { TargetSpec } from './commit-target';
import type { WorkerInput, WorkerMessage } from './thread-messages';
import type { WriterResult } from './writer-loop';

const WORKER_FILE = join(__dirname, 'thread-worker.ts');
/**
 * The worker file is TypeScript, and worker threads inherit neither the tsx hooks that run the
 * benchmark nor jest's transform, so each worker registers tsx's require hook before loading it.
 * (`--import tsx` in the worker's execArgv does not take effect for the worker's entry on Node 20.)
 */
const WORKER_BOOTSTRAP = `require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register();
require(${JSON.stringify(WORKER_FILE)});`;

/**
 * N worker threads, each a writer with its own connection to the same database: the shape of
 * several processes (a server, the CLI, another host) on one workspace. Here commits really do
 * race, and SQLite's write lock (`BEGIN IMMEDIATE` with a busy timeout) decides who goes next.
 */
export async function runThreads(spec: TargetSpec, writers: number, timing: Timing): Promise<WriterResult[]> {
  const workers = Array.from({ length: writers }, (_, i) => new WorkerHandle({ spec, index: i }));
  try {
    await Promise.all(workers.map((w) => w.next('ready')));
    // The window opens only once every connection is open, so slow starters do not shorten it.
    const window = windowFromNow(timing);
    const results = workers.map((w) => w.next('done'));
    for (const w of workers) w.send({ type: 'start', window });
    return (await Promise.all(results)).map((done) => ({
      commits: done.commits,
      conflicts: done.conflicts,
      latenciesMs: Array.from(done.latenciesMs),
      lastRevision: done.lastRevision,
    }));
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
  }
}

type Message<T extends WorkerMessage['type']> = Extract<WorkerMessage, { type: T }>;

/** One worker and its messages in arrival order; a crash or early exit rejects whoever waits. */
class WorkerHandle {
  private readonly worker: Worker;
  private readonly inbox: WorkerMessage[] = [];
  private waiter: { resolve: (message: WorkerMessage) => void; reject: (error: Error) => void } | undefined;
  private failure: Error | undefined;

  constructor(private readonly input: WorkerInput) {
    this.worker = new Worker(WORKER_BOOTSTRAP, { eval: true, workerData: input });
    this.worker.on('message', (message: WorkerMessage) => {
      if (this.waiter) this.waiter.resolve(message);
      else this.inbox.push(message);
      this.waiter = undefined;
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`worker t${input.index + 1} exited (code ${code})`)));
  }

  /** The worker's next message, which must be of `type`. */
  async next<T extends WorkerMessage['type']>(type: T): Promise<Message<T>> {
    const message = await this.receive();
    if (message.type !== type) throw new Error(`worker t${this.input.index + 1}: expected ${type}, got ${message.type}`);
    return message as Message<T>;
  }

  send(message: WorkerMessage): void {
    this.worker.postMessage(message);
  }

  async stop(): Promise<void> {
    await this.worker.terminate();
  }

  private receive(): Promise<WorkerMessage> {
    const queued = this.inbox.shift();
    if (queued) return Promise.resolve(queued);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }

  private fail(error: Error): void {
    // The first failure is the cause; the 'exit' that follows an 'error' adds nothing.
    this.failure ??= error;
    this.waiter?.reject(this.failure);
    this.waiter = undefined;
  }
}
