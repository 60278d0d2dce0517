import { RESULTS_FORMAT, type ResultsFile, type TaskBudget, type TrialResult } from '../../src/evaluation/results-format';

export const BUDGET: TaskBudget = { tokens: 200_000, turns: 40, seconds: 600 };

let counter = 0;

/**
 * A trial for the metric tests: `score` of `max` (passed when they are equal), or `'invalid'` (score 0,
 * passed false; `max` still reported unless given as 0). Trial numbers count up per call unless given.
 */
export function trial(task: string, score: number | 'invalid', max: number, extra: Partial<TrialResult> = {}): TrialResult {
  counter += 1;
  const isInvalid = score === 'invalid';
  return {
    task,
    split: 'dev',
    trial: counter,
    status: isInvalid ? 'invalid' : 'scored',
    ...(isInvalid ? { reason: 'the checker crashed' } : {}),
    outcome: isInvalid ? 'error' : 'done',
    score: isInvalid ? 0 : score,
    maxScore: max,
    passed: !isInvalid && score === max,
    items: [],
    tokens: { input: 1000, output: 100 },
    turns: 5,
    seconds: 10,
    setupSeconds: 1,
    scoringSeconds: 0.5,
    budget: BUDGET,
    record: `records/${task}.${counter}.json`,
    ...extra,
  };
}

export function resultsFile(trials: readonly TrialResult[], extra: Partial<ResultsFile> = {}): ResultsFile {
  return {
    format: RESULTS_FORMAT,
    suite: 'office',
    createdAt: '2025-05-01T10:00:00.000Z',
    updatedAt: '2025-05-01T11:00:00.000Z',
    model: { provider: 'openai-compatible', name: 'qwen2.5-7b-instruct', replay: null },
    trialsPerTask: 1,
    split: 'dev',
    trials,
    ...extra,
  };
}
