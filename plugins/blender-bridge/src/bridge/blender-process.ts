import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ExternalJobs } from '@cowork/host';
import type { Scene } from '../content';
import { BridgeClient, BridgeGoneError } from './client';

/** bridge.py ships next to this module's source; from dist/bridge/ and src/bridge/ alike. */
export const BRIDGE_SCRIPT = resolve(__dirname, '..', '..', 'src', 'bridge', 'bridge.py');

/** What a launcher is asked to run: Blender in background mode with the bridge script. */
export interface Launch {
  readonly args: readonly string[];
  readonly cwd: string;
  readonly name: string;
}

/** A started Blender, however it was started. */
export interface LaunchedBlender {
  readonly pid: number | null;
  /** The host job running it, when it runs as one (it then outlives the host). */
  readonly jobId: string | null;
  running(): Promise<boolean>;
  /** Why it is not running, for error messages. */
  describeEnd(): Promise<string>;
  kill(): Promise<void>;
}

export type Launcher = (launch: Launch) => Promise<LaunchedBlender>;

/** Blender as a host job: supervised, logged under `<workspace>/jobs/<id>/`, outliving the host. */
export function jobLauncher(jobs: ExternalJobs): Launcher {
  return async ({ args, cwd, name }) => {
    const job = await jobs.start({ command: 'blender', args: [...args], cwd, name });
    return jobHandle(jobs, job.id, job.pid);
  };
}

/** A handle on a Blender job started earlier (by this host process or one before it). */
export function jobHandle(jobs: ExternalJobs, jobId: string, pid: number | null): LaunchedBlender {
  return {
    pid,
    jobId,
    running: async () => (await jobs.get(jobId)).status === 'running',
    describeEnd: async () => {
      const job = await jobs.get(jobId);
      const said = await lastWords(jobs, jobId);
      return `job ${jobId} is ${job.status} (exit code ${job.exitCode}, signal ${job.signal}${job.error ? `, ${job.error}` : ''})${said ? `; it last said: ${said}` : ''}; its logs are in the workspace's jobs/${jobId}/`;
    },
    kill: async () => {
      await jobs.cancel(jobId);
    },
  };
}

/** The last lines Blender wrote to stderr (where a failing bridge says why), else to stdout. */
async function lastWords(jobs: ExternalJobs, jobId: string): Promise<string> {
  for (const stream of ['stderr', 'stdout'] as const) {
    const { lines } = await jobs.logs(jobId, { stream, tail: LAST_WORDS_LINES }).catch(() => ({ lines: [] }));
    const text = lines.map((line) => line.text.trim()).filter(Boolean).join(' | ');
    if (text) return text.slice(-LAST_WORDS_CHARS);
  }
  return '';
}

const LAST_WORDS_LINES = 5;
const LAST_WORDS_CHARS = 500;

/** Blender as a plain child process: for a short-lived Blender (an export with no open session). */
export const childLauncher: Launcher = async ({ args, cwd }) => {
  const child = spawn('blender', [...args], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.once('error', (error) => (stderr += `\n${error.message}`));
  return {
    pid: child.pid ?? null,
    jobId: null,
    running: async () => child.exitCode === null && child.signalCode === null && child.pid !== undefined,
    describeEnd: async () => `blender exited (code ${child.exitCode}, signal ${child.signalCode}): ${stderr.trim().slice(-500)}`,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
};

/** Unix socket paths are limited to 107 bytes; a few are kept for the name's own margin. */
const MAX_SOCKET_PATH_BYTES = 100;

/**
 * Where a resource's bridge listens: beside the resource, or, when that path is too long for a
 * socket, a name derived from the directory in the first short temporary directory ($TMPDIR can be
 * long on CI runners, so /tmp is the last resort).
 */
export function socketPathFor(dir: string, tempDir = tmpdir()): string {
  const path = join(dir, 'blender.sock');
  if (Buffer.byteLength(path) <= MAX_SOCKET_PATH_BYTES) return path;
  const name = `cowork-blender-${createHash('sha256').update(resolve(dir)).digest('hex').slice(0, 16)}.sock`;
  const short = [tempDir, process.env.XDG_RUNTIME_DIR].map((d) => d && join(d, name)).find((p) => p && Buffer.byteLength(p) <= MAX_SOCKET_PATH_BYTES);
  return short || join('/tmp', name);
}

export interface Snapshot {
  readonly scene: Scene;
}

export interface SupportFinding {
  readonly object: string;
  readonly gap_m: number;
  /** The surface it would rest on: another object, or null for the ground. */
  readonly restingOn: string | null;
}

const READY_TIMEOUT_MS = 60_000;
const RENDER_TIMEOUT_MS = 180_000;

/** A running Blender with the bridge, and its commands typed. */
export class BlenderProcess {
  private constructor(
    readonly client: BridgeClient,
    readonly launched: LaunchedBlender,
  ) {}

  /**
   * Starts Blender (opening `blendFile` when given; an empty scene otherwise) and resolves once
   * its bridge answers; fails with why Blender ended when it ends first.
   */
  static async start(launcher: Launcher, options: { socketPath: string; cwd: string; name: string; blendFile?: string }): Promise<BlenderProcess> {
    const args = ['-b', '--factory-startup', ...(options.blendFile ? [options.blendFile] : []), '--python', BRIDGE_SCRIPT, '--', '--socket', options.socketPath];
    const launched = await launcher({ args, cwd: options.cwd, name: options.name });
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      if (!(await launched.running())) throw new BridgeGoneError(`Blender stopped before its bridge was ready: ${await launched.describeEnd()}`);
      const client = await BridgeClient.connect(options.socketPath).catch(() => undefined);
      if (client) return new BlenderProcess(client, launched);
      if (Date.now() > deadline) {
        await launched.kill();
        throw new BridgeGoneError(`Blender's bridge did not listen at ${options.socketPath} within ${READY_TIMEOUT_MS} ms`);
      }
      await new Promise((done) => setTimeout(done, 50));
    }
  }

  /** Connects to a Blender already running (after a host restart); undefined when it is gone. */
  static async attach(launched: LaunchedBlender, socketPath: string): Promise<BlenderProcess | undefined> {
    if (!(await launched.running())) return undefined;
    const client = await BridgeClient.connect(socketPath).catch(() => undefined);
    if (!client) return undefined;
    const process = new BlenderProcess(client, launched);
    return (await process.ping().then(() => true, () => false)) ? process : undefined;
  }

  get gone(): boolean {
    return this.client.gone;
  }

  ping(): Promise<{ pid: number; blender: string; file: string }> {
    return this.client.request('ping');
  }

  snapshot(): Promise<Snapshot> {
    return this.client.request('snapshot');
  }

  /** Performs one op; resolves with the scene right after it. */
  apply(op: unknown): Promise<Snapshot> {
    return this.client.request('apply', { op });
  }

  /** Replaces the whole scene with `scene`. */
  load(scene: Scene): Promise<Snapshot> {
    return this.client.request('load', { scene });
  }

  /** Saves the scene to `path`; with `copy`, Blender keeps its current file (an export, not a save). */
  async save(path: string, copy = false): Promise<void> {
    await this.client.request('save', { path, copy });
  }

  async exportGlb(path: string): Promise<void> {
    await this.client.request('export_glb', { path }, RENDER_TIMEOUT_MS);
  }

  async renderPng(path: string): Promise<void> {
    await this.client.request('render_png', { path }, RENDER_TIMEOUT_MS);
  }

  async checkSupport(): Promise<SupportFinding[]> {
    return (await this.client.request<{ findings: SupportFinding[] }>('check_support')).findings;
  }

  /** Asks the bridge to quit; kills Blender when it does not answer. */
  async stop(): Promise<void> {
    await this.client.request('shutdown', {}, 5000).catch(() => undefined);
    this.client.close();
    const deadline = Date.now() + 5000;
    while ((await this.launched.running()) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 50));
    if (await this.launched.running()) await this.launched.kill();
  }
}
