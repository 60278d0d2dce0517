import { createHash } from 'node:crypto';
import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { CoworkError, moduleScript } from '@cowork/host';
import type { Part } from '../part/content';
import { LIMITS, type Limits } from '../part/limits';
import type { Measures } from './measure';
import type { Interference, KernelFailure, KernelRequest, KernelValue, MeshFormat, Placement, WorkerData, WorkerMessage } from './protocol';

/**
 * The host side of the CAD worker: starts it on first use (never on the request path again),
 * sends it one request at a time, and remembers each content's evaluation (per content hash, so
 * per revision). Each request has a time limit from when the loaded worker gets it: OCCT can loop
 * for ever inside one call, and a worker stuck in WASM cannot be interrupted, so one that runs past
 * the limit is terminated, its request fails with `plugin_timeout`, and the requests queued behind
 * it go to a fresh worker. An idle worker is `unref`'d so that it never keeps a process alive.
 * Hosts `acquire` it when they start (a long-lived one loads OpenCascade at once) and `release` it
 * when they close; the last release stops the worker.
 */
export class KernelError extends Error {
  constructor(readonly failure: KernelFailure) {
    super(failure.message);
    this.name = 'KernelError';
  }
}

/** An evaluation: the measures of a part that builds, or why it does not. */
export type Evaluation = ({ ok: true } & Measures) | ({ ok: false } & KernelFailure);

export type KernelOptions = {
  /** How long one request may run in the worker (ms); by default `COWORK_CAD_TIMEOUT_MS`, else 30 s. */
  timeoutMs?: number;
  /** The ranges the worker checks every part against (../part/limits.ts); a test lowers them to reproduce a stall. */
  limits?: Limits;
};

export const DEFAULT_TIMEOUT_MS = 30_000;
/** setTimeout's largest delay; a longer one fires at once. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;
const KEPT_EVALUATIONS = 256;

/** A request waiting for the worker, and what it does in words (for the time-limit error). */
type Job = { id: number; request: KernelRequest; what: string; resolve: (value: KernelValue) => void; reject: (error: Error) => void };

export class CadKernel {
  readonly timeoutMs: number;
  private readonly limits: Limits;
  private worker: Worker | undefined;
  private loaded: Worker | undefined;
  private nextId = 1;
  private readonly queue: Job[] = [];
  private running: { job: Job; timer: NodeJS.Timeout } | undefined;
  private readonly evaluations = new Map<string, Evaluation>();
  private users = 0;

  constructor(options: KernelOptions = {}) {
    this.timeoutMs = checkedTimeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'timeoutMs');
    this.limits = options.limits ?? LIMITS;
  }

  /** Builds and measures a part; a part that does not build is an evaluation with `ok: false`. */
  async evaluate(part: Part): Promise<Evaluation> {
    const key = partKey(part);
    const kept = this.evaluations.get(key);
    if (kept) return kept;
    let evaluation: Evaluation;
    try {
      const what = `building and measuring a part of ${part.features.length} feature${part.features.length === 1 ? '' : 's'}`;
      evaluation = { ok: true, ...((await this.call({ type: 'evaluate', key, part }, what)) as Measures) };
    } catch (error) {
      if (!(error instanceof KernelError) || !error.failure.geometry) throw error;
      evaluation = { ok: false, ...error.failure };
    }
    this.evaluations.set(key, evaluation);
    for (const oldKey of this.evaluations.keys()) {
      if (this.evaluations.size <= KEPT_EVALUATIONS) break;
      this.evaluations.delete(oldKey);
    }
    return evaluation;
  }

  /** The evaluation of a part when it is known, without waiting; an unknown one starts evaluating. */
  known(part: Part): Evaluation | undefined {
    const kept = this.evaluations.get(partKey(part));
    if (!kept) this.evaluate(part).catch(() => undefined);
    return kept;
  }

  /** The part as STEP, STL or GLB bytes; throws `KernelError` when it does not build. */
  async export(part: Part, format: MeshFormat, name: string): Promise<Uint8Array> {
    return this.exportBodies([{ name, part }], format, name);
  }

  /** Several placed parts (an assembly) as one file. */
  async exportBodies(bodies: { name: string; part: Part; placement?: Placement }[], format: MeshFormat, name: string): Promise<Uint8Array> {
    const request: KernelRequest = { type: 'export', bodies: bodies.map((b) => ({ ...b, key: partKey(b.part) })), format, name };
    return (await this.call(request, `exporting ${name} as ${format.toUpperCase()}`)) as Uint8Array;
  }

  /** Measures the solid in a STEP file; throws `KernelError` (geometry) when there is none. */
  async readStep(data: Uint8Array): Promise<Measures> {
    return (await this.call({ type: 'read_step', data }, `reading a STEP file of ${Math.ceil(data.length / 1024)} KiB`)) as Measures;
  }

  /** The overlapping pairs among placed parts, with their shared volumes. */
  async interferences(bodies: { name: string; part: Part; placement: Placement }[]): Promise<Interference[]> {
    const request: KernelRequest = { type: 'interference', bodies: bodies.map((b) => ({ ...b, key: partKey(b.part) })) };
    return (await this.call(request, `checking interference between ${bodies.length} parts`)) as Interference[];
  }

  /** Starts the worker and loads OpenCascade now rather than on the first request. */
  async warm(): Promise<void> {
    await this.call({ type: 'ready' }, 'answering once loaded');
  }

  /** `stopped`: no worker; `loading`: OpenCascade is loading; `ready`: requests go straight to it. */
  state(): 'stopped' | 'loading' | 'ready' {
    if (!this.worker) return 'stopped';
    return this.loaded === this.worker ? 'ready' : 'loading';
  }

  /** A host starts using the kernel; with `warm`, OpenCascade loads now, in the background. */
  acquire(options: { warm: boolean }): void {
    this.users++;
    // A failed load is not lost: the first request that needs the kernel starts it again and fails with why.
    if (options.warm) this.warm().catch(() => undefined);
  }

  /** A host stops using the kernel; the last one stops the worker (its evaluations stay cached). */
  async release(): Promise<void> {
    this.users = Math.max(0, this.users - 1);
    if (this.users === 0) await this.close();
  }

  /** Stops the worker, failing what it was doing and what waited for it; the next request starts a new one. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.forget();
    this.failAll(new KernelError({ geometry: false, message: 'the CAD kernel was closed' }));
    if (worker) await worker.terminate();
  }

  private call(request: KernelRequest, what: string): Promise<KernelValue> {
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, request, what, resolve, reject });
      this.pump();
    });
  }

  /** Sends the next queued request once the worker has loaded and is free; its time limit starts now. */
  private pump(): void {
    if (this.running) return;
    if (this.queue.length === 0) {
      this.worker?.unref();
      return;
    }
    const worker = this.worker ?? this.start();
    worker.ref(); // a waiting request keeps the process alive; an idle worker does not
    if (this.loaded !== worker) return; // its `loaded` message pumps again
    const job = this.queue.shift()!;
    this.running = { job, timer: setTimeout(() => this.timeOut(worker), this.timeoutMs) };
    worker.postMessage({ id: job.id, request: job.request });
  }

  /** The running request passed its limit: the worker is stuck in OCCT, so it is replaced. */
  private timeOut(worker: Worker): void {
    const job = this.running?.job;
    if (!job || this.worker !== worker) return;
    this.running = undefined;
    this.forget();
    void worker.terminate();
    job.reject(
      new CoworkError('plugin_timeout', `the CAD kernel stopped ${job.what}: it took longer than its limit of ${this.timeoutMs} ms (COWORK_CAD_TIMEOUT_MS)`, {
        limitMs: this.timeoutMs,
        request: job.request.type,
      }),
    );
    this.pump();
  }

  private start(): Worker {
    const workerData: WorkerData = { limits: this.limits };
    const worker = new Worker(moduleScript(join(__dirname, `worker${extname(__filename)}`)), { eval: true, workerData });
    worker.unref();
    worker.on('message', (message: WorkerMessage) => {
      if (this.worker !== worker) return; // a replaced worker's last words
      if (message.type === 'loaded') {
        this.loaded = worker;
        this.pump();
      } else if (message.type === 'load_failed') {
        this.forget();
        void worker.terminate();
        this.failAll(new KernelError({ geometry: false, message: `OpenCascade did not load: ${message.message}` }));
      } else {
        const running = this.running;
        if (running?.job.id !== message.reply.id) return;
        clearTimeout(running.timer);
        this.running = undefined;
        const { reply } = message;
        if (reply.ok) running.job.resolve(reply.value);
        else running.job.reject(new KernelError(reply.error));
        this.pump();
      }
    });
    const fail = (error: Error): void => {
      if (this.worker !== worker) return;
      const loaded = this.loaded === worker;
      this.forget();
      const stopped = new KernelError({ geometry: false, message: `the CAD worker stopped: ${error.message}` });
      // A worker that dies loading would die again: fail everything. One that died on a request fails
      // that request; the ones queued behind it go to a new worker.
      if (!loaded) return this.failAll(stopped);
      const running = this.running;
      this.running = undefined;
      if (running) {
        clearTimeout(running.timer);
        running.job.reject(stopped);
      }
      this.pump();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`exit code ${code}`)));
    this.worker = worker;
    return worker;
  }

  /** Lets go of the current worker: its messages and exit are ignored from now on. */
  private forget(): void {
    this.worker = undefined;
    this.loaded = undefined;
  }

  private failAll(error: Error): void {
    const jobs = [...(this.running ? [this.running.job] : []), ...this.queue.splice(0)];
    if (this.running) clearTimeout(this.running.timer);
    this.running = undefined;
    for (const job of jobs) job.reject(error);
  }
}

/** The hash of a part's JSON: its identity for caches. */
export function partKey(part: Part): string {
  return createHash('sha256').update(JSON.stringify(part)).digest('hex');
}

let shared: CadKernel | undefined;

/** The process's one kernel (one WASM instance costs 0.4 to 0.7 GB), with the time limit the environment sets. */
export function sharedKernel(): CadKernel {
  shared ??= new CadKernel({ timeoutMs: timeoutFromEnvironment() });
  return shared;
}

/** `COWORK_CAD_TIMEOUT_MS`, a whole number of milliseconds; unset or empty is the default. */
export function timeoutFromEnvironment(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.COWORK_CAD_TIMEOUT_MS?.trim();
  return text ? checkedTimeout(Number(text), 'COWORK_CAD_TIMEOUT_MS', text) : DEFAULT_TIMEOUT_MS;
}

function checkedTimeout(ms: number, name: string, text: string = String(ms)): number {
  if (Number.isInteger(ms) && ms > 0 && ms <= MAX_TIMEOUT_MS) return ms;
  throw new Error(`${name} must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, not ${JSON.stringify(text)}`);
}
