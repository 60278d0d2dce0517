import autocannon from 'autocannon';
import { summarizeLatencies, type LatencySummary } from '../stats';
import type { ResourceHead } from './server-messages';
import { BENCH_OPERATOR } from './server-targets';

export interface LoadOptions {
  readonly url: string;
  readonly token: string;
  /** One per connection: each connection commits to its own resource, so commits never conflict. */
  readonly resources: readonly ResourceHead[];
  readonly seconds: number;
}

export interface LoadResult {
  /** autocannon's mean of its per-second request counts. */
  readonly requestsPerSecond: number;
  readonly ok: number;
  readonly non2xx: number;
  /** 409 answers: a connection's idea of its resource's revision was stale (expected: none). */
  readonly conflicts: number;
  /** Connection errors, timeouts included. */
  readonly errors: number;
  /** Latency of the 2xx answers, from autocannon's per-response timings at full resolution. */
  readonly latency: LatencySummary;
}

/**
 * Runs autocannon against `POST /api/resources/:id/commits` with one connection per resource and
 * pipelining 1. A commit must name the revision it builds on, so each connection keeps its
 * resource's revision: autocannon builds every request anew through `setupRequest` after the
 * previous answer went through `onResponse`, which reads the revision the commit produced. (The
 * per-request `context` cannot carry it: autocannon clears it whenever the request list starts
 * over, which with one request is every request, so the state lives in a closure made per
 * connection in `setupClient`.) A 409 would re-base onto the revision it reports, and is counted.
 */
export function runCommitLoad(options: LoadOptions): Promise<LoadResult> {
  const latenciesMs: number[] = [];
  let conflicts = 0;
  let nextResource = 0;
  const headers = { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' };

  const setupClient = (client: autocannon.Client): void => {
    const resource = options.resources[nextResource++ % options.resources.length]!;
    let baseRevision = resource.revision;
    client.setRequests([
      {
        method: 'POST',
        path: `/api/resources/${resource.id}/commits`,
        headers,
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({ baseRevision, op: { type: 'append', text: 'x' }, operator: BENCH_OPERATOR }),
        }),
        onResponse: (status, body) => {
          if (status === 200) {
            baseRevision = (JSON.parse(body) as { revision: number }).revision;
          } else if (status === 409) {
            conflicts++;
            baseRevision = (JSON.parse(body) as { error: { currentRevision: number } }).error.currentRevision;
          }
        },
      },
    ]);
  };

  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url: options.url, connections: options.resources.length, pipelining: 1, duration: options.seconds, setupClient },
      (error: unknown, result) => {
        if (error) return reject(error instanceof Error ? error : new Error(String(error)));
        resolve({
          requestsPerSecond: result.requests.average,
          ok: result['2xx'],
          non2xx: result.non2xx,
          conflicts,
          errors: result.errors,
          latency: summarizeLatencies(latenciesMs),
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
      if (statusCode >= 200 && statusCode < 300) latenciesMs.push(responseTimeMs);
    });
  });
}
