import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeJsonAtomic } from '@cowork/host';
import { RUN_RECORD_FORMAT } from '../run-record';
import type { FamilyTask } from './families';

/**
 * Writes generated tasks as a benchmark run folder (`results.json` and `records/<task>.0.json` in
 * the runner's formats), so generated trajectories enter the dataset through the same reader and
 * filters as recorded runs. Each record is a scored trial whose one rubric item passed.
 */
export function writeFamilyRun(dir: string, tasks: readonly FamilyTask[], suite = 'trainer-families'): void {
  mkdirSync(join(dir, 'records'), { recursive: true });
  const at = '2026-01-01T00:00:00.000Z';
  const trials = tasks.map((task) => {
    const item = { id: 'answer', description: `the answer carries ${task.answer}`, points: 1, earned: 1, pass: true, detail: 'generated reference' };
    const record = {
      format: RUN_RECORD_FORMAT, suite, task: task.id, trial: 0, request: task.request, outcome: 'done', summary: null,
      entries: task.messages.map((message, i) => ({ agentId: 'main', turn: Math.floor(i / 2) + 1, message, at })),
      tokens: { input: 0, output: 0 }, budget: { tokens: null, turns: null, seconds: null }, startedAt: at, endedAt: at,
      resources: {}, status: 'scored', items: [item],
    };
    writeJsonAtomic(join(dir, 'records', `${task.id}.0.json`), record);
    return {
      task: task.id, split: task.split === 'train' ? 'dev' : 'heldout', trial: 0, status: 'scored', outcome: 'done', score: 1, maxScore: 1, passed: true,
      items: [item], tokens: { input: 0, output: 0 }, turns: 2, seconds: 0, setupSeconds: 0, scoringSeconds: 0,
      budget: { tokens: null, turns: null, seconds: null }, record: `records/${task.id}.0.json`,
    };
  });
  writeJsonAtomic(join(dir, 'results.json'), {
    format: 'cowork-bench-results/1', suite, createdAt: at, updatedAt: at, model: { provider: 'generated', name: null, replay: null }, trialsPerTask: 1, split: 'all', trials,
  });
}
