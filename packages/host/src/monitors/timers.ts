import type { MonitorRecord } from '../store/monitor-records';
import type { Json } from '../store/records';
import { isPlainObject } from '../util/json';
import { nextCronTime, type CronSchedule } from './cron';

/** A timer's observation: how often it fired, and when it last did. */
export interface TimerObservation {
  readonly fires: number;
  readonly firedAt?: string;
  /** Fires of an interval timer that fell while the host was down, folded into this one. */
  readonly missed?: number;
}

/** Far future for a cron expression that no longer fires (cannot happen for a validated one). */
const NEVER_MS = 8.64e15;

/** When a new monitor is first due: after one period, or at its cron expression's next minute. */
export function firstDue(intervalMs: number | null, schedule: CronSchedule | undefined, nowMs: number): number {
  if (schedule) return nextCronTime(schedule, new Date(nowMs))?.getTime() ?? NEVER_MS;
  return nowMs + intervalMs!;
}

/**
 * A polled monitor's next due time after a check due at `dueMs` that finished at `nowMs`: one
 * period on, or one period from now when checks fell behind (missed polls are not made up).
 */
export function nextPollDue(intervalMs: number, dueMs: number, nowMs: number): number {
  const next = dueMs + intervalMs;
  return next > nowMs ? next : nowMs + intervalMs;
}

/**
 * A timer firing at `nowMs` for its deadline `dueMs`: the observation it records (one more fire)
 * and its next deadline. Deadlines missed while the host was down are folded into this one fire.
 * The wheel may run a deadline a few milliseconds early, so the next cron time is sought from
 * the deadline itself when that is later than now.
 */
export function fireTimer(record: MonitorRecord, schedule: CronSchedule | undefined, dueMs: number, nowMs: number): { observation: Json; nextDueMs: number } {
  const fires = firesOf(record.observation) + 1;
  const firedAt = new Date(nowMs).toISOString();
  if (schedule) {
    const next = nextCronTime(schedule, new Date(Math.max(nowMs, dueMs)))?.getTime() ?? NEVER_MS;
    return { observation: { fires, firedAt }, nextDueMs: next };
  }
  const period = record.intervalMs!;
  const missed = Math.max(0, Math.floor((nowMs - dueMs) / period));
  const observation: Json = missed > 0 ? { fires, firedAt, missed } : { fires, firedAt };
  return { observation, nextDueMs: dueMs + (missed + 1) * period };
}

function firesOf(observation: Json): number {
  return isPlainObject(observation) && typeof observation.fires === 'number' ? observation.fires : 0;
}
