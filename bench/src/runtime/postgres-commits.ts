/**
 * bench:postgres: commits/s and p50/p99 latency of the host's store on PostgreSQL, 8 concurrent
 * writers committing through `host.resources.commit`, next to a plain `pg` compare-and-set loop
 * doing the same data work (pg-raw-cas.ts), in the same run, on a throwaway server (fsync on,
 * synchronous_commit on) that the bench starts and removes. Rows: one document per writer (no
 * conflicts) and one shared document (writers re-base on each conflict), each for the raw loop, one
 * host, and two hosts on the same database (4 writers each: two processes, or machines, serving one
 * workspace). Prints a table and writes bench/results/postgres-commits.json; asserts nothing.
 *
 * BENCH_SECONDS sets the measured seconds per run (default 3, after 0.5 s of warm-up).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgresServer, type PostgresServer } from '@cowork/host/testkit';
import { windowFromNow, type Timing } from '../clock';
import { summarizeLatencies } from '../stats';
import { count, formatTable } from '../server/table';
import type { CommitTarget } from './commit-target';
import { preparePgRawDatabase, PgRawCasTarget } from './pg-raw-cas';
import { prepareProtocolHost, ProtocolTarget } from './protocol-target';
import { AIM_RATIO, describeMachine } from './report';
import { runWriter } from './writer-loop';

const RESULTS_FILE = join(__dirname, '..', '..', 'results', 'postgres-commits.json');
const WRITERS = 8;
const WARMUP_SECONDS = 0.5;

type Implementation = 'raw' | 'protocol' | 'protocol, 2 hosts';
type Documents = 'own' | 'shared';

interface Row {
  readonly implementation: Implementation;
  readonly documents: Documents;
  readonly commitsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly conflictsPerCommit: number;
  readonly writersThatCommitted: number;
}

async function measure(server: PostgresServer, implementation: Implementation, documents: Documents, timing: Timing): Promise<Row> {
  const url = await server.createDatabase();
  const docs = documents === 'own' ? WRITERS : 1;
  const workspace = mkdtempSync(join(tmpdir(), 'cowork-bench-pg-'));
  const targets: CommitTarget[] = [];
  try {
    let ids: string[];
    if (implementation === 'raw') {
      ids = await preparePgRawDatabase(url, docs);
      targets.push(new PgRawCasTarget(url, WRITERS));
    } else {
      ids = await prepareProtocolHost({ workspaceDir: workspace, databaseUrl: url }, docs);
      const hosts = implementation === 'protocol' ? 1 : 2;
      for (let h = 0; h < hosts; h++) targets.push(await ProtocolTarget.openHost({ workspaceDir: workspace, databaseUrl: url, pollMonitors: false }));
    }
    const window = windowFromNow(timing);
    const writers = await Promise.all(
      Array.from({ length: WRITERS }, (_, i) => runWriter(targets[i % targets.length]!, ids[i % ids.length]!, `w${i + 1}`, window)),
    );
    const commits = writers.reduce((sum, w) => sum + w.commits, 0);
    const conflicts = writers.reduce((sum, w) => sum + w.conflicts, 0);
    const latency = summarizeLatencies(writers.flatMap((w) => w.latenciesMs));
    return {
      implementation,
      documents,
      commitsPerSecond: commits / (timing.measureMs / 1000),
      p50Ms: latency.p50Ms,
      p99Ms: latency.p99Ms,
      conflictsPerCommit: commits === 0 ? Number.NaN : conflicts / commits,
      writersThatCommitted: writers.filter((w) => w.commits > 0).length,
    };
  } finally {
    await Promise.all(targets.map((t) => t.close()));
    rmSync(workspace, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const seconds = Number(process.env.BENCH_SECONDS || 3);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new Error(`BENCH_SECONDS must be a positive number, got ${JSON.stringify(process.env.BENCH_SECONDS)}`);
  const timing: Timing = { warmupMs: WARMUP_SECONDS * 1000, measureMs: seconds * 1000 };
  const machine = describeMachine();
  console.log(`machine: ${machine.cpus} x ${machine.cpuModel}, node ${machine.node}; PostgreSQL data under ${machine.tmpdir}; ${WRITERS} writers, ${seconds} s per run after ${WARMUP_SECONDS} s warm-up`);
  const server = await startPostgresServer();
  const rows: Row[] = [];
  try {
    for (const documents of ['own', 'shared'] as const) {
      for (const implementation of ['raw', 'protocol', 'protocol, 2 hosts'] as const) {
        rows.push(await measure(server, implementation, documents, timing));
        console.error(`  done: ${documents} ${implementation}`);
      }
    }
  } finally {
    await server.dispose();
  }
  const rawOf = (documents: Documents): number => rows.find((r) => r.documents === documents && r.implementation === 'raw')!.commitsPerSecond;
  const ratio = (row: Row): string => {
    if (row.implementation === 'raw') return '';
    const value = row.commitsPerSecond / rawOf(row.documents);
    return `${value.toFixed(2)}x${value < AIM_RATIO ? ' (below aim)' : ''}`;
  };
  console.log();
  console.log(
    formatTable(
      ['docs', 'impl', 'commits/s', 'p50 ms', 'p99 ms', 'conflicts/commit', 'committed', 'protocol/raw'],
      rows.map((r) => [r.documents, r.implementation, count(r.commitsPerSecond), r.p50Ms.toFixed(2), r.p99Ms.toFixed(2), r.conflictsPerCommit.toFixed(2), `${r.writersThatCommitted}/${WRITERS}`, ratio(r)]),
      2,
    ),
  );
  console.log(`\nown: one document per writer; shared: one document, re-based on each conflict. protocol/raw: commits/s over the raw pg loop's (aim: >= ${AIM_RATIO.toFixed(2)}).`);
  mkdirSync(join(RESULTS_FILE, '..'), { recursive: true });
  writeFileSync(RESULTS_FILE, `${JSON.stringify({ benchmark: 'postgres-commits', at: new Date().toISOString(), machine, seconds, writers: WRITERS, rows }, null, 2)}\n`);
  console.log(`wrote ${RESULTS_FILE}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
