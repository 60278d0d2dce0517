/** Latency figures of one run, in milliseconds. */
export interface LatencySummary {
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

/**
 * p50, p99 and max of a set of samples. Nearest-rank percentiles: every reported figure is a
 * latency that was actually observed, not an interpolation between two. Empty input gives NaN,
 * so a run that committed nothing cannot pass for a fast one.
 */
export function summarizeLatencies(samplesMs: readonly number[]): LatencySummary {
  const sorted = Float64Array.from(samplesMs).sort();
  return {
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted.length === 0 ? Number.NaN : sorted[sorted.length - 1]!,
  };
}

/** The nearest-rank `p`th percentile (0 < p <= 100) of ascending `sorted`. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}
