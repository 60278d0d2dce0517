import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { moduleScript } from '../../util/module-script';

/** What the store tells its checkpoint thread: copy the WAL now, or close. */
export type CheckpointRequest = 'checkpoint' | 'close';
/** A checkpoint's outcome: the WAL's frames and how many of them the database file now holds. */
export type CheckpointReply = { readonly ok: true; readonly frames: number; readonly copied: number } | { readonly ok: false; readonly message: string };
export interface CheckpointWorkerData {
  readonly path: string;
  readonly synchronous: 'FULL' | 'NORMAL';
}

/** Commits between two checkpoints: a turn's commit is about 7 WAL pages, so about 450 pages. */
export const CHECKPOINT_EVERY_COMMITS = 64;
/**
 * WAL frames (pages) past which a checkpoint finishes with writes held, so that the WAL starts
 * again from its first frame: 8,000 pages of 4 KiB (32 MiB), about 1,100 turns. Holding writes
 * costs about two fsyncs, so it is done rarely; in between, the WAL grows and each checkpoint
 * copies only its new frames.
 */
export const RESTART_WAL_AT_FRAMES = 8000;
/**
 * SQLite's own checkpoint, which runs inside the commit that takes the WAL past this many pages,
 * stays only as the fallback for a thread that falls behind (a reader holding old frames, a very
 * large commit): 16,000 pages of 4 KiB.
 */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 16000;
/** SQLite's default, put back when the thread cannot run. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;

/**
 * Moves WAL checkpoints off the commit path. SQLite checkpoints inside the COMMIT that takes the
 * WAL past 1,000 pages: that commit copies the pages into the database file and fsyncs it, and with
 * better-sqlite3 it does so on the event loop. A host serving turns met it every ~145 turns,
 * 7 to 12 ms each time (bench:turns, the slowest turns of every run).
 *
 * Here a worker thread with a connection of its own checkpoints every CHECKPOINT_EVERY_COMMITS
 * commits, in two steps:
 * 1. A PASSIVE checkpoint while writes go on: it copies the frames committed so far and fsyncs the
 *    database file. PASSIVE waits for no writer or reader.
 * 2. Once the WAL holds RESTART_WAL_AT_FRAMES, the same again with the store's writes held
 *    (`holdWrites`): it copies only the few frames committed during step 1. The WAL then holds
 *    nothing the database lacks, and SQLite starts it again from its first frame at the next
 *    write; without this step a writer that never pauses keeps the checkpoint one step behind and
 *    the WAL grows without end.
 * Copying frames that are already committed in the WAL changes nothing a crash could lose: SQLite
 * recovers from the WAL either way. The thread starts at the first checkpoint, so a store that
 * writes little (the CLI, most tests) never starts one.
 */
export class WalCheckpointer {
  private worker: Worker | undefined;
  private readonly waiting: ((reply: CheckpointReply) => void)[] = [];
  private commits = 0;
  /** The checkpoint under way, if any. */
  private running: Promise<void> | undefined;
  /** Set when closing, or when the thread failed and SQLite's own checkpoints are back. */
  private stopped = false;
  private readonly counts = { checkpoints: 0, restarts: 0, failures: 0 };

  constructor(
    private readonly data: CheckpointWorkerData,
    /** Sets the host connection's `wal_autocheckpoint` (pages). */
    private readonly setAutoCheckpoint: (pages: number) => void,
    /** Runs `step` with no transaction on the host's connection started or under way. */
    private readonly holdWrites: (step: () => Promise<void>) => Promise<void>,
  ) {}

  /** Checkpoints finished on the thread so far, those that ended with writes held (step 2), and those that failed. */
  get stats(): { readonly checkpoints: number; readonly restarts: number; readonly failures: number } {
    return { ...this.counts };
  }

  /** Called after each commit that wrote to the WAL. */
  committed(): void {
    if (this.stopped || ++this.commits < CHECKPOINT_EVERY_COMMITS || this.running) return;
    this.running = this.checkpoint().finally(() => (this.running = undefined));
  }

  /** Closes the thread's connection (before the host's own, so that the host's closes last). */
  async close(): Promise<void> {
    this.stopped = true;
    await this.running;
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    // Referenced again: an unreferenced thread would let the process end before it closed.
    worker.ref();
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage('close' satisfies CheckpointRequest);
    await exited;
  }

  private async checkpoint(): Promise<void> {
    this.commits = 0;
    const bulk = await this.ask();
    if (!bulk.ok) return void (this.counts.failures += 1);
    // A reader still needs older frames (another process's read): the next round tries again.
    if (bulk.copied < bulk.frames) return;
    this.counts.checkpoints += 1;
    if (bulk.frames < RESTART_WAL_AT_FRAMES || this.commits === 0) return;
    let last: CheckpointReply = bulk;
    await this.holdWrites(async () => {
      last = await this.ask();
    });
    if (last.ok && last.copied === last.frames) this.counts.restarts += 1;
    else if (!last.ok) this.counts.failures += 1;
  }

  private ask(): Promise<CheckpointReply> {
    if (this.stopped && this.worker === undefined) return Promise.resolve({ ok: false, message: 'the checkpoint thread is stopped' });
    const worker = (this.worker ??= this.start());
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      worker.postMessage('checkpoint' satisfies CheckpointRequest);
    });
  }

  private start(): Worker {
    const worker = new Worker(moduleScript(join(__dirname, `checkpoint-worker${extname(__filename)}`)), { eval: true, workerData: this.data });
    worker.unref();
    worker.on('message', (reply: CheckpointReply) => this.waiting.shift()?.(reply));
    worker.on('error', (error) => this.lose(error.message));
    worker.on('exit', (code) => this.lose(`the checkpoint thread exited (code ${code})`));
    this.setAutoCheckpoint(FALLBACK_AUTOCHECKPOINT_PAGES);
    return worker;
  }

  /** The thread is gone: what waited for it fails, and SQLite checkpoints in the commit again. */
  private lose(message: string): void {
    for (const resolve of this.waiting.splice(0)) resolve({ ok: false, message });
    if (this.stopped) return;
    this.stopped = true;
    this.worker = undefined;
    this.setAutoCheckpoint(SQLITE_AUTOCHECKPOINT_PAGES);
  }
}
