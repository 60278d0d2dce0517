// The trainer kinds' page views through a real host (host.views.view checks every block against the
// block schema): what a round, a dataset and a checkpoint show, and that their fields commit the
// kinds' ops through the page's edit path (useControl builds the op as the page does), with the
// kinds' checks refusing a bad value and a plan edit once the plan is fixed.
import { join } from 'node:path';
import type { Json, ViewBlock } from '@cowork/host';
import { controlLabels, fieldKeys, leaves, useControl, type TempHost } from '@cowork/host/testkit';
import { callTool, failure, PERSON, readAndAnswer, record, trainerHost, writeRunFolder } from './support';
import { evaluatedRound, fixture, METRICS, succeededRound, type Fixture } from './round-fixture';

type Obj = Record<string, Json>;

const text = (blocks: readonly ViewBlock[]): string => JSON.stringify(blocks);
const ofType = <T extends ViewBlock['type']>(blocks: readonly ViewBlock[], type: T) => leaves(blocks).filter((b): b is Extract<ViewBlock, { type: T }> => b.type === type);
/** The table whose header starts with `first` (or, without a header, whose first row starts with it). */
const table = (blocks: readonly ViewBlock[], first: string) => ofType(blocks, 'table').find((t) => (t.header?.[0] ?? t.rows[0]?.[0]) === first)!;

describe('trainer views', () => {
  let host: TempHost;
  let f: Fixture;
  beforeAll(async () => {
    host = await trainerHost();
    f = await fixture(host);
  });
  afterAll(async () => {
    await host.dispose();
  });

  test("a draft round shows its plan, and a person's settings field commits set_settings through the view's edit path", async () => {
    const planned = await callTool(host, 'trainer_plan_round', { name: 'plan', datasetId: f.datasetId, settings: { steps: 40 } });
    const roundId = (planned.content as Obj).roundId as string;
    const { blocks, revision } = await host.views.view(roundId);
    expect(controlLabels(blocks!)).toEqual(['Round name', 'Steps', 'Learning rate (peak)', 'Batch', 'Seed', 'Threads']);
    expect(new Set(fieldKeys(blocks!)).size).toBe(6);
    const steps = ofType(blocks!, 'field').find((b) => b.label === 'Steps')!;
    // The field's range is the kind's, so the page refuses what the commit would.
    expect(steps).toMatchObject({ value: 40, input: 'number', min: 1, max: 1_000_000, op: { type: 'set_settings' }, field: 'steps' });
    expect(table(blocks!, 'Parent').rows).toEqual([
      ['Parent', 'base (a fresh initialisation from the seed)'],
      ['Dataset', `${f.datasetId}@${f.datasetRevision}`],
      ['Job', '—'],
      ['Checkpoint', 'not made yet'],
    ]);
    expect(text(blocks!)).toContain('No metrics yet');
    expect(text(blocks!)).toContain('Not evaluated yet');
    expect(ofType(blocks!, 'frame')).toEqual([]);

    const after = await useControl(host, roundId, 'Steps', 120);
    expect(after).toBe(revision + 1);
    await useControl(host, roundId, 'Learning rate (peak)', 0.01);
    const history = await host.resources.history(roundId);
    expect(history.slice(-2).map((r) => r.op)).toEqual([{ type: 'set_settings', steps: 120 }, { type: 'set_settings', lr: 0.01 }]);
    const content = (await host.resources.get(roundId)).content as Obj;
    expect(content.settings).toEqual({ steps: 120, lr: 0.01, batch: 16, seed: 0, threads: 1 });
    expect(ofType((await host.views.view(roundId)).blocks!, 'field').find((b) => b.label === 'Steps')!.value).toBe(120);

    // A value the kind refuses (a batch of 0, a fractional step count) is refused on the page's path too, and nothing is written.
    expect((await failure(useControl(host, roundId, 'Batch', 0))).code).toBe('invalid_op');
    expect((await failure(useControl(host, roundId, 'Steps', 2.5))).code).toBe('invalid_op');
    // The flat shape may be neither empty nor mixed with the nested one, and names only settings.
    for (const op of [{ type: 'set_settings' }, { type: 'set_settings', steps: 5, settings: { lr: 0.1 } }, { type: 'set_settings', epochs: 2 }]) {
      expect((await failure(host.resources.commit(roundId, { baseRevision: revision + 2, op, operator: PERSON }))).code).toBe('invalid_op');
    }
    expect((await host.resources.get(roundId)).revision).toBe(revision + 2);
    // The round's name is a field in any status.
    await useControl(host, roundId, 'Round name', 'plan b');
    expect(((await host.resources.get(roundId)).content as Obj).name).toBe('plan b');
  });

  test('once queued, the settings are text and a plan edit in the flat shape is refused', async () => {
    const roundId = ((await callTool(host, 'trainer_plan_round', { name: 'fixed', datasetId: f.datasetId })).content as Obj).roundId as string;
    const draft = await host.views.view(roundId);
    await host.resources.commit(roundId, { baseRevision: draft.revision, op: { type: 'set_status', status: 'queued' }, operator: PERSON });
    const { blocks } = await host.views.view(roundId);
    expect(controlLabels(blocks!)).toEqual(['Round name']);
    expect(table(blocks!, 'Setting').rows).toEqual([['Steps', '600'], ['Learning rate (peak)', '0.003'], ['Batch', '16'], ['Seed', '0'], ['Threads', '1']]);
    expect(text(blocks!)).toContain('The plan is fixed once a round is queued; this one is queued.');
    // A page still showing the draft's field commits on the draft's revision: a conflict, kept as a candidate; on the current one, refused.
    expect((await failure(host.resources.commit(roundId, { baseRevision: draft.revision, op: { type: 'set_settings', steps: 5 }, operator: PERSON }))).code).toBe('revision_conflict');
    const refused = await failure(host.resources.commit(roundId, { baseRevision: draft.revision + 1, op: { type: 'set_settings', steps: 5 }, operator: PERSON }));
    expect(refused).toMatchObject({ code: 'invalid_op', message: expect.stringContaining('its plan is fixed once queued') });
  });

  test('an evaluated round shows its lineage, loss curve, held-out scores per family with intervals, comparisons and the report frame', async () => {
    const parent = await evaluatedRound(host, f, 'round 0', { 'read-value-heldout-2-0': [false, false], 'read-value-heldout-2-1': [false, true], 'commit-line-heldout-2-0': [false] });
    const roundId = await evaluatedRound(host, f, 'round 1', { 'read-value-heldout-2-0': [true, true], 'read-value-heldout-2-1': [true, false], 'commit-line-heldout-2-0': [true] }, { parent });
    const { blocks, revision } = await host.views.view(roundId);
    expect(controlLabels(blocks!)).toEqual(['Round name']);
    expect(table(blocks!, 'Parent').rows.slice(1)).toEqual([
      ['Dataset', `${f.datasetId}@${f.datasetRevision}`],
      ['Job', 'job_fixture'],
      ['Checkpoint', `${f.checkpoint.id} (sha256 ${f.checkpoint.hash})`],
    ]);
    const base = `/api/resources/${roundId}/export`;
    expect(ofType(blocks!, 'image')).toEqual([{ type: 'image', url: `${base}/loss-svg?revision=${revision}`, alt: 'masked training loss by step, 7 point(s), the last 0.1000 at step 40' }]);
    // The latest five points as a table; the picture has them all.
    expect(table(blocks!, 'Step').rows.map((r) => r[0])).toEqual(METRICS.slice(-5).map((p) => String(p.step)));
    const scores = table(blocks!, 'Family');
    expect(scores.header).toEqual(['Family', 'Passed', 'All-pass', '95% interval', 'Rubric score', 'Called its tool', 'Invalid']);
    expect(scores.rows.map((r) => r.slice(0, 3))).toEqual([['read_value', '3/4', '75.0%'], ['commit_line', '1/1', '100.0%'], ['all', '4/5', '80.0%']]);
    expect(scores.rows[0]![3]).toMatch(/^\d+\.\d% – \d+\.\d%$/);
    const compared = ofType(blocks!, 'table').find((t) => t.header?.[1]?.startsWith('vs parent'))!;
    expect(compared.header).toEqual(['Family', 'vs parent (round 0)']);
    expect(compared.rows).toEqual([['read_value', '+50.0 points'], ['commit_line', '+100.0 points']]);
    expect(ofType(blocks!, 'frame')).toEqual([{ type: 'frame', url: `${base}/html?revision=${revision}&inline=true`, title: `Report of round round 1, revision ${revision}` }]);
    expect(text(blocks!)).toContain(`trainer/reports/${roundId}.html`);
  });

  test('a succeeded round not yet evaluated says how to evaluate it, and frames no report', async () => {
    const roundId = await succeededRound(host, f, 'waiting');
    const { blocks } = await host.views.view(roundId);
    expect(text(blocks!)).toContain('Not evaluated yet (score its held-out benchmark run with trainer_evaluate_round)');
    expect(ofType(blocks!, 'frame')).toEqual([]);
    expect(ofType(blocks!, 'image')).toHaveLength(1);
  });

  test('a dataset shows each filter\'s counts by reason, the drops, token share with its warning, and a multiplier field per group that commits set_multiplier', async () => {
    // Kept: a short and a much longer answer (so the longest hold most tokens); dropped: a failed rubric, an unknown tool.
    const long = `The port is 4242. ${'It is set in the billing settings and the service listens there. '.repeat(8)}`;
    writeRunFolder(join(host.dir, 'runs', 'mixed'), [
      record('t-short', readAndAnswer('Read res_1 and tell me its port.', 'The port is 4242.')),
      record('t-long', readAndAnswer('Read res_2 and say which port it gives.', long)),
      record('t-failed', readAndAnswer('Read res_3 and tell me the port.', 'No idea.'), { pass: false }),
      record('t-unknown', readAndAnswer('Read res_4 and report the port.', 'It is 4242.', '{"resourceId":"res_4"}', 'no_such_tool')),
    ]);
    const datasetId = ((await callTool(host, 'trainer_collect', { runs: ['runs/mixed'], group: 'fresh' })).content as Obj).datasetId as string;
    const collected = await host.views.view(datasetId);
    expect(text(collected.blocks!)).toContain('Stage: collected. Its pool holds');
    expect(text(collected.blocks!)).toContain('Not filtered yet.');
    expect(controlLabels(collected.blocks!)).toEqual(['Multiplier of group fresh']);

    expect((await callTool(host, 'trainer_filter', { datasetId })).isError).toBeUndefined();
    const { blocks, revision } = await host.views.view(datasetId);
    expect(text(blocks!)).toContain('Stage: filtered.');
    expect(table(blocks!, 'Sources').rows[0]).toEqual(['Sources', '4 run record(s)']);
    const filters = table(blocks!, 'Filter');
    expect(filters.header).toEqual(['Filter', 'In', 'Kept', 'Dropped', 'Dropped by reason']);
    expect(filters.rows).toEqual([
      ['validity', '4', '3', '1', 'unknown_tool 1'],
      ['rubric', '3', '2', '1', 'rubric_failed 1'],
      ['history', '2', '2', '0', '—'],
      ['heldout_similarity', '2', '2', '0', '—'],
    ]);
    const drops = ofType(blocks!, 'table').find((t) => t.header?.[1] === 'Reason')!;
    expect(drops.rows.map((r) => [r[0], r[1]])).toEqual([['validity', 'unknown_tool'], ['rubric', 'rubric_failed']]);
    const share = table(blocks!, 'Tokenizer');
    expect(share.rows).toHaveLength(2);
    expect(share.rows.every((r) => r[2] === '1 of 2')).toBe(true);
    expect(text(blocks!)).toMatch(/Warning \([^)]+\): 1 of 2 trajectories \(50\.0%\) hold \d+\.\d% of the supervised tokens/);
    expect(text(blocks!)).toContain('Group fresh: 2 kept trajectories (multiplier not set: 1x)');

    const multiplier = ofType(blocks!, 'field')[0]!;
    expect(multiplier).toMatchObject({ label: 'Multiplier of group fresh', value: 1, min: 0, max: 1000, op: { type: 'set_multiplier', group: 'fresh' }, field: 'multiplier' });
    expect(await useControl(host, datasetId, 'Multiplier of group fresh', 24)).toBe(revision + 1);
    expect((await host.resources.history(datasetId)).at(-1)!.op).toEqual({ type: 'set_multiplier', group: 'fresh', multiplier: 24 });
    const after = await host.views.view(datasetId);
    expect(ofType(after.blocks!, 'field')[0]!.value).toBe(24);
    expect(text(after.blocks!)).toContain('Group fresh: 2 kept trajectories.');
    // Past the kind's range: refused on the page's path, nothing written.
    expect((await failure(useControl(host, datasetId, 'Multiplier of group fresh', 5000))).code).toBe('invalid_op');
    expect((await host.resources.get(datasetId)).revision).toBe(revision + 1);
  });

  test('an empty dataset says what to do next, and a checkpoint shows its identity and lineage read-only', async () => {
    const empty = await host.resources.create({ kind: 'trainer.dataset', operator: PERSON });
    const emptyView = (await host.views.view(empty.id)).blocks!;
    expect(text(emptyView)).toContain('Stage: empty. Collect run records into it (trainer_collect).');
    expect(controlLabels(emptyView)).toEqual([]);

    const { blocks } = await host.views.view(f.checkpoint.id);
    expect(controlLabels(blocks!)).toEqual([]);
    expect(table(blocks!, 'Hash').rows).toEqual([
      ['Hash', `sha256 ${f.checkpoint.hash}`],
      ['File', `trainer/checkpoints/${f.checkpoint.hash}.pt`],
      ['Parent', 'base (a fresh initialisation from the seed)'],
      ['Round', '—'],
      ['Data', expect.stringMatching(new RegExp(`^dataset ${f.datasetId}@${f.datasetRevision}, data sha256 [0-9a-f]{64}$`))],
      ['Steps', '40'],
      ['Tokenizer', 'bytes, vocabulary 256'],
    ]);
    expect(table(blocks!, 'Setting').rows).toEqual([['layers', '4'], ['d', '128']]);
  });
});
