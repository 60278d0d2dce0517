import { createHash } from 'node:crypto';
import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Part } from '../part/content';
import type { Measures } from './measure';
import type { Interference, KernelFailure, KernelReply, KernelRequest, KernelValue, MeshFormat, Placement } from './protocol';

/**
 * The host side of the CAD worker: starts it on first use (never on the request path again),
 * queues requests to it, and remembers each content's evaluation (per content hash, so per
 * revision). An idle worker is `unref`'d so that it never keeps a process alive. Hosts `acquire` it
 * when they start (a long-lived one loads OpenCascade at once) and `release` it when they close;
 * the last release stops the worker.
 */
export class KernelError extends Error {
  constructor(readonly failure: KernelFailure) {
    super(failure.message);
    this.name = 'KernelError';
  }
}

/** An evaluation: the measures of a part that builds, or why it does not. */
export type Evaluation = ({ ok: true } & Measures) | ({ ok: false } & KernelFailure);

const KEPT_EVALUATIONS = 256;

export class CadKernel {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: KernelValue) => void; reject: (error: Error) => void }>();
  private readonly evaluations = new Map<string, Evaluation>();
  private users = 0;
  private loaded: Worker | undefined;

  /** Builds and measures a part; a part that does not build is an evaluation with `ok: false`. */
  async evaluate(part: Part): Promise<Evaluation> {
    const key = partKey(part);
    const kept = this.evaluations.get(key);
    if (kept) return kept;
    let evaluation: Evaluation;
    try {
      evaluation = { ok: true, ...((await this.call({ type: 'evaluate', key, part })) as Measures) };
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
    return (await this.call({ type: 'export', bodies: bodies.map((b) => ({ ...b, key: partKey(b.part) })), format, name })) as Uint8Array;
  }

  /** Measures the solid in a STEP file; throws `KernelError` (geometry) when there is none. */
  async readStep(data: Uint8Array): Promise<Measures> {
    return (await this.call({ type: 'read_step', data })) as Measures;
  }

  /** The overlapping pairs among placed parts, with their shared volumes. */
  async interferences(bodies: { name: string; part: Part; placement: Placement }[]): Promise<Interference[]> {
    return (await this.call({ type: 'interference', bodies: bodies.map((b) => ({ ...b, key: partKey(b.part) })) })) as Interference[];
  }

  /** Starts the worker and loads OpenCascade now rather than on the first request. */
  async warm(): Promise<void> {
    await this.call({ type: 'ready' });
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

  /** Stops the worker; the next request starts a new one. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private call(request: KernelRequest): Promise<KernelValue> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // A waiting request keeps the process alive; an idle worker does not.
      if (this.pending.size === 0) worker.ref();
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, request });
    });
  }

  private start(): Worker {
    const worker = new Worker(workerScript(), { eval: true });
    worker.unref();
    worker.on('message', (reply: KernelReply) => {
      this.loaded = worker; // it answers only once OpenCascade has loaded
      const waiter = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if (reply.ok) waiter?.resolve(reply.value);
      else waiter?.reject(new KernelError(reply.error));
    });
    const fail = (error: Error): void => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiter of this.pending.values()) waiter.reject(new KernelError({ geometry: false, message: `the CAD worker stopped: ${error.message}` }));
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`exit code ${code}`)));
    this.worker = worker;
    return worker;
  }
}

/** The hash of a part's JSON: its identity for caches. */
export function partKey(part: Part): string {
  return createHash('sha256').update(JSON.stringify(part)).digest('hex');
}

/**
 * What the worker thread runs. Built, it requires `worker.js` next to this file. Under jest the
 * sources are TypeScript that jest compiles in memory, which a worker cannot see: it compiles
 * them the same way (swc) as it requires them.
 */
function workerScript(): string {
  const extension = extname(__filename);
  const entry = JSON.stringify(join(__dirname, `worker${extension}`));
  if (extension !== '.ts') return `require(${entry});`;
  const swc = JSON.stringify(require.resolve('@swc/core'));
  const options = JSON.stringify({ jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs', ignoreDynamic: true }, sourceMaps: 'inline' });
  return [
    `const swc = require(${swc});`,
    `require.extensions['.ts'] = (module, file) => module._compile(swc.transformFileSync(file, ${options}).code, file);`,
    `require(${entry});`,
  ].join('\n');
}

let shared: CadKernel | undefined;

/** The process's one kernel (one WASM instance costs 0.4 to 0.7 GB). */
export function sharedKernel(): CadKernel {
  shared ??= new CadKernel();
  return shared;
}
