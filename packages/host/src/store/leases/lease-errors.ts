import { CoworkError } from '../../errors';
import type { LeaseRecord } from '../lease-records';

/** The refusal to run work whose lease another live holder has: names the holder and when the lease ends. */
export function taskLeasedError(taskId: string, lease: LeaseRecord): CoworkError {
  const endsAt = new Date(lease.expiresAt).toISOString();
  const inSeconds = Math.max(0, Math.ceil((lease.expiresAt - lease.now) / 1000));
  return new CoworkError(
    'task_leased',
    `task ${taskId} is being run by ${lease.holder}, whose lease ends at ${endsAt} (in ${inSeconds} s) unless it renews it: ` +
      'leave the task to that host, or resume it again after that process has stopped and its lease has ended',
    { taskId, holder: lease.holder, leaseExpiresAt: endsAt },
  );
}
