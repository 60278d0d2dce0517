import { CoworkError } from '../errors';

/** The lease a host holds while it runs a task's Main loop (and its subagents). */
export function taskLeaseKey(taskId: string): string {
  return `task:${taskId}`;
}

/** This host's run stopped because it could not renew the task's lease in time and another host may have taken it. */
export function taskLeaseLostError(taskId: string): CoworkError {
  return new CoworkError(
    'task_leased',
    `task ${taskId} stopped here: this host could not renew its lease in time, so another host may run it now; resume it again if none does`,
    { taskId },
  );
}
