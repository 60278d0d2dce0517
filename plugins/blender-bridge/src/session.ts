import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CoworkError, jsonEqual, rejectOp, writeJsonAtomic, type ExternalContext, type ExternalObservation, type ExternalResource, type ExternalSession } from '@cowork/host';
import { BlenderProcess, jobHandle, jobLauncher, socketPathFor, type Launcher, type Snapshot, type SupportFinding } from './bridge/blender-process';
import { BridgeCommandError, BridgeGoneError } from './bridge/client';
import type { Scene } from './content';
import { completeOp, type SceneOp } from './ops';
import type { BlenderStarts } from './starts';

/** The last save: the revision the scene held when `scene.blend` was written. */
interface SavedState {
  readonly revision: number;
  readonly savedAt: string;
}

/** The running Blender of a resource, so that the next host process can re-attach to it. */
interface BridgeState {
  readonly jobId: string;
  readonly pid: number | null;
  readonly socketPath: string;
}

/** What the next observation reports, after Blender was restarted. */
interface Restart {
  readonly note: string;
  readonly restoredFrom?: number;
}

/** Open sessions in this process, by resource id: exports and tools use the live Blender. */
const openSessions = new Map<string, BlenderSession>();

export function openSession(resourceId: string): BlenderSession | undefined {
  return openSessions.get(resourceId);
}

/**
 * One resource's Blender, driven through the bridge. Files in the resource directory:
 * `scene.blend` (the last save), `saved.json` (the revision it holds), `bridge.json` (the job and
 * socket of the running Blender). Commands run one at a time (the host's lock covers observe and
 * apply; exports and tools come from elsewhere).
 *
 * The session tracks which revision the live scene is: `apply` is told, and an observation that
 * differs from the last one becomes the next revision (the host records every such change).
 */
export class BlenderSession implements ExternalSession<Scene, SceneOp> {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly resourceId: string,
    private readonly dir: string,
    private readonly launcher: Launcher,
    private readonly starts: BlenderStarts,
    private process: BlenderProcess,
    private revision: number,
    private content: Scene,
    private restart: Restart | undefined,
  ) {}

  /**
   * Re-attaches to the resource's running Blender, or starts one: from the last save when there
   * is one (the first observation then says so), else from the content the host recorded, saved
   * at once so that a crash always has a save to return to. A start takes its turn in `starts`
   * (`busy` when the wait is too long); one that fails is `external_unavailable`.
   */
  static async open(resource: ExternalResource<Scene>, context: ExternalContext, starts: BlenderStarts): Promise<BlenderSession> {
    const dir = context.resourceDir;
    const launcher = jobLauncher(context.jobs);
    const state = readJson<BridgeState>(join(dir, 'bridge.json'));
    const previous = state && jobHandle(context.jobs, state.jobId, state.pid);
    const attached = previous && (await BlenderProcess.attach(previous, state.socketPath).catch(() => undefined));
    // A Blender that runs but does not answer is stopped before another one starts.
    if (previous && !attached) await previous.kill().catch(() => undefined);
    let session: BlenderSession;
    if (attached) {
      session = new BlenderSession(resource.id, dir, launcher, starts, attached, resource.revision, resource.content, undefined);
    } else if (existsSync(join(dir, 'scene.blend'))) {
      const process = await startBlender(starts, launcher, resource.id, dir, true);
      session = new BlenderSession(resource.id, dir, launcher, starts, process, resource.revision, resource.content, restartNote(dir, 'was not running'));
    } else {
      const process = await startBlender(starts, launcher, resource.id, dir, false);
      session = new BlenderSession(resource.id, dir, launcher, starts, process, resource.revision, resource.content, undefined);
      try {
        await process.load(resource.content);
        await session.writeSave(resource.revision);
      } catch (error) {
        await process.launched.kill().catch(() => undefined); // no half-built scene to re-attach to
        throw error instanceof BridgeGoneError ? startFailed(resource.id, `Blender stopped while the scene was built in it: ${error.message}`) : error;
      }
    }
    openSessions.set(resource.id, session);
    return session;
  }

  observe(): Promise<ExternalObservation<Scene>> {
    return this.serial(async () => {
      const snapshot = await this.live((process) => process.snapshot());
      const restart = this.restart;
      this.restart = undefined;
      if (!jsonEqual(snapshot.scene, this.content)) {
        this.revision += 1;
        this.content = snapshot.scene;
      }
      return restart ? { content: snapshot.scene, ...restart } : { content: snapshot.scene };
    });
  }

  apply(op: SceneOp, context: { readonly revision: number }): Promise<ExternalObservation<Scene>> {
    return this.serial(async () => {
      let snapshot: Snapshot;
      try {
        snapshot = await this.process.apply(completeOp(op));
      } catch (error) {
        if (error instanceof BridgeCommandError && (error.code === 'unknown_object' || error.code === 'invalid_op')) {
          throw rejectOp(error.message, error.details as never);
        }
        if (error instanceof BridgeGoneError) {
          throw new CoworkError('external_unavailable', `Blender stopped while performing the op, so whether it applied is unknown; the next read restarts Blender from the last save (${error.message})`, {
            resourceId: this.resourceId,
          });
        }
        throw error;
      }
      this.revision = context.revision;
      this.content = snapshot.scene;
      return { content: snapshot.scene };
    });
  }

  /** Saves the live scene as `scene.blend`; a crash restarts from here. Resolves with the revision it holds. */
  save(): Promise<{ revision: number; path: string }> {
    return this.serial(async () => {
      const snapshot = await this.live((process) => process.snapshot());
      // A change not yet recorded becomes the next revision when the host observes it.
      const revision = jsonEqual(snapshot.scene, this.content) ? this.revision : this.revision + 1;
      await this.writeSave(revision);
      return { revision, path: join(this.dir, 'scene.blend') };
    });
  }

  /** Runs `fn` on the live Blender when it shows `content`; undefined when it shows something else. */
  withScene<T>(content: Scene, fn: (process: BlenderProcess) => Promise<T>): Promise<{ value: T } | undefined> {
    return this.serial(async () => {
      const snapshot = await this.live((process) => process.snapshot());
      return jsonEqual(snapshot.scene, content) ? { value: await fn(this.process) } : undefined;
    });
  }

  checkSupport(): Promise<SupportFinding[]> {
    return this.serial(() => this.live((process) => process.checkSupport()));
  }

  /** The pid of the running Blender (tests kill it). */
  get pid(): number | null {
    return this.process.launched.pid;
  }

  /** Leaves Blender running as a job: the next host process re-attaches to it. */
  close(): Promise<void> {
    return this.serial(async () => {
      openSessions.delete(this.resourceId);
      this.process.client.close();
    });
  }

  private async writeSave(revision: number): Promise<void> {
    await this.process.save(join(this.dir, 'scene.blend'));
    writeJsonAtomic(join(this.dir, 'saved.json'), { revision, savedAt: new Date().toISOString() } satisfies SavedState);
  }

  /**
   * Runs `fn` on Blender, restarting it from the last save first when it is gone. The restart
   * takes its turn among starts (`busy` when the wait is too long: the next call tries again); a
   * restart that fails, or a Blender that stops again at once, is `external_unavailable`.
   */
  private async live<T>(fn: (process: BlenderProcess) => Promise<T>): Promise<T> {
    if (!this.process.gone) {
      try {
        return await fn(this.process);
      } catch (error) {
        if (!(error instanceof BridgeGoneError)) throw error;
      }
    }
    await this.process.launched.kill().catch(() => undefined); // a Blender that hangs is as good as dead
    this.process.client.close();
    const fromSave = existsSync(join(this.dir, 'scene.blend'));
    this.process = await startBlender(this.starts, this.launcher, this.resourceId, this.dir, fromSave, 'Blender stopped and could not be restarted');
    if (!fromSave) {
      try {
        await this.process.load(this.content);
      } catch (error) {
        // Not left showing an empty scene: the next call restarts it again.
        await this.process.launched.kill().catch(() => undefined);
        this.process.client.close();
        throw startFailed(this.resourceId, `Blender stopped and was restarted, but the scene could not be rebuilt in it: ${(error as Error).message}`);
      }
    }
    this.restart = fromSave ? restartNote(this.dir, 'stopped') : { note: "Blender stopped with no save to return to; it was rebuilt from the host's last record" };
    try {
      return await fn(this.process);
    } catch (error) {
      if (!(error instanceof BridgeGoneError)) throw error;
      throw startFailed(this.resourceId, `Blender stopped again right after its restart: ${error.message}`);
    }
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/**
 * Starts the resource's Blender in its turn among `starts` (`busy` when the wait is too long, having
 * started nothing). A Blender that ends, or whose bridge does not listen in time, is
 * `external_unavailable` (reason `blender_start_failed`, retryable) saying why.
 */
async function startBlender(starts: BlenderStarts, launcher: Launcher, resourceId: string, dir: string, fromSave: boolean, what = 'Blender could not be started'): Promise<BlenderProcess> {
  const socketPath = socketPathFor(dir);
  const blendFile = join(dir, 'scene.blend');
  const process = await starts.run(
    () =>
      BlenderProcess.start(launcher, { socketPath, cwd: dir, name: `blender ${resourceId}`, ...(fromSave ? { blendFile } : {}) }).catch((error: unknown) => {
        throw startFailed(resourceId, `${what}: ${(error as Error).message}`);
      }),
    { resourceId },
  );
  const { jobId, pid } = process.launched;
  if (jobId) writeJsonAtomic(join(dir, 'bridge.json'), { jobId, pid, socketPath } satisfies BridgeState);
  return process;
}

function startFailed(resourceId: string, message: string): CoworkError {
  return new CoworkError('external_unavailable', message, { reason: 'blender_start_failed', resourceId });
}

function restartNote(dir: string, what: string): Restart {
  const saved = readJson<SavedState>(join(dir, 'saved.json'));
  if (!saved) return { note: `Blender ${what} and was restarted from scene.blend, whose revision is unknown` };
  return {
    note: `Blender ${what} and was restarted from the last save (revision ${saved.revision}, ${saved.savedAt}); changes after it were lost`,
    restoredFrom: saved.revision,
  };
}

function readJson<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}
