import type { TempHost } from '@cowork/host/testkit';
import { writeSamples } from '../src/data-files';
import { collect, filterSamples } from '../src/dataset-builder';
import { FAMILY_TOOLS } from '../src/family/catalog';
import { generate } from '../src/family/families';
import { failure, loaded, PERSON, readAndAnswer, record, trainerHost } from './support';

/** A filtered dataset resource, made the way the tools make it. */
async function filteredDataset(host: TempHost): Promise<{ id: string; revision: number }> {
  const collection = collect([loaded(record('t1', readAndAnswer('q1', 'The port is 4242.'))), loaded(record('t2', readAndAnswer('q2', 'It is 4242.')))]);
  const pool = writeSamples(host.dir, 'pools', collection.samples);
  const created = await host.resources.create({ kind: 'trainer.dataset', operator: PERSON });
  await host.resources.commit(created.id, { baseRevision: 0, op: { type: 'collected', pool, sources: collection.sources }, operator: PERSON });
  const result = filterSamples(collection.samples, { tools: FAMILY_TOOLS, heldout: [], ancestorHashes: new Set() });
  const data = writeSamples(host.dir, 'datasets', result.kept);
  const op = {
    type: 'filtered', poolHash: pool.hash, filters: result.filters, trajectories: result.trajectories, tokenShare: result.tokenShare, data,
    heldout: result.heldout, history: { ancestorCheckpoints: [], ancestorTrajectories: 0 },
  };
  const { revision } = await host.resources.commit(created.id, { baseRevision: 1, op: JSON.parse(JSON.stringify(op)), operator: PERSON });
  return { id: created.id, revision };
}

describe('trainer kinds', () => {
  let host: TempHost;
  beforeAll(async () => {
    host = await trainerHost();
  });
  afterAll(async () => {
    await host.dispose();
  });

  test('the plugin loads with its kinds and tools', () => {
    expect(host.pluginProblems).toEqual([]);
    for (const kind of ['trainer.dataset', 'trainer.round', 'trainer.checkpoint']) expect(host.registry.kind(kind)).toBeDefined();
    for (const tool of ['trainer_collect', 'trainer_filter', 'trainer_report', 'trainer_generate']) expect(host.registry.tool(tool)).toBeDefined();
  });

  test('a round plan is edited by ops, and a commit on an old revision conflicts and is kept as a candidate', async () => {
    const dataset = await filteredDataset(host);
    const round = await host.resources.create({ kind: 'trainer.round', operator: PERSON });
    await host.resources.commit(round.id, { baseRevision: 0, op: { type: 'set_dataset', dataset }, operator: PERSON });
    await host.resources.commit(round.id, { baseRevision: 1, op: { type: 'set_settings', settings: { steps: 40, lr: 0.01 } }, operator: 'agent:main' });
    const conflict = await failure(host.resources.commit(round.id, { baseRevision: 1, op: { type: 'set_settings', settings: { batch: 8 } }, operator: PERSON }));
    expect(conflict.code).toBe('revision_conflict');
    expect(conflict.details.currentRevision).toBe(2);
    expect(await host.resources.listCandidates(round.id)).toHaveLength(1);
    const content = (await host.resources.get(round.id)).content as { settings: Record<string, number>; dataset: unknown };
    expect(content.settings).toEqual({ steps: 40, lr: 0.01, batch: 16, seed: 0, threads: 1 });
    expect(content.dataset).toEqual(dataset);
    expect(await host.resources.summarize(round.id)).toContain('40 steps, lr 0.01');
  });

  test('a plan naming a missing parent checkpoint, an empty or unfiltered dataset is refused with invalid_op', async () => {
    const round = await host.resources.create({ kind: 'trainer.round', operator: PERSON });
    const missing = await failure(host.resources.commit(round.id, { baseRevision: 0, op: { type: 'set_parent', parent: { type: 'checkpoint', checkpointId: 'res_nope', hash: 'a'.repeat(64) } }, operator: PERSON }));
    expect(missing.code).toBe('invalid_op');
    expect(JSON.stringify(missing)).toContain('the parent checkpoint res_nope does not exist');
    const empty = await host.resources.create({ kind: 'trainer.dataset', operator: PERSON });
    const unfiltered = await failure(host.resources.commit(round.id, { baseRevision: 0, op: { type: 'set_dataset', dataset: { id: empty.id, revision: 0 } }, operator: PERSON }));
    expect(unfiltered.code).toBe('invalid_op');
    expect(JSON.stringify(unfiltered)).toContain(`the dataset ${empty.id} at revision 0 is empty, not filtered`);
    const wrongKind = await failure(host.resources.commit(round.id, { baseRevision: 0, op: { type: 'set_dataset', dataset: { id: round.id, revision: 0 } }, operator: PERSON }));
    expect(JSON.stringify(wrongKind)).toContain('is a trainer.round, not a trainer.dataset');
    expect((await host.resources.get(round.id)).revision).toBe(0);
    const emptyFilter = await failure(host.resources.commit(empty.id, { baseRevision: 0, op: { type: 'collected', pool: { file: 'x', hash: 'b'.repeat(64), samples: 0 }, sources: [] }, operator: PERSON }));
    expect(emptyFilter.code).toBe('invalid_op');
    expect(JSON.stringify(emptyFilter)).toContain('a collection with no samples is an empty dataset');
  });

  test('the plan is fixed once queued; status moves only along its transitions; metrics never count a step twice', async () => {
    const dataset = await filteredDataset(host);
    const round = await host.resources.create({ kind: 'trainer.round', operator: PERSON });
    const commit = (baseRevision: number, op: object) => host.resources.commit(round.id, { baseRevision, op, operator: PERSON });
    expect((await failure(commit(0, { type: 'set_status', status: 'queued' }))).message).toContain('a round needs a dataset before it is queued');
    await commit(0, { type: 'set_dataset', dataset });
    await commit(1, { type: 'set_status', status: 'queued' });
    expect((await failure(commit(2, { type: 'set_settings', settings: { steps: 5 } }))).message).toContain('the round is queued: its plan is fixed');
    expect((await failure(commit(2, { type: 'set_status', status: 'succeeded' }))).message).toContain('a queued round cannot become succeeded');
    await commit(2, { type: 'set_status', status: 'running' });
    await commit(3, { type: 'record_metrics', points: [{ step: 10, loss: 2.5, tokensPerSecond: 900 }, { step: 20, loss: 2.1, tokensPerSecond: 950 }] });
    // A job resumed from its step-10 checkpoint reports steps 20 and 30: only 30 is new.
    await commit(4, { type: 'record_metrics', points: [{ step: 20, loss: 2.2, tokensPerSecond: 940 }, { step: 30, loss: 1.9, tokensPerSecond: 960 }] });
    const content = (await host.resources.get(round.id)).content as { metrics: { step: number; loss: number }[] };
    expect(content.metrics.map((p) => [p.step, p.loss])).toEqual([[10, 2.5], [20, 2.1], [30, 1.9]]);
  });

  test('a checkpoint is immutable, and is created only with its content; a round can name it as parent by id and hash', async () => {
    expect((await failure(host.resources.create({ kind: 'trainer.checkpoint', operator: PERSON }))).code).toBe('invalid_content');
    const dataset = await filteredDataset(host);
    const content = {
      hash: 'c'.repeat(64), file: 'trainer/checkpoints/c.pt', parent: { type: 'base' }, round: null, data: { datasetId: dataset.id, revision: dataset.revision, hash: 'd'.repeat(64) },
      steps: 40, tokenizer: { name: 'pieces', vocabSize: 80 }, model: { layers: 4, dModel: 128 },
    };
    const checkpoint = await host.resources.create({ kind: 'trainer.checkpoint', content, operator: PERSON });
    const edit = await failure(host.resources.commit(checkpoint.id, { baseRevision: 0, op: { type: 'set_steps', steps: 1 }, operator: PERSON }));
    expect(edit.code).toBe('invalid_op');
    expect(JSON.stringify(edit)).toContain('a checkpoint is immutable');
    const round = await host.resources.create({ kind: 'trainer.round', operator: PERSON });
    const wrongHash = await failure(host.resources.commit(round.id, { baseRevision: 0, op: { type: 'set_parent', parent: { type: 'checkpoint', checkpointId: checkpoint.id, hash: 'e'.repeat(64) } }, operator: PERSON }));
    expect(JSON.stringify(wrongHash)).toContain(`has hash cccccccccccc, not eeeeeeeeeeee`);
    await host.resources.commit(round.id, { baseRevision: 0, op: { type: 'set_parent', parent: { type: 'checkpoint', checkpointId: checkpoint.id, hash: content.hash } }, operator: PERSON });
    expect(await host.resources.summarize(round.id)).toContain(`from checkpoint ${checkpoint.id} (cccccccccccc)`);
  });

  test("a commit_line trajectory's op applies to a real text resource at its base revision", async () => {
    const [task] = generate('commit_line', 'train', 1, 5);
    const text = await host.resources.create({ kind: 'text', operator: PERSON });
    let revision = 0;
    while (revision < task!.revision) revision = (await host.resources.commit(text.id, { baseRevision: revision, op: { type: 'append', text: '.' }, operator: PERSON })).revision;
    const call = task!.messages[1]!;
    const args = JSON.parse(call.role === 'assistant' ? call.toolCalls![0]!.arguments : '') as { baseRevision: number; op: object };
    const result = await host.resources.commit(text.id, { baseRevision: args.baseRevision, op: args.op, operator: 'agent:main' });
    expect(`revision ${result.revision}`).toBe(task!.answer);
  });
});
