/**
 * Invariant: a bootstrap interval is the percentile interval of the statistic over seeded
 * resamples: the same seed gives the same interval, quantiles interpolate linearly between order
 * statistics, and a statistic whose resampling distribution is known by hand lands where it must.
 */
import { isCoworkError } from '../../src/errors';
import { bootstrapCi, quantile } from '../../src/evaluation/bootstrap';

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('bootstrap intervals', () => {
  it('interpolates quantiles linearly between order statistics', () => {
    expect(quantile([10, 20, 30, 40, 50], 0)).toBe(10);
    expect(quantile([10, 20, 30, 40, 50], 0.5)).toBe(30);
    expect(quantile([10, 20, 30, 40, 50], 0.125)).toBe(15);
    expect(quantile([10, 20, 30, 40, 50], 1)).toBe(50);
    expect(quantile([7], 0.3)).toBe(7);
  });

  it('repeats with the seed and differs with another', () => {
    const units = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5];
    const first = bootstrapCi(units, mean, { seed: 42 });
    expect(bootstrapCi(units, mean, { seed: 42 })).toEqual(first);
    expect(bootstrapCi(units, mean, { seed: 43 })).not.toEqual(first);
    expect(first).toMatchObject({ level: 0.95, resamples: 1000, seed: 42 });
    expect(first.low).toBeLessThan(mean(units));
    expect(first.high).toBeGreaterThan(mean(units));
  });

  it('lands where the resampling distribution puts it', () => {
    // Two units 0 and 100: the mean of a resample is 0, 50 or 100 with chances 1/4, 1/2, 1/4.
    // 95 %: the 2.5 % and 97.5 % quantiles are 0 and 100; 40 %: the 30 % and 70 % quantiles are both 50.
    expect(bootstrapCi([0, 100], mean)).toMatchObject({ low: 0, high: 100 });
    expect(bootstrapCi([0, 100], mean, { level: 0.4 })).toMatchObject({ low: 50, high: 50 });
    // Identical units: no spread.
    expect(bootstrapCi([70, 70, 70], mean)).toMatchObject({ low: 70, high: 70 });
  });

  it('refuses bad options and no units', () => {
    for (const [units, options] of [
      [[], {}],
      [[1], { resamples: 0 }],
      [[1], { resamples: 1.5 }],
      [[1], { level: 0 }],
      [[1], { level: 1 }],
      [[1], { seed: 0.5 }],
    ] as const) {
      let thrown: unknown;
      try {
        bootstrapCi(units, mean, options);
      } catch (error) {
        thrown = error;
      }
      expect(isCoworkError(thrown) && thrown.code).toBe('invalid_input');
    }
  });
});
