import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ServerKind, ServerReply, ServerRequest, ServerWorkerInput } from './server-messages';

const WORKER_FILE = join(__dirname, 'server-worker.ts');
/** Worker threads inherit no tsx hooks, so the worker registers tsx's require hook first (as `runtime/threads.ts` does). */
const WORKER_BOOTSTRAP = `require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register();
require(${JSON.stringify(WORKER_FILE)});`;

type Reply<T extends ServerReply['type']> = Extract<ServerReply, { type: T }>;

/**
 * A server under test in its own worker thread, and the conversation with it: each request gets
 * the next reply, which must be of the expected type. A crash or an early exit rejects whoever
 * waits.
 */
export class ServerThread {
  private readonly worker: Worker;
  private readonly inbox: ServerReply[] = [];
  private waiter: { resolve: (reply: ServerReply) => void; reject: (error: Error) => void } | undefined;
  private failure: Error | undefined;
  private stopping = false;
  private address: Reply<'ready'> | undefined;

  private constructor(readonly kind: ServerKind) {
    this.worker = new Worker(WORKER_BOOTSTRAP, { eval: true, workerData: { kind } satisfies ServerWorkerInput });
    this.worker.on('message', (reply: ServerReply) => {
      if (this.waiter) this.waiter.resolve(reply);
      else this.inbox.push(reply);
      this.waiter = undefined;
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`${kind} server worker exited (code ${code})`)));
  }

  /** Starts a worker and resolves once its server listens. */
  static async start(kind: ServerKind): Promise<ServerThread> {
    const thread = new ServerThread(kind);
    try {
      thread.address = await thread.next('ready');
    } catch (error) {
      await thread.worker.terminate();
      throw error;
    }
    return thread;
  }

  get url(): string {
    return this.address!.url;
  }

  get token(): string {
    return this.address!.token;
  }

  async request<T extends ServerReply['type']>(message: ServerRequest, expected: T): Promise<Reply<T>> {
    const reply = this.next(expected);
    this.worker.postMessage(message);
    return reply;
  }

  /** Closes the server (and removes its workspace), then ends the thread. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    try {
      if (!this.failure) await this.request({ type: 'stop' }, 'stopped');
    } finally {
      await this.worker.terminate();
    }
  }

  private async next<T extends ServerReply['type']>(expected: T): Promise<Reply<T>> {
    const reply =
      this.inbox.shift() ??
      (await new Promise<ServerReply>((resolve, reject) => {
        if (this.failure) reject(this.failure);
        else this.waiter = { resolve, reject };
      }));
    if (reply.type !== expected) throw new Error(`${this.kind} server: expected ${expected}, got ${reply.type}`);
    return reply as Reply<T>;
  }

  private fail(error: Error): void {
    // The first failure is the cause; the 'exit' after an 'error', or after a stop, adds nothing.
    this.failure ??= error;
    this.waiter?.reject(this.failure);
    this.waiter = undefined;
  }
}
