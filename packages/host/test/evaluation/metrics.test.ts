/**
 * Invariant: the run metrics are the paper's, computed by hand here: the all-pass rate counts an
 * invalid trial as a failure; the cumulative score `100·Σs/Σm` and the per-task mean differ (4/5 and
 * 9/15 give 65 against 70); an invalid trial scores 0 of its rubric in both; pass^k is τ-bench's
 * `C(c,k)/C(n,k)`, equal to brute-force enumeration of every k-subset of a task's trials.
 */
import { isCoworkError } from '../../src/errors';
import {
  allPassRate,
  allPassRateByTask,
  cumulativeScore,
  cumulativeScoreScoredOnly,
  passHatK,
  passHatKCurve,
  passHatKEstimate,
  perTaskMeanScore,
  summarize,
} from '../../src/evaluation/metrics';
import { BUDGET, resultsFile, trial } from './metric-trials';

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return isCoworkError(error) ? error.code : 'not a CoworkError';
  }
  return undefined;
}

/** Every k-subset of [0, n). */
function subsets(n: number, k: number): number[][] {
  if (k === 0) return [[]];
  if (n < k) return [];
  return [...subsets(n - 1, k), ...subsets(n - 1, k - 1).map((s) => [...s, n - 1])];
}

describe('rubric scores', () => {
  it('gives 65 cumulative against 70 per-task mean for 4/5 and 9/15', () => {
    const trials = [trial('a', 4, 5), trial('b', 9, 15)];
    expect(cumulativeScore(trials)).toBeCloseTo(65, 12);
    expect(perTaskMeanScore(trials)).toBeCloseTo(70, 12);
  });

  it("averages a task's trials before averaging tasks", () => {
    // a: 5/5 and 3/5 (mean 80 %); b: 9/15 (60 %). Per task: (80 + 60)/2 = 70, not (100+60+60)/3.
    // Cumulative: (5+3+9)/(5+5+15) = 17/25 = 68.
    const trials = [trial('a', 5, 5), trial('a', 3, 5), trial('b', 9, 15)];
    expect(perTaskMeanScore(trials)).toBeCloseTo(70, 12);
    expect(cumulativeScore(trials)).toBeCloseTo(68, 12);
  });

  it('counts an invalid trial as 0 of its rubric in both, and only the scored-only figure leaves it out', () => {
    // a: 4/5 and invalid (0/5); b: 9/15. Cumulative 13/25 = 52; per task (40 + 60)/2 = 50;
    // over the scored trials only (the paper's set V): 13/20 = 65.
    const trials = [trial('a', 4, 5), trial('a', 'invalid', 5), trial('b', 9, 15)];
    expect(cumulativeScore(trials)).toBeCloseTo(52, 12);
    expect(perTaskMeanScore(trials)).toBeCloseTo(50, 12);
    expect(cumulativeScoreScoredOnly(trials)).toBeCloseTo(65, 12);
  });

  it("counts the task's rubric for an invalid trial that reports 0 points", () => {
    const trials = [trial('a', 4, 5), trial('a', 'invalid', 0), trial('b', 9, 15)];
    expect(cumulativeScore(trials)).toBeCloseTo(52, 12);
  });

  it('ignores the score and pass an invalid trial claims', () => {
    const bogus = trial('a', 'invalid', 5, { score: 5, passed: true });
    expect(cumulativeScore([bogus, trial('b', 5, 5)])).toBeCloseTo(50, 12);
    expect(allPassRate([bogus, trial('b', 5, 5)])).toBeCloseTo(50, 12);
    expect(cumulativeScoreScoredOnly([trial('a', 'invalid', 5)])).toBeNull();
  });
});

describe('all-pass rate', () => {
  it('is the share of trials that passed every item, invalid ones failing, and per task', () => {
    // a: pass, invalid; b: pass, fail, pass. 3 of 5 trials = 60 %; a 1/2, b 2/3.
    const trials = [trial('a', 5, 5), trial('a', 'invalid', 5), trial('b', 3, 3), trial('b', 2, 3), trial('b', 3, 3)];
    expect(allPassRate(trials)).toBeCloseTo(60, 12);
    const byTask = allPassRateByTask(trials);
    expect(byTask.map((t) => [t.task, t.trials, t.passed])).toEqual([['a', 2, 1], ['b', 3, 2]]);
    expect(byTask[0]!.rate).toBeCloseTo(50, 12);
    expect(byTask[1]!.rate).toBeCloseTo(200 / 3, 12);
  });
});

describe('pass^k', () => {
  it('equals brute-force enumeration of all k-subsets of n trials with c successes', () => {
    for (let n = 1; n <= 7; n += 1) {
      for (let c = 0; c <= n; c += 1) {
        for (let k = 1; k <= n; k += 1) {
          const all = subsets(n, k);
          const allSucceed = all.filter((s) => s.every((i) => i < c)).length;
          expect(passHatKEstimate(n, c, k)).toBeCloseTo(allSucceed / all.length, 12);
        }
      }
    }
  });

  it('matches hand values and averages over tasks', () => {
    expect(passHatKEstimate(4, 2, 2)).toBeCloseTo(1 / 6, 12);
    expect(passHatKEstimate(4, 1, 2)).toBe(0);
    expect(passHatKEstimate(4, 4, 4)).toBe(1);
    // a: 3 of 4 pass (one invalid); b: 2 of 4. pass^2 = (C(3,2)/C(4,2) + C(2,2)/C(4,2))/2 = (3/6 + 1/6)/2 = 1/3.
    const trials = [
      trial('a', 1, 1), trial('a', 1, 1), trial('a', 1, 1), trial('a', 'invalid', 1),
      trial('b', 1, 1), trial('b', 0, 1), trial('b', 1, 1), trial('b', 0, 1),
    ];
    expect(passHatK(trials, 2)).toBeCloseTo(100 / 3, 12);
    const curve = passHatKCurve(trials);
    expect(curve.map((p) => p.k)).toEqual([1, 2, 3, 4]);
    // k=1: (3/4 + 2/4)/2 = 62.5; k=3: (1/4 + 0)/2 = 12.5; k=4: 0.
    expect(curve.map((p) => p.value)).toEqual([62.5, expect.closeTo(100 / 3, 12), expect.closeTo(12.5, 12), 0]);
  });

  it('stops the curve at the fewest trials a task has, and refuses k beyond it', () => {
    const trials = [trial('a', 1, 1), trial('a', 1, 1), trial('a', 1, 1), trial('b', 1, 1), trial('b', 1, 1)];
    expect(passHatKCurve(trials).map((p) => p.k)).toEqual([1, 2]);
    expect(code(() => passHatK(trials, 3))).toBe('invalid_input');
    expect(code(() => passHatKEstimate(3, 4, 1))).toBe('invalid_input');
    expect(code(() => passHatKEstimate(3, 1, 0))).toBe('invalid_input');
  });
});

describe('bad input', () => {
  it('refuses no trials, a repeated trial, impossible scores and a mixed split', () => {
    expect(code(() => allPassRate([]))).toBe('invalid_input');
    expect(code(() => cumulativeScore([trial('a', 1, 1, { trial: 1 }), trial('a', 1, 1, { trial: 1 })]))).toBe('invalid_input');
    expect(code(() => cumulativeScore([trial('a', 6, 5)]))).toBe('invalid_input');
    expect(code(() => cumulativeScore([trial('a', 0, 0)]))).toBe('invalid_input');
    expect(code(() => cumulativeScore([trial('a', Number.NaN, 5)]))).toBe('invalid_input');
    expect(code(() => cumulativeScore([trial('a', 4, 5, { passed: true })]))).toBe('invalid_input');
    expect(code(() => cumulativeScore([trial('a', 1, 1), trial('a', 1, 1, { split: 'heldout' })]))).toBe('invalid_input');
    expect(code(() => summarize({ ...resultsFile([trial('a', 1, 1)]), format: 'other/1' } as never))).toBe('invalid_input');
    expect(code(() => summarize(resultsFile([trial('a', 1, 1)]), { resamples: 0 }))).toBe('invalid_input');
    expect(code(() => summarize(resultsFile([trial('a', 1, 1)]), { level: 1 }))).toBe('invalid_input');
  });
});

describe('summarize', () => {
  const trials = [
    trial('a', 4, 5, { tokens: { input: 900, output: 100 }, seconds: 20 }),
    trial('a', 5, 5, { tokens: { input: 2900, output: 100 }, seconds: 40 }),
    trial('b', 9, 15, { tokens: { input: 500, output: 500 }, seconds: 5 }),
    trial('b', 'invalid', 15, { tokens: { input: 0, output: 0 }, seconds: 1, reason: 'model server failed' }),
  ];
  const summary = summarize(resultsFile(trials, { trialsPerTask: 2 }));

  it('gives each task its trials, passes, mean score, tokens and seconds', () => {
    expect(summary.tasks.map((t) => [t.task, t.trials, t.passed, t.invalid, t.tokens, t.seconds, t.earned, t.max])).toEqual([
      ['a', 2, 1, 0, 2000, 30, 9, 10],
      ['b', 2, 0, 1, 500, 3, 9, 30],
    ]);
    expect(summary.tasks[0]!.meanScore).toBeCloseTo(90, 12);
    expect(summary.tasks[1]!.meanScore).toBeCloseTo(30, 12);
    expect(summary.tasks[1]!.reasons).toEqual(['model server failed']);
    expect(summary.budget).toEqual(BUDGET);
  });

  it('gives the totals and the metrics', () => {
    expect(summary.totals).toEqual({
      tasks: 2, trials: 4, passed: 1, invalid: 1, tokens: { input: 4300, output: 700 },
      seconds: 66, setupSeconds: 4, scoringSeconds: 2,
    });
    expect(summary.metrics.allPassRate).toBeCloseTo(25, 12);
    expect(summary.metrics.cumulativeScore).toBeCloseTo(45, 12); // 18/40
    expect(summary.metrics.cumulativeScoreScoredOnly).toBeCloseTo(72, 12); // 18/25
    expect(summary.metrics.perTaskMeanScore).toBeCloseTo(60, 12); // (90+30)/2
    expect(summary.metrics.passHatK.map((p) => p.value)).toEqual([25, 0]);
    expect(summary.warnings).toEqual([]);
  });

  it('gives seeded bootstrap intervals that hold the figure and repeat with the seed', () => {
    for (const name of ['allPassRate', 'cumulativeScore', 'perTaskMeanScore'] as const) {
      const ci = summary.ci[name];
      expect(ci.low).toBeLessThanOrEqual(summary.metrics[name]);
      expect(ci.high).toBeGreaterThanOrEqual(summary.metrics[name]);
      expect([ci.level, ci.resamples, ci.seed]).toEqual([0.95, 1000, 1]);
    }
    expect(summarize(resultsFile(trials, { trialsPerTask: 2 })).ci).toEqual(summary.ci);
    // Two tasks at 90 % and 30 %: a resample holds 0, 1 or 2 copies of a, so the per-task mean is 30, 60 or 90.
    expect([30, 60, 90]).toContain(summary.ci.perTaskMeanScore.low);
  });

  it('warns about missing trials and budgets that vary', () => {
    const other = { ...BUDGET, tokens: 100_000 };
    const warned = summarize(resultsFile([trial('a', 1, 1), trial('a', 1, 1, { budget: other }), trial('b', 1, 1)], { trialsPerTask: 2 }));
    expect(warned.warnings).toEqual([
      'The trials of task a ran at 2 different budgets.',
      'Task b has 1 of 2 trials.',
    ]);
    expect(warned.budget).toBeNull();
    expect(warned.tasks[0]!.budget).toBeNull();
  });

  it('counts the items no judge judged', () => {
    const unjudged = { id: 'nl_0', description: 'says the price', points: 0, earned: 0, pass: true, detail: 'not judged in replay', judged: false as const };
    const plain = { id: 'db', description: 'the database', points: 1, earned: 1, pass: true, detail: 'the database matches' };
    const counted = summarize(resultsFile([trial('a', 1, 1, { items: [plain, unjudged] }), trial('b', 1, 1, { items: [plain, unjudged, { ...unjudged, id: 'nl_1' }] })], { trialsPerTask: 1 }));
    expect(counted.warnings).toEqual(['3 rubric item(s) were not judged (no judge model, as in a replay); their verdicts are placeholders.']);
    expect(counted.metrics.allPassRate).toBe(100);
  });
});
