import { join } from 'node:path';
import { windowFromNow, type Timing } from '../clock';
import { WorkerChannel } from '../worker-channel';
import type { TargetSpec } from './commit-target';
import type { WorkerInput, WorkerMessage } from './thread-messages';
import type { WriterResult } from './writer-loop';

const WORKER_FILE = join(__dirname, 'thread-worker.ts');

/**
 * N worker threads, each a writer with its own connection to the same database: the shape of
 * several processes (a server, the CLI, another host) on one workspace. Here commits really do
 * race, and SQLite's write lock (`BEGIN IMMEDIATE` with a busy timeout) decides who goes next.
 */
export async function runThreads(spec: TargetSpec, writers: number, timing: Timing): Promise<WriterResult[]> {
  const workers = Array.from(
    { length: writers },
    (_, index) => new WorkerChannel<WorkerMessage, WorkerMessage>(WORKER_FILE, { spec, index } satisfies WorkerInput, `worker t${index + 1}`),
  );
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
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
