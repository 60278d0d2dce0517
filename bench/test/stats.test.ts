/**
 * Invariant: percentiles are nearest-rank, so every figure reported is a latency that was actually
 * observed; no samples gives NaN rather than a zero that would read as "fast".
 */
import { latencyLine, percentile, summarizeLatencies } from '../src/stats';

describe('latency percentiles', () => {
  it('picks the nearest-rank sample', () => {
    const sorted = Float64Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 99)).toBe(99);
    expect(percentile(sorted, 100)).toBe(100);
    expect(percentile(Float64Array.of(7), 99)).toBe(7);
  });

  it('sorts numerically, not as strings', () => {
    expect(summarizeLatencies([10, 9, 2, 100, 1])).toEqual({ p50Ms: 9, p99Ms: 100, maxMs: 100 });
  });

  it('reports NaN for a run without samples', () => {
    const summary = summarizeLatencies([]);
    expect(summary.p50Ms).toBeNaN();
    expect(summary.p99Ms).toBeNaN();
  });

  it('prints p50, p99, min and max of the samples on one line', () => {
    expect(latencyLine('start', [30, 10, 20], 8)).toBe('start    p50    20.0 ms   p99    30.0 ms   min    10.0 ms   max    30.0 ms   (n=3)');
    expect(latencyLine('poll', [0.25], 4)).toBe('poll p50    0.25 ms   p99    0.25 ms   min    0.25 ms   max    0.25 ms   (n=1)');
  });
});
