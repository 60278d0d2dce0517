/**
 * Open-loop HTTP commit load: commits are offered on a fixed schedule (send i at t0 + i/rate),
 * whatever the server's pace, and each latency runs from the scheduled send time to the answer,
 * so time a request spent waiting behind a slow server (in the client's queue or on a socket)
 * counts in full: no coordinated omission. If the server cannot keep up, the queue and the
 * latencies grow through the run, and that is what the figures show.
 *
 * Against the real server (`cowork`, owner's token, group commit on, synchronous=FULL) and, in the
 * same run and on the same schedule, two baselines: the bare fastify route (`bare`) and the same
 * route doing the same compare-and-set in SQLite by hand (`bare-cas`, FULL). Each server
 * runs in a worker thread; the load (node:http, keep-alive) runs on the main thread.
 *
 * Each request appends one character to a text resource taken from a free-list of
 * BENCH_OPEN_LOOP_CONNECTIONS resources, one per socket, and gives it back with the revision its
 * answer names; so no two requests in flight share a resource and baseRevision is always right
 * (a 409 would re-base and is counted: expected 0). A send due while every resource is in flight
 * waits in the client's queue; its wait counts in its latency.
 *
 * BENCH_OPEN_LOOP_RATES (default "1000,3000", commits/s offered); BENCH_OPEN_LOOP_SECONDS
 * (default 5, measured) after BENCH_OPEN_LOOP_WARMUP_SECONDS (default 1, same schedule, not
 * measured); BENCH_OPEN_LOOP_CONNECTIONS (default 64); BENCH_OPEN_LOOP_SERVERS (default
 * "bare,bare-cas,cowork"; any server kind of server-messages.ts).
 */
import { Agent, request as httpRequest } from 'node:http';
import { machineLine } from '../runtime/report';
import { percentile } from '../stats';
import type { ResourceHead, ServerKind } from './server-messages';
import { BENCH_OPERATOR } from './server-targets';
import { ServerThread } from './server-thread';
import { count, formatTable, ms } from './table';

const RATES = (process.env.BENCH_OPEN_LOOP_RATES ?? '1000,3000').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_OPEN_LOOP_SECONDS ?? 5);
const WARMUP_SECONDS = Number(process.env.BENCH_OPEN_LOOP_WARMUP_SECONDS ?? 1);
const CONNECTIONS = Number(process.env.BENCH_OPEN_LOOP_CONNECTIONS ?? 64);
const SERVERS = (process.env.BENCH_OPEN_LOOP_SERVERS ?? 'bare,bare-cas,cowork').split(',') as ServerKind[];
/** A request not answered by then counts as an error (its resource is then given back as it was; a 409 would re-base it). */
const REQUEST_TIMEOUT_MS = 60_000;

interface OpenLoopResult {
  readonly kind: ServerKind;
  readonly rate: number;
  /** Sends scheduled in the measured window. */
  readonly offered: number;
  /** 2xx answers (to any send) that arrived within the measured window, per second: the server's pace. */
  readonly answeredPerSecond: number;
  readonly ok: number;
  readonly non2xx: number;
  readonly conflicts: number;
  readonly errors: number;
  /** Latency from scheduled send time to answer, of the measured 2xx answers, ascending. */
  readonly latenciesMs: Float64Array;
  /** How late the request left the client (put on a socket) after its scheduled time, p99: the client's own queue and event loop. */
  readonly sendLagP99Ms: number;
  /** Revisions the cowork store holds from the whole run (warm-up included), null for bare. */
  readonly stored: number | null;
  /** 2xx answers over the whole run, warm-up included, to check against `stored`. */
  readonly okAll: number;
}

async function main(): Promise<void> {
  console.log(
    `Open-loop HTTP commits: POST /api/resources/:id/commits appending one character, offered at ${RATES.map(count).join(' and ')}/s ` +
      `on a fixed schedule, ${SECONDS} s measured after ${WARMUP_SECONDS} s warm-up; latency from each send's scheduled time`,
  );
  console.log(
    `node:http keep-alive, ${CONNECTIONS} sockets and ${CONNECTIONS} text resources (one per request in flight); ` +
      'each server in its own worker thread, the load on the main thread; cowork store synchronous=FULL (the default)',
  );
  console.log(machineLine());
  const results: OpenLoopResult[] = [];
  for (const kind of SERVERS) results.push(...(await measureServer(kind)));

  const rows = results.map((r) => [
    r.kind,
    count(r.rate),
    count(r.answeredPerSecond),
    `${count(r.ok)}/${count(r.offered)}`,
    count(r.non2xx),
    count(r.conflicts),
    count(r.errors),
    ms(percentile(r.latenciesMs, 50)),
    ms(percentile(r.latenciesMs, 99)),
    ms(percentile(r.latenciesMs, 99.9)),
    ms(r.latenciesMs.length === 0 ? Number.NaN : r.latenciesMs[r.latenciesMs.length - 1]!),
    ms(r.sendLagP99Ms),
    r.stored === null ? '-' : `${count(r.stored)}/${count(r.okAll)}`,
  ]);
  console.log();
  console.log(
    formatTable(['server', 'offered/s', 'answered/s', '2xx/offered', 'non-2xx', '409', 'errors', 'p50 ms', 'p99 ms', 'p99.9 ms', 'max ms', 'send lag p99', 'stored/2xx'], rows),
  );
  console.log();
  for (const rate of RATES) {
    const cowork = results.find((r) => r.kind === 'cowork' && r.rate === rate);
    if (!cowork) continue;
    const keptUp = (r: OpenLoopResult): boolean => r.answeredPerSecond >= 0.98 * rate;
    const against = (['bare', 'bare-cas'] as const).flatMap((kind) => {
      const base = results.find((r) => r.kind === kind && r.rate === rate);
      if (!base) return [];
      // Two significant digits: against a baseline that fell behind the ratio is far below 0.1.
      const ratio = (p: number): string => (percentile(cowork.latenciesMs, p) / percentile(base.latenciesMs, p)).toPrecision(2);
      const behind = keptUp(base) ? '' : ` (${kind} fell behind: ${count(base.answeredPerSecond)} answered/s, its backlog in its latency)`;
      return [`cowork/${kind} latency: p50 x${ratio(50)}, p99 x${ratio(99)}, p99.9 x${ratio(99.9)}${behind}`];
    });
    console.log(`${count(rate)}/s  ${against.join('; ')}; cowork ${keptUp(cowork) ? 'kept up' : 'fell behind'} (${count(cowork.answeredPerSecond)} answered/s)`);
  }
  console.log(LEGEND);
}

async function measureServer(kind: ServerKind): Promise<OpenLoopResult[]> {
  const server = await ServerThread.start(kind);
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  try {
    const results: OpenLoopResult[] = [];
    for (const rate of RATES) {
      // Fresh resources per rate, so each run starts with every head known.
      const { resources } = await server.request({ type: 'create', count: CONNECTIONS }, 'created');
      const run = await runSchedule({ url: server.url, token: server.token, agent, resources, rate });
      const { commits } = await server.request({ type: 'count', since: resources }, 'counted');
      results.push({ kind, rate, ...run, stored: commits });
    }
    return results;
  } finally {
    agent.destroy();
    await server.stop();
  }
}

interface ScheduleOptions {
  readonly url: string;
  readonly token: string;
  readonly agent: Agent;
  readonly resources: readonly ResourceHead[];
  readonly rate: number;
}

type ScheduleResult = Omit<OpenLoopResult, 'kind' | 'rate' | 'stored'>;

/** Offers `rate` commits/s for warm-up plus measured seconds and resolves once every one is answered. */
async function runSchedule(options: ScheduleOptions): Promise<ScheduleResult> {
  const { rate } = options;
  const total = Math.round(rate * (WARMUP_SECONDS + SECONDS));
  const firstMeasured = Math.round(rate * WARMUP_SECONDS);
  const free: { id: string; revision: number }[] = options.resources.map((r) => ({ id: r.id, revision: r.revision }));
  /** Sends that came due while every resource was in flight, oldest first (their scheduled times). */
  const waiting: number[] = [];
  let waitingHead = 0;

  const latenciesMs: number[] = [];
  const sendLagsMs: number[] = [];
  let ok = 0;
  let okAll = 0;
  let non2xx = 0;
  let conflicts = 0;
  let errors = 0;
  let answeredInWindow = 0;
  let answered = 0;
  let finished: () => void = () => undefined;
  const allAnswered = new Promise<void>((resolve) => (finished = resolve));

  const t0 = performance.now() + 20;
  const measureStart = t0 + (firstMeasured * 1000) / rate;
  const measureEnd = measureStart + SECONDS * 1000;
  const scheduledAt = (i: number): number => t0 + (i * 1000) / rate;

  const send = (index: number, resource: { id: string; revision: number }): void => {
    const scheduled = scheduledAt(index);
    const measured = index >= firstMeasured;
    const body = JSON.stringify({ baseRevision: resource.revision, op: { type: 'append', text: 'x' }, operator: BENCH_OPERATOR });
    let settled = false;
    const settle = (status: number | undefined, text: string): void => {
      if (settled) return;
      settled = true;
      const now = performance.now();
      if (status !== undefined && status >= 200 && status < 300) {
        okAll++;
        if (now >= measureStart && now < measureEnd) answeredInWindow++;
        resource.revision = (JSON.parse(text) as { revision: number }).revision;
        if (measured) {
          ok++;
          latenciesMs.push(now - scheduled);
        }
      } else if (status === 409) {
        if (measured) conflicts++;
        resource.revision = (JSON.parse(text) as { error: { currentRevision: number } }).error.currentRevision;
      } else if (status !== undefined) {
        if (measured) non2xx++;
      } else if (measured) {
        errors++;
      }
      release(resource);
      if (++answered === total) finished();
    };
    const req = httpRequest(
      `${options.url}/api/resources/${resource.id}/commits`,
      {
        method: 'POST',
        agent: options.agent,
        headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        timeout: REQUEST_TIMEOUT_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => settle(res.statusCode, Buffer.concat(chunks).toString('utf8')));
        res.on('error', () => settle(undefined, ''));
      },
    );
    req.on('socket', () => {
      if (measured) sendLagsMs.push(performance.now() - scheduled);
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', () => settle(undefined, ''));
    req.end(body);
  };

  /** A resource came back: the oldest waiting send takes it, or it goes back on the free-list. */
  const release = (resource: { id: string; revision: number }): void => {
    if (waitingHead < waiting.length) send(waiting[waitingHead++]!, resource);
    else free.push(resource);
  };

  let next = 0;
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      const now = performance.now();
      while (next < total && scheduledAt(next) <= now) {
        const resource = free.pop();
        if (resource) send(next, resource);
        else waiting.push(next);
        next++;
      }
      if (next >= total) return resolve();
      setTimeout(tick, Math.max(0, scheduledAt(next) - performance.now()));
    };
    setTimeout(tick, Math.max(0, t0 - performance.now()));
  });
  await allAnswered;

  const sortedLags = Float64Array.from(sendLagsMs).sort();
  return {
    offered: total - firstMeasured,
    answeredPerSecond: answeredInWindow / SECONDS,
    ok,
    okAll,
    non2xx,
    conflicts,
    errors,
    latenciesMs: Float64Array.from(latenciesMs).sort(),
    sendLagP99Ms: percentile(sortedLags, 99),
  };
}

const LEGEND = `
offered/s     commits/s offered: send i is due at t0 + i/rate, whether or not earlier ones were answered.
answered/s    2xx answers (to any send) that arrived during the measured window, per second: the
              server's pace; below the offered rate means it fell behind and the backlog grew.
2xx/offered   measured sends answered 2xx, of those scheduled in the measured window (all are waited for).
non-2xx, 409  answers other than 2xx (409, a stale baseRevision, re-based; expected 0); errors: no answer.
p50..max      latency of the measured 2xx answers from the send's scheduled time (not the time it
              left the client) to the whole answer read: queueing in the client, behind busy
              resources or sockets, counts in full, so a server that falls behind shows it here.
send lag p99  how late a request was handed a socket after its scheduled time: the client's queue
              (all ${CONNECTIONS} resources in flight) and its own event loop on the shared cores.
stored/2xx    revisions the cowork store holds from the run, warm-up included, against the 2xx answers
              of the whole run: must be equal (every request is waited for).
bare          fastify with one POST route on the same path returning {revision: n}: JSON body parsing
              and routing, no auth, validation or store, on the same schedule: the baseline.
bare-cas      the same route doing the compare-and-set by hand in SQLite (WAL, synchronous=FULL,
              one COMMIT and fsync per request): what a person would write, on the same schedule.`;

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
