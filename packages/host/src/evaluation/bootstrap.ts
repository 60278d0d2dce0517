import { CoworkError } from '../errors';
import { seededRandom } from '../util/random';

/** How a bootstrap interval is drawn. Every field has a default, so `{}` is a valid choice. */
export interface BootstrapOptions {
  /** Resamples drawn; default 1000. */
  readonly resamples?: number;
  /** Coverage of the interval, in (0, 1); default 0.95. */
  readonly level?: number;
  /** Seed of the generator (mulberry32, `util/random.ts`); default 1. The same seed gives the same interval. */
  readonly seed?: number;
}

/** A percentile bootstrap interval, with what it was drawn from so a reader can redraw it. */
export interface ConfidenceInterval {
  readonly low: number;
  readonly high: number;
  readonly level: number;
  readonly resamples: number;
  readonly seed: number;
}

export const DEFAULT_RESAMPLES = 1000;
export const DEFAULT_LEVEL = 0.95;
export const DEFAULT_SEED = 1;

/**
 * Percentile bootstrap: draws `resamples` samples of `units.length` units with replacement (index
 * `floor(random() · n)` from one seeded generator, resample after resample), computes `statistic` on
 * each, and returns the `(1 − level)/2` and `(1 + level)/2` quantiles of those values (linear
 * interpolation between order statistics, numpy's default). The caller chooses the unit: the metrics
 * resample tasks, each with all its trials, because trials of one task are not independent.
 * Deterministic: the same units, statistic and options give the same interval.
 */
export function bootstrapCi<T>(
  units: readonly T[],
  statistic: (sample: readonly T[]) => number,
  options: BootstrapOptions = {},
): ConfidenceInterval {
  const { resamples, level, seed } = resolveOptions(options);
  if (units.length === 0) {
    throw new CoworkError('invalid_input', 'A bootstrap interval needs at least one unit to resample.');
  }
  const random = seededRandom(seed);
  const n = units.length;
  const values: number[] = new Array<number>(resamples);
  const sample: T[] = new Array<T>(n);
  for (let r = 0; r < resamples; r += 1) {
    for (let i = 0; i < n; i += 1) sample[i] = units[Math.floor(random() * n)] as T;
    values[r] = statistic(sample);
  }
  values.sort((x, y) => x - y);
  return {
    low: quantile(values, (1 - level) / 2),
    high: quantile(values, (1 + level) / 2),
    level,
    resamples,
    seed,
  };
}

/** The q-quantile (q in [0, 1]) of ascending `sorted`, interpolating linearly between order statistics. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) throw new CoworkError('invalid_input', 'A quantile of no values is undefined.');
  if (!(q >= 0 && q <= 1)) throw new CoworkError('invalid_input', `A quantile must lie in [0, 1], not ${q}.`, { q });
  const position = q * (sorted.length - 1);
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  const lowValue = sorted[below] as number;
  const highValue = sorted[above] as number;
  return lowValue + (highValue - lowValue) * (position - below);
}

/** The options with their defaults, checked. */
export function resolveOptions(options: BootstrapOptions): Required<BootstrapOptions> {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const level = options.level ?? DEFAULT_LEVEL;
  const seed = options.seed ?? DEFAULT_SEED;
  if (!Number.isInteger(resamples) || resamples < 1) {
    throw new CoworkError('invalid_input', `resamples must be a positive integer, not ${resamples}.`, { resamples });
  }
  if (!(level > 0 && level < 1)) {
    throw new CoworkError('invalid_input', `level must lie strictly between 0 and 1, not ${level}.`, { level });
  }
  if (!Number.isInteger(seed)) {
    throw new CoworkError('invalid_input', `seed must be an integer, not ${seed}.`, { seed });
  }
  return { resamples, level, seed };
}
