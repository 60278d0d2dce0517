import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Json } from '@cowork/host';
import type { TempHost } from '@cowork/host/testkit';
import { callTool, PERSON, readAndAnswer, record, trainerHost, writeRunFolder } from './support';

type Obj = Record<string, Json>;
const obj = (v: Json) => v as Obj;
const reasonOf = (v: Json) => obj(obj(v).error!).reason;

describe('trainer tools through a host', () => {
  let host: TempHost;
  const call = (name: string, input: unknown) => callTool(host, name, input);
  const datasets = async () => (await host.resources.list({ kind: 'trainer.dataset' })).length;
  const files = (area: string) => (existsSync(join(host.dir, 'trainer', area)) ? readdirSync(join(host.dir, 'trainer', area)) : []);

  beforeAll(async () => {
    host = await trainerHost();
    for (const family of ['read_value', 'commit_line']) {
      await call('trainer_generate', { family, split: 'train', count: 30, seed: 1, out: `runs/train-${family}` });
      await call('trainer_generate', { family, split: 'heldout', count: 10, seed: 1, out: `runs/heldout-${family}` });
    }
  });
  afterAll(async () => {
    await host.dispose();
  });

  test('generate, collect, filter and report a dataset; a round continuing from its checkpoint drops what it trained on', async () => {
    const collected = obj((await call('trainer_collect', { name: 'round 0 data', runs: ['runs/train-read_value', 'runs/train-commit_line'] })).content);
    expect(collected).toMatchObject({ revision: 0, runs: 60, samples: 60 });
    const datasetId = collected.datasetId as string;
    const filtered = await call('trainer_filter', { datasetId, heldout: ['runs/heldout-read_value', 'runs/heldout-commit_line'] });
    expect(filtered.isError).toBeUndefined();
    expect(obj(filtered.content)).toMatchObject({ revision: 1, kept: 60 });
    const report = obj((await call('trainer_report', { datasetId })).content);
    expect(report).toMatchObject({ name: 'round 0 data', stage: 'filtered', sources: 60, collected: 60, kept: 60, warnings: [] });
    expect((report.filters as Obj[]).map((f) => [f.filter, f.input, f.kept])).toEqual([['validity', 60, 60], ['rubric', 60, 60], ['history', 60, 60], ['heldout_similarity', 60, 60]]);
    expect(await host.resources.summarize(datasetId)).toContain('heldout_similarity: kept 60 of 60');
    await host.resources.commit(datasetId, { baseRevision: 1, op: { type: 'set_multiplier', group: 'new', multiplier: 24 }, operator: PERSON });
    expect(obj((await call('trainer_report', { datasetId })).content).multipliers).toEqual([{ group: 'new', multiplier: 24 }]);

    // Round 0's checkpoint trained on revision 2; round 1 collects the old runs again plus new ones.
    const dataHash = obj(report.data!).hash as string;
    const checkpoint = await host.resources.create({
      kind: 'trainer.checkpoint', operator: PERSON,
      content: { hash: 'f'.repeat(64), file: 'trainer/checkpoints/f.pt', parent: { type: 'base' }, round: null, data: { datasetId, revision: 2, hash: dataHash }, steps: 40, tokenizer: { name: 'pieces', vocabSize: 80 }, model: {} },
    });
    await call('trainer_generate', { family: 'read_value', split: 'train', count: 5, seed: 2, out: 'runs/more' });
    const next = obj((await call('trainer_collect', { name: 'round 1 data', runs: ['runs/train-read_value', 'runs/train-commit_line', 'runs/more'], group: 'old' })).content);
    const second = obj((await call('trainer_filter', { datasetId: next.datasetId, parentCheckpointId: checkpoint.id, heldout: ['runs/heldout-read_value'] })).content);
    expect(second.kept).toBe(5);
    expect((second.filters as Obj[])[2]).toMatchObject({ filter: 'history', input: 65, kept: 5, byReason: { trained_by_ancestor: 60 } });
    const content = obj((await host.resources.get(next.datasetId as string)).content);
    expect(content.history).toEqual({ ancestorCheckpoints: [checkpoint.id], ancestorTrajectories: 60 });

    // New and old data in one collection: a group per path, recorded on each source.
    const mixed = obj((await call('trainer_collect', { name: 'mixed', runs: ['runs/more', 'runs/train-commit_line'], groups: { 'runs/more': 'new' }, group: 'old' })).content);
    const sources = obj((await host.resources.get(mixed.datasetId as string)).content).sources as Obj[];
    expect(new Set(sources.filter((x) => (x.source as string).startsWith('runs/more/')).map((x) => x.group))).toEqual(new Set(['new']));
    expect(new Set(sources.filter((x) => (x.source as string).startsWith('runs/train-commit_line/')).map((x) => x.group))).toEqual(new Set(['old']));
    const unknownPath = await call('trainer_collect', { runs: ['runs/more'], groups: { 'runs/nope': 'new' } });
    expect(obj(obj(unknownPath.content).error!)).toMatchObject({ code: 'invalid_input', message: 'groups names runs/nope, which runs does not list' });
  });

  test('a run record of another format refuses the whole collection; nothing is created or written', async () => {
    const before = { datasets: await datasets(), pools: files('pools').length };
    mkdirSync(join(host.dir, 'runs', 'mixed', 'records'), { recursive: true });
    writeFileSync(join(host.dir, 'runs', 'mixed', 'records', 'a.0.json'), JSON.stringify(record('a', readAndAnswer('q', 'a'))));
    writeFileSync(join(host.dir, 'runs', 'mixed', 'records', 'b.0.json'), JSON.stringify({ format: 'cowork-bench-script/1', agents: {} }));
    const result = await call('trainer_collect', { runs: ['runs/mixed'] });
    expect(result.isError).toBe(true);
    expect(obj(obj(result.content).error!)).toMatchObject({
      code: 'invalid_input', reason: 'not_a_run_record',
      message: 'runs/mixed/records/b.0.json has format "cowork-bench-script/1", not cowork-bench-run/1: the trainer reads the benchmark runner\'s run records only',
    });
    expect({ datasets: await datasets(), pools: files('pools').length }).toEqual(before);
    const outside = await call('trainer_collect', { runs: ['../elsewhere'] });
    expect(obj(obj(outside.content).error!).message).toBe('../elsewhere is outside the workspace');
  });

  test('filtering to nothing, or before collecting, is a clear error and leaves the dataset as it was', async () => {
    writeRunFolder(join(host.dir, 'runs', 'failed'), [record('f1', readAndAnswer('q1', 'a'), { pass: false }), record('f2', readAndAnswer('q2', 'b'), { pass: false })]);
    const { datasetId } = obj((await call('trainer_collect', { runs: ['runs/failed'] })).content) as { datasetId: string };
    const before = { revision: (await host.resources.get(datasetId)).revision, data: files('datasets').length };
    const result = await call('trainer_filter', { datasetId });
    expect(result.isError).toBe(true);
    expect(reasonOf(result.content)).toBe('empty_dataset');
    expect(obj(obj(result.content).error!).message).toContain('rubric kept 0 of 2 (rubric_failed 2)');
    expect({ revision: (await host.resources.get(datasetId)).revision, data: files('datasets').length }).toEqual(before);

    const fresh = await host.resources.create({ kind: 'trainer.dataset', operator: PERSON });
    expect(reasonOf((await call('trainer_filter', { datasetId: fresh.id })).content)).toBe('not_collected');
    expect(reasonOf((await call('trainer_report', { datasetId: 'res_missing' })).content)).toBe('missing_resource');
  });

  test('a collect on a stale base revision conflicts like any commit', async () => {
    const { datasetId } = obj((await call('trainer_collect', { runs: ['runs/train-read_value'] })).content) as { datasetId: string };
    await host.resources.commit(datasetId, { baseRevision: 0, op: { type: 'rename', name: 'renamed by ann' }, operator: PERSON });
    const stale = await call('trainer_collect', { datasetId, baseRevision: 0, runs: ['runs/train-commit_line'] });
    expect(obj(obj(stale.content).error!)).toMatchObject({ code: 'revision_conflict', currentRevision: 1 });
    expect(obj((await host.resources.get(datasetId)).content).name).toBe('renamed by ann');
  });
});

describe('trainer_plan_round', () => {
  let host: TempHost;
  const call = (name: string, input: unknown) => callTool(host, name, input);
  beforeAll(async () => {
    host = await trainerHost();
    await call('trainer_generate', { family: 'read_value', split: 'train', count: 4, seed: 1, out: 'runs/a' });
  });
  afterAll(async () => {
    await host.dispose();
  });

  test('plans a draft round from base on the dataset\'s current revision; a missing parent or an unfiltered dataset is refused', async () => {
    const { datasetId } = obj((await call('trainer_collect', { runs: ['runs/a'] })).content) as { datasetId: string };
    const unfiltered = await call('trainer_plan_round', { name: 'r0', datasetId });
    expect(obj(obj(unfiltered.content).error!).code).toBe('invalid_content');
    expect(JSON.stringify(unfiltered.content)).toContain(`the dataset ${datasetId} at revision 0 is collected, not filtered`);
    await call('trainer_filter', { datasetId });
    const missing = await call('trainer_plan_round', { name: 'r1', datasetId, parentCheckpointId: 'res_gone' });
    expect(reasonOf(missing.content)).toBe('missing_resource');
    expect(await host.resources.list({ kind: 'trainer.round' })).toEqual([]);
    const planned = obj((await call('trainer_plan_round', { name: 'r0', datasetId, settings: { steps: 40 } })).content);
    expect(planned).toMatchObject({ revision: 0, parent: { type: 'base' }, dataset: { id: datasetId, revision: 1 }, settings: { steps: 40, lr: 0.003, batch: 16, seed: 0, threads: 1 } });
    const round = await host.resources.get(planned.roundId as string);
    expect(obj(round.content).status).toBe('draft');
  });
});
