import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommitTarget } from './commit-target';
import { prepareProtocolWorkspace, ProtocolTarget } from './protocol-target';
import { prepareRawDatabase, RawCasTarget } from './raw-cas';

/** Commits after which a host that has not started its WAL again is reported as such. */
const MOST_COMMITS = 40_000;

export interface FirstCycle {
  /** Commits the fresh host made until its checkpoint thread had started the WAL again. */
  readonly commits: number;
  /** Microseconds a commit, over those commits and over as many after them: the host's and the raw loop's. */
  readonly protocolUs: { readonly first: number; readonly after: number };
  readonly rawUs: { readonly first: number; readonly after: number };
}

/**
 * A fresh host's first WAL cycle against the one after it: one writer committing in-process, FULL,
 * one document. The host's WAL file grows until the checkpoint thread starts it again (32 MiB),
 * and until then each commit's fdatasync also extends the file; after, it overwrites blocks already
 * written. The raw compare-and-set loop makes the same number of commits twice, as its baseline
 * (SQLite's own checkpoints start its WAL again every 1,000 pages, so its file stops growing at
 * about 4 MiB). Returns undefined when the host had not started its WAL again after MOST_COMMITS.
 */
export async function measureFirstWalCycle(): Promise<FirstCycle | undefined> {
  const protocol = await inFreshDir(async (dir) => {
    const [id] = await prepareProtocolWorkspace(dir, 'FULL', 1);
    const target = await ProtocolTarget.open(dir, 'FULL');
    try {
      // A store without a checkpoint thread has no first cycle of its own to measure.
      if (target.walRestarts() === null) return undefined;
      let revision = 0;
      const started = performance.now();
      while (target.walRestarts() === 0 && revision < MOST_COMMITS) revision = await commitOnce(target, id!, revision);
      const commits = revision;
      if (target.walRestarts() === 0) return undefined;
      const first = (performance.now() - started) / commits;
      return { commits, first, after: await timeCommits(target, id!, revision, commits) };
    } finally {
      await target.close();
    }
  });
  if (!protocol) return undefined;
  const raw = await inFreshDir(async (dir) => {
    const [id] = prepareRawDatabase(dir, 'FULL', 1);
    const target = new RawCasTarget(dir, 'FULL');
    try {
      const first = await timeCommits(target, id!, 0, protocol.commits);
      return { first, after: await timeCommits(target, id!, protocol.commits, protocol.commits) };
    } finally {
      await target.close();
    }
  });
  const us = (ms: number): number => ms * 1000;
  return { commits: protocol.commits, protocolUs: { first: us(protocol.first), after: us(protocol.after) }, rawUs: { first: us(raw.first), after: us(raw.after) } };
}

/** Prints the figures under the commit table. */
export function formatFirstCycle(cycle: FirstCycle | undefined): string {
  if (!cycle) return `first WAL cycle: not measured (the host had not started its WAL again after ${MOST_COMMITS.toLocaleString('en-US')} commits, or has no checkpoint thread)`;
  const { commits, protocolUs: p, rawUs: r } = cycle;
  return (
    `first WAL cycle, one writer in-process, FULL: a fresh host started its WAL again after ${commits.toLocaleString('en-US')} commits; ` +
    `us a commit over them ${p.first.toFixed(0)}, over the next as many ${p.after.toFixed(0)} (first/after ${(p.first / p.after).toFixed(2)}); ` +
    `raw loop, the same commits ${r.first.toFixed(0)} and ${r.after.toFixed(0)} (${(r.first / r.after).toFixed(2)}); ` +
    `protocol/raw throughput ${(r.first / p.first).toFixed(3)} in the first cycle, ${(r.after / p.after).toFixed(3)} after`
  );
}

/** Milliseconds a commit over `count` commits from `revision` on. */
async function timeCommits(target: CommitTarget, id: string, revision: number, count: number): Promise<number> {
  const started = performance.now();
  for (let next = revision; next < revision + count; ) next = await commitOnce(target, id, next);
  return (performance.now() - started) / count;
}

async function commitOnce(target: CommitTarget, id: string, revision: number): Promise<number> {
  const attempt = await target.tryCommit(id, revision, 'w1');
  if (!attempt.ok) throw new Error(`first WAL cycle: a lone writer met a conflict at revision ${revision}`);
  return attempt.revision;
}

async function inFreshDir<T>(run: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'cowork-bench-wal-cycle-'));
  try {
    return await run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
