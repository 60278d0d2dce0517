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

/**
 * One printed line of latency figures: `label  p50 … ms   p99 … ms   min … ms   max … ms   (n=N)`,
 * the label padded to `width`. With few samples (a cold start timed three times) p99 is the max
 * and min shows the spread.
 */
export function latencyLine(label: string, samplesMs: readonly number[], width = 44): string {
  const s = summarizeLatencies(samplesMs);
  const min = samplesMs.length === 0 ? Number.NaN : Math.min(...samplesMs);
  const ms = (value: number): string => `${value.toFixed(value < 10 ? 2 : 1).padStart(7)} ms`;
  return `${label.padEnd(width)} p50 ${ms(s.p50Ms)}   p99 ${ms(s.p99Ms)}   min ${ms(min)}   max ${ms(s.maxMs)}   (n=${samplesMs.length})`;
}
