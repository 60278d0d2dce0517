/**
 * Retry timing for model calls: exponential backoff with jitter, a server's `Retry-After` honoured
 * up to a cap, and a sleep that an abort cuts short.
 */

export interface BackoffOptions {
  /** Delay before the first retry; each later retry doubles it. */
  baseDelayMs: number;
  /** No wait, whether computed or asked for by `Retry-After`, is longer than this. */
  maxDelayMs: number;
}

/**
 * The wait before retry number `retry` (1 = the first retry). "Equal jitter": half the exponential
 * delay is fixed, half random, so clients that failed together do not retry together. A server's
 * `Retry-After` replaces the computed delay, since the server knows when it will have room.
 */
export function retryDelayMs(
  retry: number,
  options: BackoffOptions,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, options.maxDelayMs);
  const exponential = Math.min(options.baseDelayMs * 2 ** (retry - 1), options.maxDelayMs);
  return exponential / 2 + random() * (exponential / 2);
}

/** `Retry-After` as seconds (fractions tolerated) or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Waits `ms`; rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
