import { CoworkError } from '../errors';
import { bootstrapCi, type BootstrapOptions, type ConfidenceInterval } from './bootstrap';
import { groupByTask, tallyTask, type TaskTrials } from './metrics';
import type { TaskBudget, TrialResult } from './results-format';

/*
 * Pairwise comparison of two result sets A and B over the tasks both ran, as the paper's GDPVal
 * Elo: per task a win, loss or tie for A, then `Elo = 1000 + 400·log10((W+T/2)/(L+T/2))` and the
 * tie-adjusted win rate `100·(W+T/2)/N`. An invalid run is a loss, never dropped from N.
 */

export type Outcome = 'win' | 'loss' | 'tie';

/** One common task. Scores are % (mean over the task's trials of `100·s/m`, an invalid trial 0). */
export interface TaskComparison {
  readonly task: string;
  /** A's score; null when every trial of A on this task was invalid. */
  readonly a: number | null;
  readonly b: number | null;
  /** The outcome for A. */
  readonly outcome: Outcome;
}

/**
 * An Elo figure, always finite. `unbounded` says the formula itself is infinite: `above` when A lost
 * nothing and tied nothing (L + T/2 = 0), `below` when A won nothing and tied nothing (W + T/2 = 0);
 * `elo` is then the clamped value (the zero term replaced by 1/2, half a tie), a bound to show as
 * "≥" or "≤", never a measurement.
 */
export interface EloRating {
  readonly elo: number;
  readonly unbounded: 'above' | 'below' | null;
}

export interface Comparison {
  readonly tasks: readonly TaskComparison[];
  /** Common tasks: W + L + T. */
  readonly n: number;
  readonly wins: number;
  readonly losses: number;
  readonly ties: number;
  /** Ties where both sides had only invalid trials (counted in `ties`). */
  readonly bothInvalid: number;
  /** `100·(W+T/2)/N`. */
  readonly winRate: number;
  readonly elo: EloRating;
  /** Bootstrap over the common tasks; Elo's interval is the win rate's mapped through the Elo formula. */
  readonly ci: { readonly winRate: ConfidenceInterval; readonly elo: { readonly low: EloRating; readonly high: EloRating } };
  /** Tasks only one side ran: left out of every figure above. */
  readonly onlyInA: readonly string[];
  readonly onlyInB: readonly string[];
  readonly budgets: BudgetCheck;
}

/** Scores closer than this are a tie (they are means of the same fractions, so equal ones are exactly equal). */
const TIE_TOLERANCE = 1e-9;

/**
 * The outcome for A of one task. A side whose trials were all invalid (null) loses to any scored
 * side, even one that scored 0; two all-invalid sides tie (a comparison is symmetric: swapping A
 * and B swaps W and L, so both sides cannot lose).
 */
export function taskOutcome(a: number | null, b: number | null): Outcome {
  if (a === null) return b === null ? 'tie' : 'loss';
  if (b === null) return 'win';
  if (Math.abs(a - b) <= TIE_TOLERANCE) return 'tie';
  return a > b ? 'win' : 'loss';
}

/** `1000 + 400·log10((W+T/2)/(L+T/2))`, clamped where it is infinite (see `EloRating`). */
export function eloRating(wins: number, losses: number, ties: number): EloRating {
  return eloFromScore(wins + ties / 2, checkCounts(wins, losses, ties));
}

/** Tie-adjusted win rate `100·(W+T/2)/N`, N = W + L + T. */
export function winRate(wins: number, losses: number, ties: number): number {
  return (100 * (wins + ties / 2)) / checkCounts(wins, losses, ties);
}

/**
 * Elo of a tie-adjusted score S = W + T/2 out of N: `1000 + 400·log10(max(S, ½) / max(N − S, ½))`.
 * S is a multiple of ½, so the clamp only acts where the exact formula is infinite.
 */
export function eloFromScore(score: number, n: number): EloRating {
  const against = n - score;
  const unbounded = against <= 0 ? 'above' : score <= 0 ? 'below' : null;
  return { elo: 1000 + 400 * Math.log10(Math.max(score, 0.5) / Math.max(against, 0.5)), unbounded };
}

/**
 * Compares A with B over their common tasks. Refuses (`invalid_input`) two sets with no task in
 * common. Budgets are checked, not enforced: read `budgets.equal` before calling it a fair comparison.
 */
export function compareResults(a: readonly TrialResult[], b: readonly TrialResult[], options: BootstrapOptions = {}): Comparison {
  const groupsA = byName(groupByTask(a));
  const groupsB = byName(groupByTask(b));
  const tasks: TaskComparison[] = [];
  for (const [task, groupA] of groupsA) {
    const groupB = groupsB.get(task);
    if (groupB === undefined) continue;
    const scoreA = taskScore(groupA);
    const scoreB = taskScore(groupB);
    tasks.push({ task, a: scoreA, b: scoreB, outcome: taskOutcome(scoreA, scoreB) });
  }
  if (tasks.length === 0) {
    throw new CoworkError('invalid_input', 'The two result sets have no task in common, so they cannot be compared.');
  }
  const count = (outcome: Outcome): number => tasks.filter((t) => t.outcome === outcome).length;
  const [wins, losses, ties] = [count('win'), count('loss'), count('tie')];
  const n = tasks.length;
  const winRateCi = bootstrapCi(tasks, (sample) => winRate(...counts(sample)), options);
  return {
    tasks,
    n,
    wins,
    losses,
    ties,
    bothInvalid: tasks.filter((t) => t.a === null && t.b === null).length,
    winRate: winRate(wins, losses, ties),
    elo: eloRating(wins, losses, ties),
    ci: {
      winRate: winRateCi,
      elo: { low: eloFromScore((winRateCi.low / 100) * n, n), high: eloFromScore((winRateCi.high / 100) * n, n) },
    },
    onlyInA: [...groupsA.keys()].filter((task) => !groupsB.has(task)),
    onlyInB: [...groupsB.keys()].filter((task) => !groupsA.has(task)),
    budgets: compareBudgets(a, b),
  };
}

/** One budget field that differs on a common task: the distinct values each side's trials used. */
export interface BudgetDifference {
  readonly task: string;
  readonly field: keyof TaskBudget;
  readonly a: readonly (number | null)[];
  readonly b: readonly (number | null)[];
}

export interface BudgetCheck {
  /** Every trial of every common task ran at the same budget on both sides. */
  readonly equal: boolean;
  readonly differences: readonly BudgetDifference[];
}

/**
 * Whether A and B ran their common tasks at equal budgets: for each task and each field (tokens,
 * turns, seconds; null is "no limit"), every trial on both sides used one and the same value. A
 * field whose trials disagree within one side is a difference too.
 */
export function compareBudgets(a: readonly TrialResult[], b: readonly TrialResult[]): BudgetCheck {
  const groupsA = byName(groupByTask(a));
  const groupsB = byName(groupByTask(b));
  const differences: BudgetDifference[] = [];
  for (const [task, groupA] of groupsA) {
    const groupB = groupsB.get(task);
    if (groupB === undefined) continue;
    for (const field of ['tokens', 'turns', 'seconds'] as const) {
      const valuesA = distinct(groupA.trials.map((t) => t.budget[field]));
      const valuesB = distinct(groupB.trials.map((t) => t.budget[field]));
      if (valuesA.length !== 1 || valuesB.length !== 1 || valuesA[0] !== valuesB[0]) {
        differences.push({ task, field, a: valuesA, b: valuesB });
      }
    }
  }
  return { equal: differences.length === 0, differences };
}

/** A task's score for the comparison, %; null when every trial was invalid. */
function taskScore(group: TaskTrials): number | null {
  if (group.trials.every((t) => t.status === 'invalid')) return null;
  return 100 * tallyTask(group).score;
}

function counts(tasks: readonly TaskComparison[]): [number, number, number] {
  let [wins, losses, ties] = [0, 0, 0];
  for (const t of tasks) {
    if (t.outcome === 'win') wins += 1;
    else if (t.outcome === 'loss') losses += 1;
    else ties += 1;
  }
  return [wins, losses, ties];
}

function checkCounts(wins: number, losses: number, ties: number): number {
  const all = [wins, losses, ties];
  if (!all.every((c) => Number.isInteger(c) && c >= 0) || wins + losses + ties === 0) {
    throw new CoworkError('invalid_input', `W, L and T must be counts with at least one task, not ${wins}, ${losses}, ${ties}.`, { wins, losses, ties });
  }
  return wins + losses + ties;
}

function byName(groups: TaskTrials[]): Map<string, TaskTrials> {
  return new Map(groups.map((group) => [group.task, group]));
}

function distinct(values: readonly (number | null)[]): (number | null)[] {
  return [...new Set(values)];
}
