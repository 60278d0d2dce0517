import { bootstrapCi } from '@cowork/host';
import { trainerError } from '../errors';
import type { FamilyScore } from '../kinds/round-kind';
import type { RunView, TrialView } from '../run-record';

/**
 * Held-out scores by group (a task family): the all-pass rate over trials (an invalid trial is a
 * failure, as the runner counts it), with a seeded 95% percentile bootstrap interval over tasks
 * (each task with all its trials, as the runner's own intervals), the cumulative rubric score, and
 * how many trials called the family's tool at all (`usedTool`: a model that learned a tool's call
 * before it learned to copy values into it shows here first).
 * Groups come out in `order`, then "all" across them.
 */
export function heldOutScores(
  run: RunView,
  groupOf: (task: string) => string | undefined,
  order: readonly string[],
  usedTool: (trial: TrialView) => boolean = () => false,
): { groups: FamilyScore[]; overall: FamilyScore } {
  const heldout = run.trials.filter((t) => t.split === 'heldout');
  if (heldout.length === 0) throw trainerError('no_heldout_trials', 'the run has no held-out trials: run the suite with --split heldout');
  const byGroup = new Map<string, TrialView[]>();
  for (const trial of heldout) {
    const group = groupOf(trial.task);
    if (group === undefined) continue;
    byGroup.set(group, [...(byGroup.get(group) ?? []), trial]);
  }
  const groups = order.filter((g) => byGroup.has(g)).map((g) => score(g, byGroup.get(g)!, usedTool));
  return { groups, overall: score('all', heldout.filter((t) => groupOf(t.task) !== undefined), usedTool) };
}

function score(family: string, trials: readonly TrialView[], usedTool: (trial: TrialView) => boolean): FamilyScore {
  const tasks = new Map<string, TrialView[]>();
  for (const t of trials) tasks.set(t.task, [...(tasks.get(t.task) ?? []), t]);
  const units = [...tasks.values()];
  const rate = (sample: readonly (readonly TrialView[])[]) => {
    const all = sample.flat();
    return all.length === 0 ? 0 : all.filter((t) => t.status === 'scored' && t.passed).length / all.length;
  };
  const interval = units.length > 0 ? bootstrapCi(units, rate, { seed: 1 }) : { low: 0, high: 0 };
  const max = trials.reduce((s, t) => s + t.maxScore, 0);
  const earned = trials.reduce((s, t) => s + (t.status === 'scored' ? t.score : 0), 0);
  return {
    family, tasks: tasks.size, trials: trials.length,
    invalid: trials.filter((t) => t.status === 'invalid').length,
    passed: trials.filter((t) => t.status === 'scored' && t.passed).length,
    usedTool: trials.filter(usedTool).length,
    rate: round(rate(units)), interval: { low: round(interval.low), high: round(interval.high) },
    score: max === 0 ? 0 : round((100 * earned) / max),
  };
}

const round = (x: number): number => Math.round(x * 10000) / 10000;
