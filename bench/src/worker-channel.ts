import { Worker } from 'node:worker_threads';

/**
 * A worker thread that runs the TypeScript module `file`, and its messages in arrival order: each
 * `next` takes the next message, which must be of the expected type. A crash or an early exit
 * rejects whoever waits, and every later `next`.
 *
 * Worker threads inherit neither the tsx hooks that run a benchmark nor jest's transform, so the
 * worker registers tsx's require hook before loading `file`. (`--import tsx` in the worker's
 * execArgv does not take effect for the worker's entry on Node 20.)
 */
export class WorkerChannel<In extends { readonly type: string }, Out> {
  private readonly worker: Worker;
  private readonly inbox: In[] = [];
  private waiter: { resolve: (message: In) => void; reject: (error: Error) => void } | undefined;
  private failure: Error | undefined;

  /** `name` says which worker in error messages: "worker t1", "cowork server worker". */
  constructor(
    file: string,
    workerData: unknown,
    private readonly name: string,
  ) {
    const bootstrap = `require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register();\nrequire(${JSON.stringify(file)});`;
    this.worker = new Worker(bootstrap, { eval: true, workerData });
    this.worker.on('message', (message: In) => {
      if (this.waiter) this.waiter.resolve(message);
      else this.inbox.push(message);
      this.waiter = undefined;
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`${name} exited (code ${code})`)));
  }

  /** Whether the worker crashed or exited. */
  get failed(): boolean {
    return this.failure !== undefined;
  }

  /** The worker's next message, which must be of `type`. */
  async next<T extends In['type']>(type: T): Promise<Extract<In, { type: T }>> {
    const message =
      this.inbox.shift() ??
      (await new Promise<In>((resolve, reject) => {
        if (this.failure) reject(this.failure);
        else this.waiter = { resolve, reject };
      }));
    if (message.type !== type) throw new Error(`${this.name}: expected ${type}, got ${message.type}`);
    return message as Extract<In, { type: T }>;
  }

  send(message: Out): void {
    this.worker.postMessage(message);
  }

  async terminate(): Promise<void> {
    await this.worker.terminate();
  }

  private fail(error: Error): void {
    // The first failure is the cause; the 'exit' that follows an 'error', or a stop, adds nothing.
    this.failure ??= error;
    this.waiter?.reject(this.failure);
    this.waiter = undefined;
  }
}
