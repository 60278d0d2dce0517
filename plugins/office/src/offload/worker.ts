import { parentPort } from 'node:worker_threads';
import { ownedBuffers, runTask, type OfficeTask } from './tasks';

/**
 * An office worker thread: answers one task at a time (the pool sends it the next only after the
 * answer), handing result bytes over without a copy. A failure goes back as its name, message and
 * stack, so the caller's error reads as if the task had failed on its own thread.
 */
export type WorkerReply = { ok: true; value: unknown } | { ok: false; error: { name: string; message: string; stack?: string } };

parentPort!.on('message', (task: OfficeTask) => {
  runTask(task).then(
    (value) => {
      const { result, transfer } = ownedBuffers(task.type, value);
      parentPort!.postMessage({ ok: true, value: result } satisfies WorkerReply, transfer);
    },
    (error: unknown) => {
      const { name, message, stack } = error instanceof Error ? error : new Error(String(error));
      parentPort!.postMessage({ ok: false, error: { name, message, stack } } satisfies WorkerReply);
    },
  );
});
