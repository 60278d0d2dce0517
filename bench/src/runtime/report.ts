import { cpus, platform, arch, tmpdir } from 'node:os';
import { count, formatTable as layOut } from '../server/table';
import type { Comparison, RunResult } from './suite';

/** The protocol should keep at least this share of the raw loop's throughput (the aim). */
export const AIM_RATIO = 0.5;

export interface Machine {
  readonly cpus: number;
  readonly cpuModel: string;
  readonly node: string;
  readonly platform: string;
  readonly tmpdir: string;
}

export function describeMachine(): Machine {
  const list = cpus();
  return {
    cpus: list.length,
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    node: process.version,
    platform: `${platform()} ${arch()}`,
    tmpdir: tmpdir(),
  };
}

const COLUMNS = ['sync', 'shape', 'writers', 'docs', 'impl', 'commits/s', 'p50 ms', 'p99 ms', 'conflicts/commit', 'committed', 'doc chars', 'protocol/raw'] as const;
/** The first columns name the configuration and align left; the figures after them align right. */
const TEXT_COLUMNS = 5;

/** One row per sync mode x shape x writers x implementation; the ratio sits on the protocol row. */
export function formatTable(runs: readonly RunResult[], comparisons: readonly Comparison[]): string {
  const rows = runs.map((run) => {
    const comparison = comparisons.find(
      (c) => c.sync === run.sync && c.shape === run.shape && c.writers === run.writers && c.documents === run.documents,
    );
    const ratio = run.implementation === 'protocol' && comparison ? formatRatio(comparison.ratio) : '';
    return [
      run.sync,
      run.shape,
      String(run.writers),
      run.documents,
      run.implementation,
      count(run.commitsPerSecond),
      run.p50Ms.toFixed(3),
      run.p99Ms.toFixed(3),
      run.conflictsPerCommit.toFixed(2),
      `${run.writersThatCommitted}/${run.writers}`,
      run.finalDocumentChars.toLocaleString('en-US'),
      ratio,
    ];
  });
  return layOut(COLUMNS, rows, TEXT_COLUMNS);
}

export function formatMachine(machine: Machine, seconds: number, warmupSeconds: number): string {
  return `${describe(machine, 'databases')}; ${seconds} s per run after ${warmupSeconds} s warm-up`;
}

/** One line naming the machine, so a pasted result says where it came from. */
export function machineLine(): string {
  return describe(describeMachine(), 'workspaces');
}

function describe(m: Machine, under: string): string {
  return `machine: ${m.cpus} x ${m.cpuModel}, node ${m.node}, ${m.platform}; ${under} under ${m.tmpdir}`;
}

/** What the shapes and columns mean, printed under the table so a pasted result explains itself. */
export const LEGEND = `\
in-process  N async writers in one process on one connection: the raw loop's driver is synchronous
            and the host queues transactions on its connection, so both commit one at a time.
threads     N worker threads, each with its own connection (its own Host for the protocol); they
            race for SQLite's write lock (BEGIN IMMEDIATE, 5 s busy timeout).
docs        shared: all writers commit to one document, re-basing on each conflict; own: one
            document per writer, so writers contend for the database but never conflict.
latency     one successful commit call, from first attempt to success, re-based retries included.
conflicts   attempts refused with revision_conflict, per successful commit. A protocol conflict is
            itself a durable write (the op is kept as a candidate); a raw conflict only reads.
committed   writers with at least one commit in the window; fewer than all means some starved.
doc chars   length of the document at the end (the largest, with own documents): each commit
            appends one character and rewrites the row, so longer or faster runs write bigger rows.
protocol/raw  commits/s of the protocol over the raw loop in the same row group (aim: >= ${AIM_RATIO.toFixed(2)}).`;

function formatRatio(ratio: number): string {
  return `${ratio.toFixed(2)}x${ratio < AIM_RATIO ? ' (below aim)' : ''}`;
}
