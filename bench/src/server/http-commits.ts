/**
 * HTTP commit throughput and latency of the real server (`createServer` over a temp workspace),
 * beside two fastify baselines on the same machine: a bare route answering at once, and the same
 * route doing the same compare-and-set in SQLite by hand (FULL, one fsync per request). Each
 * server runs in a worker thread; autocannon drives it from the main thread. Measured with one
 * connection and with several; prints figures and ratios; asserts nothing.
 *
 * BENCH_SECONDS (default 5) measured per server after a warm-up of BENCH_WARMUP_SECONDS (default
 * 1), repeated until the server's store is past its WAL's first cycle (at most MAX_WARMUP_SECONDS):
 * see `warmUpServer`. BENCH_CONNECTIONS (default "1,10"), each connection committing to its own text
 * resource.
 */
import { machineLine } from '../runtime/report';
import { runCommitLoad, type LoadResult } from './commit-load';
import type { ServerKind } from './server-messages';
import { ServerThread } from './server-thread';
import { count, formatTable, ms } from './table';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 1);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '1,10').split(',').map(Number);
/** The longest warm-up a server gets while its store's WAL has not started again yet. */
const MAX_WARMUP_SECONDS = 12;

interface Measured {
  readonly kind: ServerKind;
  readonly connections: number;
  readonly load: LoadResult;
  /** Revisions the cowork store holds from the measured run (null for the baselines). */
  readonly stored: number | null;
  /** Seconds of warm-up, and the WAL restarts the store had made by the end of it (null: SQLite's own, in-commit). */
  readonly warmUp: { readonly seconds: number; readonly walRestarts: number | null };
}

async function main(): Promise<void> {
  console.log(
    `HTTP commits: POST /api/resources/:id/commits appending one character, autocannon, ${CONNECTIONS.join(' and ')} connection(s) ` +
      `(one text resource each), pipelining 1, ${SECONDS} s after a warm-up of ${WARMUP_SECONDS} s, repeated until the cowork store has started its WAL again (at most ${MAX_WARMUP_SECONDS} s)`,
  );
  console.log('each server in its own worker thread, autocannon on the main thread; cowork store and bare-cas synchronous=FULL');
  console.log(machineLine());
  const measured: Measured[] = [];
  const most = Math.max(...CONNECTIONS);
  for (const connections of CONNECTIONS) {
    // The person's token and group commit off are compared at the most connections only.
    const kinds: ServerKind[] = connections === most ? ['bare', 'bare-cas', 'cowork', 'cowork-person', 'cowork-unbatched'] : ['bare', 'bare-cas', 'cowork'];
    for (const kind of kinds) measured.push(await measure(kind, connections));
  }
  const rows = measured.map(({ kind, connections, load, stored, warmUp }) => [
    kind,
    count(connections),
    count(load.requestsPerSecond),
    count(load.ok),
    count(load.non2xx),
    count(load.conflicts),
    count(load.errors),
    ms(load.latency.p50Ms),
    ms(load.latency.p99Ms),
    ms(load.latency.maxMs),
    stored === null ? '-' : count(stored),
    `${warmUp.seconds} s${warmUp.walRestarts === null ? '' : `, ${warmUp.walRestarts}`}`,
  ]);
  console.log();
  console.log(formatTable(['server', 'conns', 'req/s', '2xx', 'non-2xx', '409', 'errors', 'p50 ms', 'p99 ms', 'max ms', 'stored', 'warm-up, WAL restarts'], rows));
  console.log();
  const find = (kind: ServerKind, connections: number): Measured | undefined => measured.find((m) => m.kind === kind && m.connections === connections);
  for (const connections of CONNECTIONS) {
    const cowork = find('cowork', connections)!;
    const bare = find('bare', connections)!;
    const cas = find('bare-cas', connections)!;
    console.log(
      `${connections} connection(s): cowork/bare-cas throughput ${(cowork.load.requestsPerSecond / cas.load.requestsPerSecond).toFixed(3)} (aim at 1: >= 0.66), ` +
        `cowork/bare ${(cowork.load.requestsPerSecond / bare.load.requestsPerSecond).toFixed(3)}, p99 cowork ${ms(cowork.load.latency.p99Ms)} ms against bare-cas ${ms(cas.load.latency.p99Ms)} ms`,
    );
  }
  const cowork = find('cowork', most)!;
  const person = find('cowork-person', most)!;
  const unbatched = find('cowork-unbatched', most)!;
  const single = find('bare-cas', Math.min(...CONNECTIONS))!;
  console.log(`${most} connections: cowork-person/cowork throughput ${(person.load.requestsPerSecond / cowork.load.requestsPerSecond).toFixed(3)}`);
  console.log(
    `${most} connections: cowork/cowork-unbatched (group commit on/off) throughput ${(cowork.load.requestsPerSecond / unbatched.load.requestsPerSecond).toFixed(3)}, ` +
      `p99 ${ms(cowork.load.latency.p99Ms)} against ${ms(unbatched.load.latency.p99Ms)} ms; ` +
      `against the single-connection bare-cas route ${(cowork.load.requestsPerSecond / single.load.requestsPerSecond).toFixed(3)} (aim: >= 1 with p99 < 10 ms)`,
  );
  console.log(LEGEND);
}

async function measure(kind: ServerKind, connections: number): Promise<Measured> {
  const server = await ServerThread.start(kind);
  try {
    const load = async (seconds: number): Promise<{ load: LoadResult; stored: number | null; walRestarts: number | null }> => {
      // Fresh resources per run: a commit still in flight when autocannon stops leaves its
      // connection's revision stale, which would make the next run start with a conflict.
      const { resources } = await server.request({ type: 'create', count: connections }, 'created');
      const result = await runCommitLoad({ url: server.url, token: server.token, resources, seconds });
      const { commits, walRestarts } = await server.request({ type: 'count', since: resources }, 'counted');
      return { load: result, stored: commits, walRestarts };
    };
    const warmUp = await warmUpServer(load);
    const { load: result, stored } = await load(SECONDS);
    return { kind, connections, load: result, stored, warmUp };
  } finally {
    await server.stop();
  }
}

/**
 * Warms a server up as a host that has been running is warm: past its first compilations, and past
 * its store's first WAL cycle. A fresh host's WAL file grows until the checkpoint thread starts it
 * again (at RESTART_WAL_AT_FRAMES, 32 MiB), and until then each commit's fdatasync also extends
 * the file, about twice the cost of one that overwrites blocks already written (ext4, this machine:
 * 190 against 100 us a 10 KB write). That happens once per host process, in about the first 3,000
 * commits; bare-cas's WAL (SQLite's default, started again at 1,000 pages, 4 MiB) is past it within
 * the first second. So the warm-up runs again, BENCH_WARMUP_SECONDS at a time, until the store has
 * started its WAL again (up to MAX_WARMUP_SECONDS); the table prints both. bench:commits measures
 * the first cycle itself ("first WAL cycle").
 */
async function warmUpServer(load: (seconds: number) => Promise<{ walRestarts: number | null }>): Promise<Measured['warmUp']> {
  let seconds = 0;
  let walRestarts: number | null = null;
  while (WARMUP_SECONDS > 0 && seconds < MAX_WARMUP_SECONDS) {
    walRestarts = (await load(WARMUP_SECONDS)).walRestarts;
    seconds += WARMUP_SECONDS;
    if (walRestarts !== 0) break;
  }
  return { seconds, walRestarts };
}

const LEGEND = `
req/s    autocannon's mean of its per-second response counts.
2xx      answered commits; non-2xx must be 0 (409: a stale baseRevision, re-based and counted).
p50..max latency of the 2xx answers, autocannon's own timing per response at full resolution.
stored   revisions the cowork store holds from the measured run: the 2xx answers plus any commit
         still in flight when autocannon stopped (at most one per connection).
warm-up  seconds of load before the measured run, and (cowork) the times its WAL had started again
         by then: the warm-up goes on until it has (see warmUpServer), so that the run measures a
         host past its first WAL cycle, as bare-cas is after its first second.
cowork   the owner's token; cowork-person: a person's token (hashed and looked up in the store on
         every request), acting as themselves. Both with group commit (the default): commits that
         arrive together share one COMMIT and fsync, each answered after it.
cowork-unbatched  the owner's token, group commit off (maxBatch 1): one COMMIT and fsync per commit.
bare     fastify with one POST route on the same path returning {revision: n}: JSON body parsing
         and routing, no auth, validation or store. The ratio is what the server costs on top.
bare-cas the same route doing the compare-and-set by hand in SQLite (WAL, synchronous=FULL,
         BEGIN IMMEDIATE, one COMMIT and fsync per request): what a person would write.`;

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
