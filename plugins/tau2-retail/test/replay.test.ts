import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSuite, type ResultsFile } from '@cowork/host/embed';
import { plugin } from '../src';
import { loadData } from '../src/data';
import { isWriteTool } from '../src/domain';
import { replayGold } from '../src/gold';
import { referenceScript } from '../src/scripts';
import { tau2RetailSuite } from '../src/suite';
import { DATA_DIR, describeWithData } from './helpers';

/** Runs tasks of the suite through the real runtime, Main played by session scripts written to a temp folder. */
async function replay(scripts: Record<string, ReturnType<typeof referenceScript>>): Promise<ResultsFile> {
  const dir = mkdtempSync(join(tmpdir(), 'tau2-replay-'));
  try {
    for (const [task, script] of Object.entries(scripts)) writeFileSync(join(dir, `${task}.json`), JSON.stringify(script));
    return await runSuite({
      suite: tau2RetailSuite,
      tasks: Object.keys(scripts),
      trials: 1,
      model: { kind: 'script', dir },
      modelName: null,
      host: { plugins: [plugin] },
      outDir: join(dir, 'out'),
      data: DATA_DIR,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describeWithData('replaying the suite through the runtime', () => {
  // A trial opens a fresh host and replays its conversation (about 2 s on this machine's kind): the
  // sample covers every write tool, gold actions that fail, tasks without actions and a DB-only
  // task. TAU2_REPLAY_ALL=1 replays all 114 (about 4 minutes).
  const SAMPLE = ['0', '3', '5', '10', '16', '22', '24', '33', '40', '46', '64', '105', '113'];

  test(`reference scripts (the gold actions as Main's tool calls) score full marks on the database (${process.env.TAU2_REPLAY_ALL ? 'all tasks' : 'a sample'})`, async () => {
    const data = loadData();
    const sample = process.env.TAU2_REPLAY_ALL ? data.tasks.map((t) => t.id) : SAMPLE;
    const results = await replay(Object.fromEntries(sample.map((id) => [id, referenceScript(data.tasks.find((t) => t.id === id)!)])));
    for (const trial of results.trials) {
      expect({ task: trial.task, status: trial.status, reason: trial.reason, outcome: trial.outcome }).toEqual({ task: trial.task, status: 'scored', reason: undefined, outcome: 'done' });
      const db = trial.items.find((item) => item.id === 'db')!;
      expect({ task: trial.task, pass: db.pass, detail: db.detail }).toEqual({ task: trial.task, pass: true, detail: 'the final database equals the gold database' });
      expect(trial.score).toBe(trial.maxScore);
      for (const item of trial.items.filter((i) => i.id.startsWith('nl_'))) expect(item).toMatchObject({ pass: true, judged: false, points: 0, detail: expect.stringMatching(/^not judged in replay/) });
    }
    expect(results.trials.map((t) => t.task)).toEqual(sample);
  });

  test('a script that leaves out one successful write scores 0 on the database', async () => {
    const data = loadData();
    const task = data.tasks.find((t) => t.id === '5')!;
    const actions = task.evaluation_criteria!.actions!;
    const steps = replayGold(data.db, actions).steps;
    const dropped = steps.findIndex((step) => step.wrote && isWriteTool(step.action.name));
    expect(dropped).toBeGreaterThanOrEqual(0);
    const results = await replay({ [task.id]: referenceScript(task, { drop: dropped }) });
    const trial = results.trials[0]!;
    expect(trial.status).toBe('scored');
    expect(trial.score).toBe(0);
    expect(trial.passed).toBe(false);
    expect(trial.items.find((i) => i.id === 'db')).toMatchObject({ pass: false, earned: 0, detail: expect.stringContaining('differs from the gold database') });
  });
});
