import { parentPort } from 'node:worker_threads';
import { isCoworkError } from '@cowork/host';
import { resultMessage, runTask, type OfficeTask } from './tasks';

/**
 * An office worker thread: answers one task at a time (the pool sends it the next only after the
 * answer), handing result bytes over without a copy and contents as JSON pieces (./pieces.ts). A failure goes back as its name, message and
 * stack, and a CoworkError also as its code and details, so the caller's error reads as if the task
 * had failed on its own thread. `abort` stops the task under way at its next look at its signal.
 */
export type WorkerRequest = { task: OfficeTask } | { abort: true };
export type WorkerError = { name: string; message: string; stack?: string; code?: string; details?: Record<string, unknown> };
export type WorkerReply = { ok: true; value: unknown } | { ok: false; error: WorkerError };

let running: AbortController | undefined;

parentPort!.on('message', (request: WorkerRequest) => {
  if ('abort' in request) {
    running?.abort(new Error('the task was aborted'));
    return;
  }
  const { task } = request;
  const controller = new AbortController();
  running = controller;
  runTask(task, controller.signal)
    .then(
      (value) => {
        const { message, transfer } = resultMessage(task.type, value);
        parentPort!.postMessage({ ok: true, value: message } satisfies WorkerReply, transfer);
      },
      (error: unknown) => {
        const { name, message, stack } = error instanceof Error ? error : new Error(String(error));
        const coded = isCoworkError(error) ? { code: error.code, details: error.details } : {};
        parentPort!.postMessage({ ok: false, error: { name, message, stack, ...coded } } satisfies WorkerReply);
      },
    )
    .finally(() => {
      if (running === controller) running = undefined;
    });
});
