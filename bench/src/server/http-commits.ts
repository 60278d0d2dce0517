/**
 * HTTP commit throughput and latency of the real server (`createServer` over a temp workspace),
 * beside a bare fastify route on the same machine, and the ratio of the two. Each server runs in
 * a worker thread; autocannon drives it from the main thread. Prints figures; asserts nothing.
 *
 * BENCH_SECONDS (default 5) measured per server after BENCH_WARMUP_SECONDS (default 1);
 * BENCH_CONNECTIONS (default 10), each committing to its own text resource.
 */
import { machineLine } from '../runtime/report';
import { runCommitLoad, type LoadResult } from './commit-load';
import type { ServerKind } from './server-messages';
import { ServerThread } from './server-thread';
import { count, formatTable, ms } from './table';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 1);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

interface Measured {
  readonly kind: ServerKind;
  readonly load: LoadResult;
  /** Revisions the cowork store holds from the measured run (null for the bare route). */
  readonly stored: number | null;
}

async function main(): Promise<void> {
  console.log(
    `HTTP commits: POST /api/resources/:id/commits appending one character, autocannon, ${CONNECTIONS} connections ` +
      `(one text resource each), pipelining 1, ${SECONDS} s after ${WARMUP_SECONDS} s warm-up`,
  );
  console.log('each server in its own worker thread, autocannon on the main thread; cowork store synchronous=FULL (the default)');
  console.log(machineLine());
  const bare = await measure('bare');
  const cowork = await measure('cowork');
  const person = await measure('cowork-person');
  const unbatched = await measure('cowork-unbatched');
  const rows = [bare, cowork, person, unbatched].map(({ kind, load, stored }) => [
    kind,
    count(load.requestsPerSecond),
    count(load.ok),
    count(load.non2xx),
    count(load.conflicts),
    count(load.errors),
    ms(load.latency.p50Ms),
    ms(load.latency.p99Ms),
    ms(load.latency.maxMs),
    stored === null ? '-' : count(stored),
  ]);
  console.log();
  console.log(formatTable(['server', 'req/s', '2xx', 'non-2xx', '409', 'errors', 'p50 ms', 'p99 ms', 'max ms', 'stored'], rows));
  console.log();
  const throughput = cowork.load.requestsPerSecond / bare.load.requestsPerSecond;
  const latency = cowork.load.latency.p50Ms / bare.load.latency.p50Ms;
  console.log(`cowork/bare: throughput ${throughput.toFixed(3)}, p50 latency x${latency.toFixed(1)}`);
  console.log(`cowork-person/cowork: throughput ${(person.load.requestsPerSecond / cowork.load.requestsPerSecond).toFixed(3)}`);
  console.log(`cowork/cowork-unbatched (group commit on/off): throughput ${(cowork.load.requestsPerSecond / unbatched.load.requestsPerSecond).toFixed(3)}, p99 ${ms(cowork.load.latency.p99Ms)} against ${ms(unbatched.load.latency.p99Ms)} ms`);
  console.log(LEGEND);
}

async function measure(kind: ServerKind): Promise<Measured> {
  const server = await ServerThread.start(kind);
  try {
    const load = async (seconds: number): Promise<{ load: LoadResult; stored: number | null }> => {
      // Fresh resources per run: a commit still in flight when autocannon stops leaves its
      // connection's revision stale, which would make the next run start with a conflict.
      const { resources } = await server.request({ type: 'create', count: CONNECTIONS }, 'created');
      const result = await runCommitLoad({ url: server.url, token: server.token, resources, seconds });
      const { commits } = await server.request({ type: 'count', since: resources }, 'counted');
      return { load: result, stored: commits };
    };
    if (WARMUP_SECONDS > 0) await load(WARMUP_SECONDS);
    return { kind, ...(await load(SECONDS)) };
  } finally {
    await server.stop();
  }
}

const LEGEND = `
req/s    autocannon's mean of its per-second response counts.
2xx      answered commits; non-2xx must be 0 (409: a stale baseRevision, re-based and counted).
p50..max latency of the 2xx answers, autocannon's own timing per response at full resolution.
stored   revisions the cowork store holds from the measured run: the 2xx answers plus any commit
         still in flight when autocannon stopped (at most one per connection).
cowork   the owner's token; cowork-person: a person's token (hashed and looked up in the store on
         every request), acting as themselves. Both with group commit (the default): commits that
         arrive together share one COMMIT and fsync, each answered after it.
cowork-unbatched  the owner's token, group commit off (maxBatch 1): one COMMIT and fsync per commit.
bare     fastify with one POST route on the same path returning {revision: n}: JSON body parsing
         and routing, no auth, validation or store. The ratio is what the server costs on top.`;

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
