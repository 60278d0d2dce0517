/**
 * Invariant: a pairwise comparison counts, per common task, a win, loss or tie for A by the tasks'
 * mean scores; an all-invalid side loses to any scored side (even one that scored 0), two
 * all-invalid sides tie; Elo is `1000 + 400·log10((W+T/2)/(L+T/2))`, clamped and flagged unbounded
 * where it is infinite; the win rate is `100·(W+T/2)/N`; budgets are compared field by field.
 */
import { isCoworkError } from '../../src/errors';
import { compareBudgets, compareResults, eloRating, taskOutcome, winRate } from '../../src/evaluation/pairwise';
import type { TrialResult } from '../../src/evaluation/results-format';
import { BUDGET, trial } from './metric-trials';

// The table, by hand (scores are task means, %):
//   t1  A 100        B 50        win
//   t2  A 40         B 80        loss
//   t3  A 60 (100,20) B 60       tie
//   t4  A invalid    B 0         loss   (invalid loses even to 0)
//   t5  A 0          B invalid   win
//   t6  A invalid    B invalid   tie    (both invalid)
//   t7  A 50 (inv,100) B 50      tie    (an invalid trial scores 0 in the mean)
//   t8  A 90         B 10        win
//   x   A only                   left out
// W = 3, L = 2, T = 3, N = 8: win rate 100·4.5/8 = 56.25; Elo 1000 + 400·log10(4.5/3.5) ≈ 1043.66.
const A: TrialResult[] = [
  trial('t1', 10, 10), trial('t2', 4, 10), trial('t3', 10, 10), trial('t3', 2, 10), trial('t4', 'invalid', 10),
  trial('t5', 0, 10), trial('t6', 'invalid', 10), trial('t7', 'invalid', 10), trial('t7', 10, 10), trial('t8', 9, 10),
  trial('x', 1, 1),
];
const B: TrialResult[] = [
  trial('t1', 5, 10), trial('t2', 8, 10), trial('t3', 6, 10), trial('t4', 0, 10), trial('t5', 'invalid', 10),
  trial('t6', 'invalid', 10), trial('t6', 'invalid', 10), trial('t7', 5, 10), trial('t8', 1, 10),
];

describe('pairwise comparison', () => {
  it('counts wins, losses and ties with invalid runs as losses', () => {
    const c = compareResults(A, B);
    expect(c.tasks.map((t) => `${t.task}:${t.outcome}`)).toEqual([
      't1:win', 't2:loss', 't3:tie', 't4:loss', 't5:win', 't6:tie', 't7:tie', 't8:win',
    ]);
    expect(c.tasks[3]).toEqual({ task: 't4', a: null, b: 0, outcome: 'loss' });
    expect([c.n, c.wins, c.losses, c.ties, c.bothInvalid]).toEqual([8, 3, 2, 3, 1]);
    expect(c.winRate).toBe(56.25);
    expect(c.elo.elo).toBeCloseTo(1043.66, 2);
    expect(c.elo.unbounded).toBeNull();
    expect(c.onlyInA).toEqual(['x']);
    expect(c.onlyInB).toEqual([]);
    expect(c.budgets.equal).toBe(true);
  });

  it('is symmetric: swapping A and B swaps W and L and mirrors Elo about 1000', () => {
    const ab = compareResults(A, B);
    const ba = compareResults(B, A);
    expect([ba.wins, ba.losses, ba.ties]).toEqual([2, 3, 3]);
    expect(ba.winRate).toBe(43.75);
    expect(ba.elo.elo).toBeCloseTo(2000 - ab.elo.elo, 9);
  });

  it('gives a seeded win-rate interval, and the Elo interval through the formula', () => {
    const c = compareResults(A, B, { seed: 7 });
    expect(c.ci.winRate.low).toBeLessThanOrEqual(c.winRate);
    expect(c.ci.winRate.high).toBeGreaterThanOrEqual(c.winRate);
    expect(compareResults(A, B, { seed: 7 }).ci).toEqual(c.ci);
    const s = (c.ci.winRate.low / 100) * 8;
    expect(c.ci.elo.low.elo).toBeCloseTo(1000 + 400 * Math.log10(Math.max(s, 0.5) / Math.max(8 - s, 0.5)), 9);
  });

  it('decides one task by its scores', () => {
    expect(taskOutcome(null, null)).toBe('tie');
    expect(taskOutcome(null, 0)).toBe('loss');
    expect(taskOutcome(0, null)).toBe('win');
    expect(taskOutcome(100 / 3, (100 * 2) / 6)).toBe('tie');
    expect(taskOutcome(50, 49.9)).toBe('win');
  });
});

describe('Elo and win rate', () => {
  it('follows the formula by hand', () => {
    expect(eloRating(1, 1, 0)).toEqual({ elo: 1000, unbounded: null });
    expect(eloRating(0, 0, 4)).toEqual({ elo: 1000, unbounded: null });
    expect(eloRating(3, 1, 0).elo).toBeCloseTo(1000 + 400 * Math.log10(3), 12); // ≈ 1190.85
    expect(eloRating(3, 1, 0).elo).toBeCloseTo(1190.85, 2);
    expect(winRate(3, 1, 2)).toBeCloseTo((100 * 4) / 6, 12);
  });

  it('clamps where the formula is infinite and says so', () => {
    // L + T/2 = 0: the zero term becomes 1/2. 3 wins: 1000 + 400·log10(3/0.5) ≈ 1311.26.
    expect(eloRating(3, 0, 0)).toEqual({ elo: expect.closeTo(1311.26, 2), unbounded: 'above' });
    expect(eloRating(0, 3, 0)).toEqual({ elo: expect.closeTo(688.74, 2), unbounded: 'below' });
    // One tie is finite and below the clean sweep: 2.5/0.5 = 5.
    expect(eloRating(2, 0, 1)).toEqual({ elo: expect.closeTo(1000 + 400 * Math.log10(5), 12), unbounded: null });
    expect(eloRating(2, 0, 1).elo).toBeLessThan(eloRating(3, 0, 0).elo);
    expect(Number.isFinite(compareResults([trial('a', 1, 1)], [trial('a', 0, 1)]).elo.elo)).toBe(true);
    expect(compareResults([trial('a', 1, 1)], [trial('a', 0, 1)]).elo.unbounded).toBe('above');
  });

  it('refuses no tasks and sets with nothing in common', () => {
    for (const fn of [() => eloRating(0, 0, 0), () => winRate(-1, 2, 0), () => compareResults([trial('a', 1, 1)], [trial('b', 1, 1)])]) {
      let thrown: unknown;
      try {
        fn();
      } catch (error) {
        thrown = error;
      }
      expect(isCoworkError(thrown) && thrown.code).toBe('invalid_input');
    }
  });
});

describe('budgets', () => {
  it('lists each field that differs on a common task, and values that vary within one side', () => {
    const a = [trial('p', 1, 1), trial('q', 1, 1), trial('r', 1, 1), trial('r', 1, 1, { budget: { ...BUDGET, seconds: 300 } }), trial('only', 1, 1)];
    const b = [trial('p', 1, 1), trial('q', 1, 1, { budget: { ...BUDGET, tokens: null, turns: 20 } }), trial('r', 1, 1)];
    expect(compareBudgets(a, b)).toEqual({
      equal: false,
      differences: [
        { task: 'q', field: 'tokens', a: [200_000], b: [null] },
        { task: 'q', field: 'turns', a: [40], b: [20] },
        { task: 'r', field: 'seconds', a: [600, 300], b: [600] },
      ],
    });
    expect(compareBudgets(a.slice(0, 2), b.slice(0, 1))).toEqual({ equal: true, differences: [] });
  });
});
