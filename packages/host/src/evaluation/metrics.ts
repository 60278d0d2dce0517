import { CoworkError } from '../errors';
import { bootstrapCi, resolveOptions, type BootstrapOptions, type ConfidenceInterval } from './bootstrap';
import { RESULTS_FORMAT, type ResultsFile, type TaskBudget, type TrialResult } from './results-format';

/*
 * The paper's metrics over a run's trials, as pure functions. Every rate and score is a percentage
 * (0 to 100). An invalid trial is never dropped: it is a failure in the all-pass rate and pass^k, and
 * scores 0 of its rubric's points in both rubric scores (the paper's Appendix A.3 sums the cumulative
 * score over the validly scored tasks only; that figure is `cumulativeScoreScoredOnly`, shown beside).
 */

/** A task's trials, in the order the results list them. */
export interface TaskTrials {
  readonly task: string;
  readonly split: 'dev' | 'heldout';
  readonly trials: readonly TrialResult[];
}

/** What the metrics need of one task, counted once. */
export interface TaskTally {
  readonly task: string;
  readonly split: 'dev' | 'heldout';
  /** Trials, invalid ones included. */
  readonly n: number;
  /** Trials whose every rubric item passed (never an invalid one). */
  readonly passed: number;
  readonly invalid: number;
  /** Σ earned points (an invalid trial earns 0). */
  readonly earned: number;
  /** Σ rubric points (an invalid trial counts its rubric's points, or the task's when it reports 0). */
  readonly max: number;
  /** Mean over the trials of earned/max, in [0, 1] (an invalid trial counts 0). */
  readonly score: number;
}

/** pass^k for one k, as a percentage. */
export interface PassHatKPoint {
  readonly k: number;
  readonly value: number;
}

/** Groups trials by task (first appearance order), after checking them; see `checkTrial`. */
export function groupByTask(trials: readonly TrialResult[]): TaskTrials[] {
  const groups = new Map<string, { split: 'dev' | 'heldout'; trials: TrialResult[]; numbers: Set<number> }>();
  for (const trial of trials) {
    checkTrial(trial);
    let group = groups.get(trial.task);
    if (group === undefined) {
      group = { split: trial.split, trials: [], numbers: new Set() };
      groups.set(trial.task, group);
    }
    if (group.split !== trial.split) {
      throw invalid(`Task ${trial.task} is listed in both splits (${group.split} and ${trial.split}).`, trial);
    }
    if (group.numbers.has(trial.trial)) {
      throw invalid(`Trial ${trial.trial} of task ${trial.task} is listed twice.`, trial);
    }
    group.numbers.add(trial.trial);
    group.trials.push(trial);
  }
  return [...groups].map(([task, group]) => ({ task, split: group.split, trials: group.trials }));
}

/** One task's counts. An invalid trial reporting `maxScore` 0 counts the largest `maxScore` of its task's trials. */
export function tallyTask(group: TaskTrials): TaskTally {
  const taskMax = Math.max(0, ...group.trials.map((t) => t.maxScore));
  let passed = 0;
  let invalidCount = 0;
  let earned = 0;
  let max = 0;
  let fractions = 0;
  for (const trial of group.trials) {
    if (trial.status === 'invalid') {
      invalidCount += 1;
      max += trial.maxScore > 0 ? trial.maxScore : taskMax;
      continue;
    }
    if (trial.passed) passed += 1;
    earned += trial.score;
    max += trial.maxScore;
    fractions += trial.score / trial.maxScore;
  }
  const n = group.trials.length;
  return { task: group.task, split: group.split, n, passed, invalid: invalidCount, earned, max, score: fractions / n };
}

/** Tallies of every task, in first appearance order. */
export function tallyTasks(trials: readonly TrialResult[]): TaskTally[] {
  return groupByTask(trials).map(tallyTask);
}

/** All-pass rate: the share of trials (invalid ones included, as failures) whose every rubric item passed. */
export function allPassRate(trials: readonly TrialResult[]): number {
  return poolPassRate(nonEmpty(tallyTasks(trials)));
}

/** The all-pass rate of each task: `100 · passed / trials`. */
export function allPassRateByTask(trials: readonly TrialResult[]): { task: string; trials: number; passed: number; rate: number }[] {
  return tallyTasks(trials).map((t) => ({ task: t.task, trials: t.n, passed: t.passed, rate: (100 * t.passed) / t.n }));
}

/**
 * Cumulative rubric score `100 · Σs / Σm` over every trial's earned points s and rubric points m.
 * An invalid trial counts as 0 of its m, so a crash costs points instead of shrinking the denominator.
 * Tasks with more points weigh more: 4/5 and 9/15 give 65 (the per-task mean gives 70).
 */
export function cumulativeScore(trials: readonly TrialResult[]): number {
  return poolScore(nonEmpty(tallyTasks(trials)));
}

/**
 * The paper's Appendix A.3 reading: `100 · Σs / Σm` over the scored trials only (the set V of validly
 * scored runs bounds the denominator). Null when no trial was scored. Shown beside `cumulativeScore`
 * so a run with invalid trials shows both; the headline figure is `cumulativeScore`.
 */
export function cumulativeScoreScoredOnly(trials: readonly TrialResult[]): number | null {
  const scored = groupByTask(trials).flatMap((group) => group.trials.filter((t) => t.status === 'scored'));
  return scored.length === 0 ? null : cumulativeScore(scored);
}

/**
 * Per-task mean score: each task's trials averaged first (mean of `s/m`, an invalid trial 0), then
 * the mean over tasks of `100 ·` that. Every task weighs the same: 4/5 and 9/15 give 70.
 */
export function perTaskMeanScore(trials: readonly TrialResult[]): number {
  return meanTaskScore(nonEmpty(tallyTasks(trials)));
}

/**
 * τ-bench's pass^k estimator for one task: the probability that k trials drawn without replacement
 * from n, of which c succeeded, all succeeded: `C(c,k) / C(n,k)`, 0 when c < k. A probability in [0, 1].
 */
export function passHatKEstimate(n: number, c: number, k: number): number {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k) || c < 0 || c > n || k < 1 || k > n) {
    throw new CoworkError('invalid_input', `pass^k needs integers 0 ≤ c ≤ n and 1 ≤ k ≤ n, not n=${n}, c=${c}, k=${k}.`, { n, c, k });
  }
  if (c < k) return 0;
  let value = 1;
  for (let i = 0; i < k; i += 1) value *= (c - i) / (n - i);
  return value;
}

/** pass^k averaged over tasks, as a percentage; k may be at most the fewest trials any task has. */
export function passHatK(trials: readonly TrialResult[], k: number): number {
  const tallies = nonEmpty(tallyTasks(trials));
  const fewest = Math.min(...tallies.map((t) => t.n));
  if (!Number.isInteger(k) || k < 1 || k > fewest) {
    throw new CoworkError('invalid_input', `pass^k needs 1 ≤ k ≤ ${fewest} (the fewest trials of a task), not ${k}.`, { k, fewest });
  }
  return (100 * tallies.reduce((sum, t) => sum + passHatKEstimate(t.n, t.passed, k), 0)) / tallies.length;
}

/** The pass^k curve for k = 1 .. the fewest trials any task has (every task needs k trials). */
export function passHatKCurve(trials: readonly TrialResult[]): PassHatKPoint[] {
  const tallies = nonEmpty(tallyTasks(trials));
  const fewest = Math.min(...tallies.map((t) => t.n));
  const curve: PassHatKPoint[] = [];
  for (let k = 1; k <= fewest; k += 1) {
    curve.push({ k, value: (100 * tallies.reduce((sum, t) => sum + passHatKEstimate(t.n, t.passed, k), 0)) / tallies.length });
  }
  return curve;
}

/** The three pooled figures over tallies; the bootstrap recomputes them on resampled tasks. */
export function poolPassRate(tallies: readonly TaskTally[]): number {
  const n = tallies.reduce((sum, t) => sum + t.n, 0);
  return (100 * tallies.reduce((sum, t) => sum + t.passed, 0)) / n;
}

export function poolScore(tallies: readonly TaskTally[]): number {
  const max = tallies.reduce((sum, t) => sum + t.max, 0);
  // Σm is 0 only when every trial is invalid and none reports its rubric: all failed, so 0.
  return max === 0 ? 0 : (100 * tallies.reduce((sum, t) => sum + t.earned, 0)) / max;
}

export function meanTaskScore(tallies: readonly TaskTally[]): number {
  return (100 * tallies.reduce((sum, t) => sum + t.score, 0)) / tallies.length;
}

/** Bootstrap intervals of the three pooled figures, resampling tasks (the same resamples for each). */
export function metricIntervals(
  tallies: readonly TaskTally[],
  options: BootstrapOptions = {},
): { allPassRate: ConfidenceInterval; cumulativeScore: ConfidenceInterval; perTaskMeanScore: ConfidenceInterval } {
  return {
    allPassRate: bootstrapCi(tallies, poolPassRate, options),
    cumulativeScore: bootstrapCi(tallies, poolScore, options),
    perTaskMeanScore: bootstrapCi(tallies, meanTaskScore, options),
  };
}

/**
 * Refuses a trial the metrics cannot read: a non-finite or negative number, a scored trial with no
 * rubric points or with more points than its rubric, a pass with points missing.
 */
export function checkTrial(trial: TrialResult): void {
  if (typeof trial.task !== 'string' || trial.task === '' || !Number.isInteger(trial.trial) || trial.trial < 0) {
    throw invalid(`A trial needs a task name and a trial number, not ${JSON.stringify([trial.task, trial.trial])}.`, trial);
  }
  const numbers = {
    score: trial.score,
    maxScore: trial.maxScore,
    seconds: trial.seconds,
    setupSeconds: trial.setupSeconds,
    scoringSeconds: trial.scoringSeconds,
    'tokens.input': trial.tokens.input,
    'tokens.output': trial.tokens.output,
  };
  for (const [name, value] of Object.entries(numbers)) {
    if (!Number.isFinite(value) || value < 0) throw invalid(`Trial ${trial.trial} of task ${trial.task}: ${name} is ${value}.`, trial);
  }
  if (trial.status !== 'scored') return;
  if (trial.maxScore <= 0) throw invalid(`Trial ${trial.trial} of task ${trial.task} was scored against a rubric of 0 points.`, trial);
  if (trial.score > trial.maxScore) throw invalid(`Trial ${trial.trial} of task ${trial.task} scored ${trial.score} of ${trial.maxScore}.`, trial);
  if (trial.passed && Math.abs(trial.score - trial.maxScore) > 1e-9 * trial.maxScore) {
    throw invalid(`Trial ${trial.trial} of task ${trial.task} passed every item but scored ${trial.score} of ${trial.maxScore}.`, trial);
  }
}

function invalid(message: string, trial: TrialResult): CoworkError {
  return new CoworkError('invalid_input', message, { task: trial.task, trial: trial.trial });
}

function nonEmpty(tallies: TaskTally[]): TaskTally[] {
  if (tallies.length === 0) throw new CoworkError('invalid_input', 'The metrics need at least one trial.');
  return tallies;
}


/** One row of the results table. Tokens and seconds are means per trial (invalid trials included). */
export interface TaskSummary {
  readonly task: string;
  readonly split: 'dev' | 'heldout';
  readonly trials: number;
  readonly passed: number;
  readonly invalid: number;
  /** All-pass rate of the task, %. */
  readonly allPassRate: number;
  /** Mean over its trials of `100 · s/m` (an invalid trial 0). */
  readonly meanScore: number;
  /** Σ earned and Σ rubric points over its trials. */
  readonly earned: number;
  readonly max: number;
  /** Input plus output tokens, mean per trial. */
  readonly tokens: number;
  /** Runtime seconds, mean per trial. */
  readonly seconds: number;
  /** The budget every trial of the task ran at; null when its trials ran at different budgets. */
  readonly budget: TaskBudget | null;
  /** Why its invalid trials have no score, each reason once. */
  readonly reasons: readonly string[];
}

/** Everything a results table or report shows about one run. */
export interface ResultsSummary {
  readonly suite: string;
  readonly model: ResultsFile['model'];
  readonly split: ResultsFile['split'];
  readonly trialsPerTask: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** The budget every trial ran at; null when budgets differ between trials (see the tasks). */
  readonly budget: TaskBudget | null;
  readonly tasks: readonly TaskSummary[];
  readonly totals: {
    readonly tasks: number;
    readonly trials: number;
    readonly passed: number;
    readonly invalid: number;
    readonly tokens: { readonly input: number; readonly output: number };
    /** Runtime seconds, and the harness's own (workspace set-up and scoring), summed over trials. */
    readonly seconds: number;
    readonly setupSeconds: number;
    readonly scoringSeconds: number;
  };
  readonly metrics: {
    readonly allPassRate: number;
    readonly cumulativeScore: number;
    readonly cumulativeScoreScoredOnly: number | null;
    readonly perTaskMeanScore: number;
    readonly passHatK: readonly PassHatKPoint[];
  };
  /** Percentile bootstrap intervals resampling tasks (the same resamples for all three). */
  readonly ci: {
    readonly allPassRate: ConfidenceInterval;
    readonly cumulativeScore: ConfidenceInterval;
    readonly perTaskMeanScore: ConfidenceInterval;
  };
  /** What a reader should know before trusting the figures: missing trials, budgets that vary. */
  readonly warnings: readonly string[];
}

/**
 * Everything a table needs about a results file: per task (trials, passed, mean score, tokens,
 * seconds), totals, the metrics and their bootstrap intervals. Refuses (`invalid_input`) a file of
 * another format, one with no trials, and trials the metrics cannot read (see `checkTrial`).
 */
export function summarize(results: ResultsFile, options: BootstrapOptions = {}): ResultsSummary {
  if (results.format !== RESULTS_FORMAT) {
    throw new CoworkError('invalid_input', `Results of format ${String(results.format)} are not ${RESULTS_FORMAT}.`, { format: results.format });
  }
  resolveOptions(options);
  const groups = groupByTask(results.trials);
  const tallies = nonEmpty(groups.map(tallyTask));
  const warnings: string[] = [];
  const tasks = groups.map((group, index) => taskSummary(group, tallies[index] as TaskTally, results.trialsPerTask, warnings));
  const trials = results.trials;
  const sum = (pick: (t: TrialResult) => number): number => trials.reduce((total, t) => total + pick(t), 0);
  const budgets = distinctBudgets(trials);
  const unjudged = trials.reduce((total, t) => total + t.items.filter((item) => item.judged === false).length, 0);
  if (unjudged > 0) warnings.push(`${unjudged} rubric item(s) were not judged (no judge model, as in a replay); their verdicts are placeholders.`);
  return {
    suite: results.suite,
    model: results.model,
    split: results.split,
    trialsPerTask: results.trialsPerTask,
    createdAt: results.createdAt,
    updatedAt: results.updatedAt,
    budget: budgets.length === 1 ? (budgets[0] as TaskBudget) : null,
    tasks,
    totals: {
      tasks: tallies.length,
      trials: trials.length,
      passed: tallies.reduce((total, t) => total + t.passed, 0),
      invalid: tallies.reduce((total, t) => total + t.invalid, 0),
      tokens: { input: sum((t) => t.tokens.input), output: sum((t) => t.tokens.output) },
      seconds: sum((t) => t.seconds),
      setupSeconds: sum((t) => t.setupSeconds),
      scoringSeconds: sum((t) => t.scoringSeconds),
    },
    metrics: {
      allPassRate: poolPassRate(tallies),
      cumulativeScore: poolScore(tallies),
      cumulativeScoreScoredOnly: cumulativeScoreScoredOnly(trials),
      perTaskMeanScore: meanTaskScore(tallies),
      passHatK: passHatKCurve(trials),
    },
    ci: metricIntervals(tallies, options),
    warnings,
  };
}

function taskSummary(group: TaskTrials, tally: TaskTally, trialsPerTask: number, warnings: string[]): TaskSummary {
  const n = group.trials.length;
  const budgets = distinctBudgets(group.trials);
  if (n < trialsPerTask) warnings.push(`Task ${group.task} has ${n} of ${trialsPerTask} trials.`);
  if (budgets.length > 1) warnings.push(`The trials of task ${group.task} ran at ${budgets.length} different budgets.`);
  if (tally.max === 0) warnings.push(`No trial of task ${group.task} reports its rubric's points; it weighs nothing in the cumulative score.`);
  const reasons = [...new Set(group.trials.flatMap((t) => (t.status === 'invalid' ? [t.reason ?? 'no reason given'] : [])))];
  return {
    task: group.task,
    split: group.split,
    trials: n,
    passed: tally.passed,
    invalid: tally.invalid,
    allPassRate: (100 * tally.passed) / n,
    meanScore: 100 * tally.score,
    earned: tally.earned,
    max: tally.max,
    tokens: group.trials.reduce((total, t) => total + t.tokens.input + t.tokens.output, 0) / n,
    seconds: group.trials.reduce((total, t) => total + t.seconds, 0) / n,
    budget: budgets.length === 1 ? (budgets[0] as TaskBudget) : null,
    reasons,
  };
}

/** The distinct budgets of some trials, in first appearance order. */
export function distinctBudgets(trials: readonly TrialResult[]): TaskBudget[] {
  const found: TaskBudget[] = [];
  for (const { budget } of trials) {
    if (!found.some((b) => sameBudget(b, budget))) found.push({ tokens: budget.tokens, turns: budget.turns, seconds: budget.seconds });
  }
  return found;
}

export function sameBudget(a: TaskBudget, b: TaskBudget): boolean {
  return a.tokens === b.tokens && a.turns === b.turns && a.seconds === b.seconds;
}
