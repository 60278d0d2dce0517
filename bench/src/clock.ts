/**
 * Milliseconds since the Unix epoch with sub-millisecond resolution. Each worker thread has its own
 * `performance.timeOrigin`, so plain `performance.now()` values cannot be compared across threads;
 * adding the origin gives one time line that the main thread and its workers share.
 */
export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

/** The span whose completed commits count: writers run from now until `end`, warming up before `start`. */
export interface MeasureWindow {
  readonly start: number;
  readonly end: number;
}

/** How long writers warm up and then how long they are measured. */
export interface Timing {
  readonly warmupMs: number;
  readonly measureMs: number;
}

/** The window for writers that are all ready to start now. */
export function windowFromNow(timing: Timing): MeasureWindow {
  const start = epochNow() + timing.warmupMs;
  return { start, end: start + timing.measureMs };
}

/** Runs `fn` and resolves with its value and how long it took, in milliseconds. */
export async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await fn();
  return [value, performance.now() - started];
}
