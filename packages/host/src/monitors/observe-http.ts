import type { Json } from '../store/records';
import { sha256Hex } from './hash';
import { parseJsonPath, valueAt } from './json-path';
import type { Observer } from './observer';

/** A value longer than this (as JSON) is observed by its hash, to keep events and rows small. */
const MAX_VALUE_CHARS = 2000;

/**
 * An HTTP endpoint: `{status, sha256}` of the body, or with a JSON path `{status, value}` (the value
 * at the path; `found: false` when the path is absent, `error: 'not_json'` when the body does not
 * parse). A failure to get any answer (refused, DNS, timeout) is the observation
 * `{error: 'unreachable', code, message}`, never a thrown error; it going away is a change too.
 */
export function httpObserver(target: { url: string; jsonPath: string | null; timeoutMs: number }): Observer {
  const steps = target.jsonPath === null ? undefined : parseJsonPath(target.jsonPath);
  return {
    async observe(signal: AbortSignal): Promise<Json> {
      let status: number;
      let body: Buffer;
      try {
        const response = await fetch(target.url, {
          signal: AbortSignal.any([signal, AbortSignal.timeout(target.timeoutMs)]),
          headers: { accept: steps ? 'application/json' : '*/*' },
        });
        status = response.status;
        body = Buffer.from(await response.arrayBuffer());
      } catch (error) {
        return unreachable(error, target.timeoutMs);
      }
      if (!steps) return { status, sha256: sha256Hex(body) };
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        return { status, error: 'not_json', sha256: sha256Hex(body) };
      }
      const value = valueAt(parsed, steps);
      if (value === undefined) return { status, found: false };
      const text = JSON.stringify(value);
      return text.length > MAX_VALUE_CHARS ? { status, valueSha256: sha256Hex(text) } : { status, value: value as Json };
    },
  };
}

/**
 * The stable part of a failed request: its code and message (no timings, no stack). Read by
 * shape, not `instanceof`: fetch's errors may come from another realm (a test runner's sandbox).
 */
function unreachable(error: unknown, timeoutMs: number): Json {
  const e = (typeof error === 'object' && error !== null ? error : {}) as { name?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } };
  if (e.name === 'TimeoutError') return { error: 'unreachable', code: 'timeout', message: `no answer within ${timeoutMs} ms` };
  if (e.name === 'AbortError') return { error: 'unreachable', code: 'aborted', message: 'the check was stopped' };
  const code = typeof e.cause?.code === 'string' ? e.cause.code : 'fetch_failed';
  const message = typeof e.cause?.message === 'string' ? e.cause.message : typeof e.message === 'string' ? e.message : String(error);
  return { error: 'unreachable', code, message };
}
