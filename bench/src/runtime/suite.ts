import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Timing } from '../clock';
import { summarizeLatencies } from '../stats';
import type { Implementation, SyncMode } from './commit-target';
import { runInProcess } from './in-process';
import { prepareTarget } from './targets';
import { runThreads } from './threads';
import type { WriterResult } from './writer-loop';

/** `in-process`: N async writers on one connection. `threads`: N worker threads, a connection each. */
export type Shape = 'in-process' | 'threads';

/** `shared`: every writer commits to one document and they conflict. `own`: a document per writer. */
export type Documents = 'shared' | 'own';

export interface WriterCase {
  readonly shape: Shape;
  readonly writers: number;
  readonly documents: Documents;
}

export interface SuiteOptions {
  readonly seconds: number;
  readonly warmupSeconds: number;
  readonly syncModes: readonly SyncMode[];
  readonly cases: readonly WriterCase[];
  /** Called after each run, for progress output. */
  readonly onResult?: (result: RunResult) => void;
}

/** The figures of one implementation in one configuration. */
export interface RunResult extends WriterCase {
  readonly implementation: Implementation;
  readonly sync: SyncMode;
  readonly seconds: number;
  readonly commits: number;
  readonly commitsPerSecond: number;
  /** Attempts refused with a revision conflict, in total and per successful commit. */
  readonly conflicts: number;
  readonly conflictsPerCommit: number;
  /** Writers with at least one commit in the window: under contention some can starve. */
  readonly writersThatCommitted: number;
  /** Length of the (largest) document at the end: rows grow by one character per commit. */
  readonly finalDocumentChars: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

/** The protocol's throughput as a share of the raw loop's, in the same configuration. */
export interface Comparison extends WriterCase {
  readonly sync: SyncMode;
  readonly protocolPerSecond: number;
  readonly rawPerSecond: number;
  readonly ratio: number;
}

export const DEFAULT_CASES: readonly WriterCase[] = [
  { shape: 'in-process', writers: 1, documents: 'shared' },
  { shape: 'in-process', writers: 8, documents: 'shared' },
  { shape: 'in-process', writers: 8, documents: 'own' },
  { shape: 'threads', writers: 8, documents: 'shared' },
  { shape: 'threads', writers: 8, documents: 'own' },
];

/**
 * Runs every sync mode x writer case x implementation, the raw loop first and the protocol right
 * after it so that both see the machine in the same state. Each run gets a fresh temp directory.
 */
export async function runCommitSuite(options: SuiteOptions): Promise<{ runs: RunResult[]; comparisons: Comparison[] }> {
  const timing: Timing = { warmupMs: options.warmupSeconds * 1000, measureMs: options.seconds * 1000 };
  const runs: RunResult[] = [];
  const comparisons: Comparison[] = [];
  for (const sync of options.syncModes) {
    for (const writerCase of options.cases) {
      const raw = await runOne('raw', sync, writerCase, timing);
      options.onResult?.(raw);
      const protocol = await runOne('protocol', sync, writerCase, timing);
      options.onResult?.(protocol);
      runs.push(raw, protocol);
      comparisons.push({
        ...writerCase,
        sync,
        protocolPerSecond: protocol.commitsPerSecond,
        rawPerSecond: raw.commitsPerSecond,
        ratio: protocol.commitsPerSecond / raw.commitsPerSecond,
      });
    }
  }
  return { runs, comparisons };
}

async function runOne(implementation: Implementation, sync: SyncMode, writerCase: WriterCase, timing: Timing): Promise<RunResult> {
  const dir = mkdtempSync(join(tmpdir(), `cowork-bench-${implementation}-`));
  try {
    const spec = await prepareTarget(implementation, sync, dir, writerCase.documents === 'own' ? writerCase.writers : 1);
    const run = writerCase.shape === 'in-process' ? runInProcess : runThreads;
    const writers = await run(spec, writerCase.writers, timing);
    return figures(implementation, sync, writerCase, timing, writers);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function figures(
  implementation: Implementation,
  sync: SyncMode,
  writerCase: WriterCase,
  timing: Timing,
  writers: readonly WriterResult[],
): RunResult {
  const commits = writers.reduce((sum, w) => sum + w.commits, 0);
  const conflicts = writers.reduce((sum, w) => sum + w.conflicts, 0);
  const seconds = timing.measureMs / 1000;
  return {
    ...writerCase,
    implementation,
    sync,
    seconds,
    commits,
    commitsPerSecond: commits / seconds,
    conflicts,
    conflictsPerCommit: commits === 0 ? Number.NaN : conflicts / commits,
    writersThatCommitted: writers.filter((w) => w.commits > 0).length,
    finalDocumentChars: Math.max(0, ...writers.map((w) => w.lastRevision)),
    ...summarizeLatencies(writers.flatMap((w) => w.latenciesMs)),
  };
}
