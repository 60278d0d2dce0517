import { ciLabel, fixed, formatBudget, formatBudgetDifference, formatCi, formatElo } from './number-format';
import type { ResultsSummary } from './metrics';
import type { Comparison } from './pairwise';

/**
 * The results as terminal lines: a fixed-width table (task, split, trials, passed, score %,
 * tokens and seconds, both means per trial), then the totals and the metrics with their intervals,
 * then any warnings. Columns are as wide as their widest cell; numbers are right-aligned.
 */
export function formatResultsTable(summary: ResultsSummary): string[] {
  const header = ['task', 'split', 'trials', 'passed', 'score %', 'tokens/trial', 's/trial'];
  const rows = summary.tasks.map((t) => [
    t.task,
    t.split,
    String(t.trials),
    t.invalid > 0 ? `${t.passed} (${t.invalid} invalid)` : String(t.passed),
    fixed(t.meanScore),
    fixed(t.tokens, 0),
    fixed(t.seconds),
  ]);
  const widths = header.map((name, column) => Math.max(name.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (column < 2 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  const { totals, metrics, ci } = summary;
  const passHatK = metrics.passHatK.map((p) => `k=${p.k} ${fixed(p.value)}`).join('  ');
  return [
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
    `total: ${totals.tasks} tasks, ${totals.trials} trials, ${totals.passed} passed, ${totals.invalid} invalid; ` +
      `${fixed(totals.tokens.input + totals.tokens.output, 0)} tokens (${fixed(totals.tokens.input, 0)} in, ${fixed(totals.tokens.output, 0)} out); ` +
      `runtime ${fixed(totals.seconds)} s, harness ${fixed(totals.setupSeconds)} s set-up + ${fixed(totals.scoringSeconds)} s scoring`,
    `budget: ${formatBudget(summary.budget)}`,
    `all-pass rate     ${fixed(metrics.allPassRate).padStart(5)} %  (${ciLabel(ci.allPassRate)} ${formatCi(ci.allPassRate)})`,
    `cumulative score  ${fixed(metrics.cumulativeScore).padStart(5)} %  (${ciLabel(ci.cumulativeScore)} ${formatCi(ci.cumulativeScore)})` +
      (metrics.cumulativeScoreScoredOnly === null || totals.invalid === 0
        ? ''
        : `; over scored trials only ${fixed(metrics.cumulativeScoreScoredOnly)} %`),
    `per-task mean     ${fixed(metrics.perTaskMeanScore).padStart(5)} %  (${ciLabel(ci.perTaskMeanScore)} ${formatCi(ci.perTaskMeanScore)})`,
    `pass^k (%)        ${passHatK}`,
    ...summary.warnings.map((w) => `warning: ${w}`),
  ];
}

/** A comparison as terminal lines: W/L/T, win rate and Elo with intervals, and whether budgets differ. */
export function formatComparison(comparison: Comparison, names: { a: string; b: string } = { a: 'A', b: 'B' }): string[] {
  const c = comparison;
  const lines = [
    `${names.a} against ${names.b} over ${c.n} common tasks: ${c.wins} wins, ${c.losses} losses, ${c.ties} ties` +
      (c.bothInvalid > 0 ? ` (${c.bothInvalid} with both sides invalid)` : ''),
    `win rate  ${fixed(c.winRate)} %  (${ciLabel(c.ci.winRate)} ${formatCi(c.ci.winRate)})`,
    `Elo       ${formatElo(c.elo)}  (${ciLabel(c.ci.winRate)} ${formatElo(c.ci.elo.low)} to ${formatElo(c.ci.elo.high)})`,
  ];
  if (c.onlyInA.length > 0) lines.push(`left out, only in ${names.a}: ${c.onlyInA.join(', ')}`);
  if (c.onlyInB.length > 0) lines.push(`left out, only in ${names.b}: ${c.onlyInB.join(', ')}`);
  if (!c.budgets.equal) {
    lines.push(`budgets differ, so this comparison is not at equal budgets:`);
    lines.push(...c.budgets.differences.map((d) => `  ${formatBudgetDifference(d)}`));
  }
  return lines;
}
