/**
 * Entry point of one worker thread in the `threads` shape: one writer with its own connection
 * (its own Host, or its own SQLite handle for the raw loop), as a separate process would have.
 */
import { once } from 'node:events';
import { parentPort, workerData } from 'node:worker_threads';
import type { WorkerInput, WorkerMessage } from './thread-messages';
import { documentFor, openTarget } from './targets';
import { runWriter, type WriterResult } from './writer-loop';

async function main(port: NonNullable<typeof parentPort>, input: WorkerInput): Promise<void> {
  const writer = `t${input.index + 1}`;
  const target = await openTarget(input.spec);
  let result: WriterResult;
  try {
    const started = once(port, 'message');
    port.postMessage({ type: 'ready' } satisfies WorkerMessage);
    const [message] = (await started) as [WorkerMessage];
    if (message.type !== 'start') throw new Error(`worker ${writer}: expected start, got ${message.type}`);
    result = await runWriter(target, documentFor(input.spec, input.index), writer, message.window);
  } finally {
    // Closed before reporting, so the main thread never removes the directory under an open database.
    await target.close();
  }
  const latenciesMs = Float64Array.from(result.latenciesMs);
  const done: WorkerMessage = { type: 'done', ...result, latenciesMs };
  port.postMessage(done, [latenciesMs.buffer]);
}

if (!parentPort) throw new Error('thread-worker runs only inside a worker thread');
// An unhandled rejection ends the worker and reaches the main thread as the worker's 'error' event.
void main(parentPort, workerData as WorkerInput);
