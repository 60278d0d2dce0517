import type { Host } from '../host';
import { CoworkError } from '../errors';
import type { Json, Operator } from '../store/records';
import type { RunRecord } from '../store/run-records';
import type { ResultsFile } from './results-format';

/** Fails with `not_found` unless the workspace has the task (checked before a suite runs). */
export function requireTaskOf(host: Host, taskId: string): void {
  if (!host.coordinator.current.tasks[taskId]) throw new CoworkError('not_found', `no task ${JSON.stringify(taskId)}; \`cowork tasks\` lists them`, { taskId });
}

/**
 * A suite run's figures as the metrics of a finished run (README, "Runs"): each trial a step with
 * its score (% of its rubric points, an invalid trial 0) and whether all its checks passed; then
 * the totals: all-pass rate (% of trials), mean score and invalid trials.
 */
export function suiteRunMetrics(results: ResultsFile): Json[] {
  const trials = results.trials;
  const scoreOf = (t: ResultsFile['trials'][number]): number => (t.status === 'invalid' || t.maxScore === 0 ? 0 : round((100 * t.score) / t.maxScore));
  const perTrial = trials.map((t, i) => ({ step: i + 1, score: scoreOf(t), passed: t.passed ? 1 : 0 }));
  const n = Math.max(1, trials.length);
  const totals = {
    all_pass: round((100 * trials.filter((t) => t.passed).length) / n),
    mean_score: round(trials.reduce((sum, t) => sum + scoreOf(t), 0) / n),
    invalid: trials.filter((t) => t.status === 'invalid').length,
    trials: trials.length,
  };
  return [...perTrial, totals];
}

/** Records a finished suite run as a run of the task: its figures, suite, split, model and results file. */
export function recordSuiteRun(host: Host, taskId: string, results: ResultsFile, resultsPath: string, operator: Operator): Promise<RunRecord> {
  return host.runs.recordResult({
    taskId,
    name: `bench ${results.suite}`,
    params: { suite: results.suite, split: results.split, trialsPerTask: results.trialsPerTask, model: results.model.name, provider: results.model.provider, results: resultsPath },
    goal: { metric: 'all_pass', direction: 'max' },
    metrics: suiteRunMetrics(results),
    status: results.trials.length > 0 && results.trials.every((t) => t.status === 'invalid') ? 'failed' : 'succeeded',
    operator,
  });
}

const round = (x: number): number => Math.round(x * 100) / 100;
