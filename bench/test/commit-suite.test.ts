/**
 * Invariant: one short pass of the commit benchmark, over every shape, produces a well-formed
 * figure for each implementation and a comparison for each configuration. It asserts no timing:
 * this machine's speed is not the test's business, only that the benchmark measures something.
 */
import { runCommitSuite, type WriterCase } from '../src/runtime/suite';

const CASES: readonly WriterCase[] = [
  { shape: 'in-process', writers: 1, documents: 'shared' },
  { shape: 'in-process', writers: 2, documents: 'shared' },
  { shape: 'threads', writers: 2, documents: 'own' },
];

describe('commit benchmark suite', () => {
  it('measures both implementations in every configuration', async () => {
    const { runs, comparisons } = await runCommitSuite({ seconds: 0.2, warmupSeconds: 0.05, syncModes: ['NORMAL'], cases: CASES });

    expect(runs.map((r) => `${r.shape}/${r.writers}/${r.documents}/${r.implementation}`)).toEqual([
      'in-process/1/shared/raw',
      'in-process/1/shared/protocol',
      'in-process/2/shared/raw',
      'in-process/2/shared/protocol',
      'threads/2/own/raw',
      'threads/2/own/protocol',
    ]);
    for (const run of runs) {
      expect(run.commits).toBeGreaterThan(0);
      expect(run.commitsPerSecond).toBeCloseTo(run.commits / run.seconds);
      expect(run.p50Ms).toBeGreaterThanOrEqual(0);
      expect(run.p99Ms).toBeGreaterThanOrEqual(run.p50Ms);
      expect(run.maxMs).toBeGreaterThanOrEqual(run.p99Ms);
      expect(run.conflictsPerCommit).toBeGreaterThanOrEqual(0);
      expect(run.writersThatCommitted).toBeGreaterThanOrEqual(1);
      expect(run.writersThatCommitted).toBeLessThanOrEqual(run.writers);
    }
    // Writers on their own documents never conflict.
    expect(runs.filter((r) => r.documents === 'own').every((r) => r.conflicts === 0)).toBe(true);
    expect(comparisons).toHaveLength(CASES.length);
    for (const c of comparisons) expect(c.ratio).toBeCloseTo(c.protocolPerSecond / c.rawPerSecond);
  });
});
