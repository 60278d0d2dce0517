import { setImmediate as immediate } from 'node:timers/promises';

/** Lets the requests and timers that are waiting run before going on (after pending I/O, not only microtasks). */
export function yieldToEventLoop(): Promise<void> {
  return immediate();
}
