import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Json } from '@cowork/host';
import type { TempHost } from '@cowork/host/testkit';
import { callTool, PERSON, trainerHost } from './support';

type Obj = Record<string, Json>;
const obj = (v: Json) => v as Obj;
const errorOf = (v: Json) => obj(obj(v).error!);

/** A run record whose Main called these tools. */
function writeRecord(dir: string, task: string, trial: number, tools: string[]): void {
  mkdirSync(join(dir, 'records'), { recursive: true });
  const entries = tools.map((name, i) => ({ agentId: 'main', turn: i + 1, message: { role: 'assistant', content: null, toolCalls: [{ id: `c${i}`, name, arguments: '{}' }] } }));
  writeFileSync(join(dir, 'records', `${task}.${trial}.json`), JSON.stringify({ format: 'cowork-bench-run/1', task, trial, entries }));
}

/** A held-out run's results.json: per task, whether its trial passed (null: invalid). */
function writeRun(dir: string, passes: Record<string, (boolean | null)[]>, split: 'heldout' | 'dev' = 'heldout'): void {
  mkdirSync(dir, { recursive: true });
  const trials = Object.entries(passes).flatMap(([task, outcomes]) =>
    outcomes.map((p, trial) => ({ task, split, trial, status: p === null ? 'invalid' : 'scored', passed: p === true, score: p === true ? 3 : p === false ? 1 : 0, maxScore: 3, record: `records/${task}.${trial}.json` })),
  );
  writeFileSync(join(dir, 'results.json'), JSON.stringify({ format: 'cowork-bench-results/1', suite: 'trainer-families', model: { provider: 'openai-compatible', name: 'trainer-x', replay: null }, trials }));
}

describe('trainer_evaluate_round', () => {
  let host: TempHost;
  const call = (name: string, input: unknown) => callTool(host, name, input);
  let datasetId: string;
  let checkpoint: { id: string; hash: string };

  /** A round as a finished training leaves it: succeeded, with its checkpoint. */
  async function succeededRound(name: string): Promise<string> {
    const dataset = await host.resources.get(datasetId);
    const round = await host.resources.create({
      kind: 'trainer.round', operator: PERSON,
      content: { name, parent: { type: 'base' }, dataset: { id: datasetId, revision: dataset.revision }, settings: { steps: 40, lr: 0.003, batch: 8, seed: 1, threads: 1 }, status: 'succeeded', job: null, metrics: [{ step: 20, loss: 1.5, tokensPerSecond: 100 }, { step: 40, loss: 0.5, tokensPerSecond: 100 }], checkpoint, report: null, evaluation: null },
    });
    return round.id;
  }

  beforeAll(async () => {
    host = await trainerHost();
    await call('trainer_generate', { family: 'read_value', split: 'train', count: 6, seed: 1, out: 'runs/train' });
    datasetId = obj((await call('trainer_collect', { runs: ['runs/train'] })).content).datasetId as string;
    await call('trainer_filter', { datasetId });
    const content = obj((await host.resources.get(datasetId)).content);
    const created = await host.resources.create({
      kind: 'trainer.checkpoint', operator: PERSON,
      content: { hash: 'a'.repeat(64), file: 'trainer/checkpoints/a.pt', parent: { type: 'base' }, round: null, data: { datasetId, revision: 1, hash: obj(content.data!).hash }, steps: 40, tokenizer: { name: 'pieces', vocabSize: 80 }, model: {} },
    });
    checkpoint = { id: created.id, hash: 'a'.repeat(64) };
  });
  afterAll(async () => {
    await host.dispose();
  });

  test('scores each family against hand counts, compares with an evaluated round, writes the report and records both in one commit', async () => {
    // read_value: 3 tasks, 2 trials each, 4 of 6 pass; commit_line: 2 tasks, one invalid trial; create_note: none pass.
    writeRun(join(host.dir, 'runs', 'eval-parent'), { 'read-value-heldout-2-0': [false, false], 'read-value-heldout-2-1': [false, true], 'read-value-heldout-2-2': [false, false], 'commit-line-heldout-2-0': [false], 'commit-line-heldout-2-1': [false], 'create-note-heldout-2-0': [false] });
    writeRun(join(host.dir, 'runs', 'eval-child'), { 'read-value-heldout-2-0': [true, true], 'read-value-heldout-2-1': [true, false], 'read-value-heldout-2-2': [true, false], 'commit-line-heldout-2-0': [true], 'commit-line-heldout-2-1': [null], 'create-note-heldout-2-0': [false] });
    // Which trials called their family's tool at all: two of read_value's (one of them a failure), none of commit_line's (a wrong tool).
    const child = join(host.dir, 'runs', 'eval-child');
    writeRecord(child, 'read-value-heldout-2-0', 0, ['read_resource', 'finish']);
    writeRecord(child, 'read-value-heldout-2-1', 1, ['read_resource']);
    writeRecord(child, 'commit-line-heldout-2-0', 0, ['read_resource', 'finish']);
    const parent = await succeededRound('round 0');
    const childRound = await succeededRound('round 1');
    expect((await call('trainer_evaluate_round', { roundId: parent, run: 'runs/eval-parent' })).isError).toBeUndefined();
    const before = (await host.resources.get(childRound)).revision;
    // Called from a task (as an agent's call is): the evaluation is also a finished run of the task.
    const result = obj((await callTool(host, 'trainer_evaluate_round', { roundId: childRound, run: 'runs/eval-child', compare: { parent } }, { taskId: 'task_evaluating' })).content);
    const [run] = await host.runs.list('task_evaluating');
    expect(run!.id).toBe(result.runId);
    expect(run).toMatchObject({ name: `evaluate ${childRound}`, status: 'succeeded', sources: [], goal: { metric: 'all_pass', direction: 'max' }, params: { round: childRound, run: 'runs/eval-child', suite: 'trainer-families' } });
    expect(Object.fromEntries(Object.entries(run!.metrics).map(([name, m]) => [name, m.last]))).toEqual({
      all_pass: obj(result.overall!).rate, rubric: obj(result.overall!).score, invalid: 1,
      'all_pass/read_value': 0.6667, 'all_pass/commit_line': 0.5, 'all_pass/create_note': 0,
      ...Object.fromEntries((result.families as Obj[]).map((f) => [`rubric/${String(f.family)}`, f.score])),
    });
    // Without a task nothing is recorded as a run.
    expect(obj((await call('trainer_evaluate_round', { roundId: parent, run: 'runs/eval-parent' })).content).runId).toBeNull();
    const families = result.families as Obj[];
    expect(families.map((f) => [f.family, f.tasks, f.trials, f.passed, f.invalid, f.rate, f.usedTool])).toEqual([
      ['read_value', 3, 6, 4, 0, 0.6667, 2],
      ['commit_line', 2, 2, 1, 1, 0.5, 0],
      ['create_note', 1, 1, 0, 0, 0, 0],
    ]);
    // Rubric score: read_value 4 passes × 3 + 2 fails × 1 of 18 points.
    expect(families[0]!.score).toBeCloseTo((100 * 14) / 18, 3);
    const interval = obj(families[0]!.interval!) as { low: number; high: number };
    expect(interval.low).toBeLessThanOrEqual(0.6667);
    expect(interval.high).toBeGreaterThanOrEqual(0.6667);
    expect(obj(result.overall!)).toMatchObject({ family: 'all', tasks: 6, trials: 9, passed: 5 });
    expect(result.comparisons).toEqual([{ label: 'parent', roundId: parent, name: 'round 0', deltas: [{ family: 'read_value', delta: 0.5 }, { family: 'commit_line', delta: 0.5 }, { family: 'create_note', delta: 0 }] }]);

    const round = await host.resources.get(childRound);
    expect(round.revision).toBe(before + 1);
    expect(obj(round.content).evaluation).toEqual({ run: 'runs/eval-child', suite: 'trainer-families', model: 'trainer-x', families: result.families, overall: result.overall, comparisons: result.comparisons });
    const page = readFileSync(join(host.dir, obj(round.content).report as string), 'utf8');
    for (const text of ['round 1', checkpoint.hash, 'read_value', '4/6', '66.7%', '2/6', '+50.0 points', '<svg']) expect(page).toContain(text);
  });

  test('bad input: a folder without results, a run of no held-out trials, a round not finished, a comparison not evaluated; nothing is written', async () => {
    const round = await succeededRound('round x');
    const missing = errorOf((await call('trainer_evaluate_round', { roundId: round, run: 'runs/nowhere' })).content);
    expect(missing).toMatchObject({ code: 'invalid_input', reason: 'not_a_results_file' });
    mkdirSync(join(host.dir, 'runs', 'other'), { recursive: true });
    writeFileSync(join(host.dir, 'runs', 'other', 'results.json'), JSON.stringify({ format: 'cowork-bench-script/1' }));
    expect(errorOf((await call('trainer_evaluate_round', { roundId: round, run: 'runs/other' })).content)).toMatchObject({ reason: 'not_a_results_file' });
    writeRun(join(host.dir, 'runs', 'dev-only'), { 'read-value-dev-1-0': [true] }, 'dev');
    expect(errorOf((await call('trainer_evaluate_round', { roundId: round, run: 'runs/dev-only' })).content)).toMatchObject({ reason: 'no_heldout_trials' });
    writeRun(join(host.dir, 'runs', 'fine'), { 'read-value-heldout-2-0': [true] });
    const unevaluated = await succeededRound('round y');
    expect(errorOf((await call('trainer_evaluate_round', { roundId: round, run: 'runs/fine', compare: { control: unevaluated } })).content)).toMatchObject({ reason: 'not_evaluated' });
    const draft = obj((await call('trainer_plan_round', { name: 'draft', datasetId })).content).roundId as string;
    expect(errorOf((await call('trainer_evaluate_round', { roundId: draft, run: 'runs/fine' })).content)).toMatchObject({ reason: 'not_evaluated' });
    expect(errorOf((await call('trainer_evaluate_round', { roundId: round, run: '../outside' })).content).message).toBe('../outside is outside the workspace');
    for (const id of [round, unevaluated, draft]) {
      expect(obj((await host.resources.get(id)).content).evaluation ?? null).toBeNull();
      expect(existsSync(join(host.dir, 'trainer', 'reports', `${id}.html`))).toBe(false);
    }
  });
});
