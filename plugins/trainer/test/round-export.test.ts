// The round report as an export of trainer.round (`html`), through the host's export service as the
// page's frame and `cowork resources export` reach it: the same page trainer_evaluate_round writes
// as a file, rendered from the round's revision, its dataset at the recorded revision and its
// checkpoint; refused with a coded error for a round not evaluated and for references that do not
// resolve. And the loss curve alone (`loss-svg`), the view's picture.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Json } from '@cowork/host';
import type { TempHost } from '@cowork/host/testkit';
import { failure, PERSON, trainerHost } from './support';
import { evaluatedRound, fixture, succeededRound, type Fixture } from './round-fixture';

type Obj = Record<string, Json>;
const utf8 = (data: Uint8Array) => Buffer.from(data).toString('utf8');

describe('trainer.round exports', () => {
  let host: TempHost;
  let f: Fixture;
  const passes = { 'read-value-heldout-2-0': [true, false], 'commit-line-heldout-2-0': [false] };
  beforeAll(async () => {
    host = await trainerHost();
    f = await fixture(host);
  });
  afterAll(async () => {
    await host.dispose();
  });

  test('the kind exports html and loss-svg', async () => {
    const roundId = await succeededRound(host, f, 'formats');
    expect((await host.exports.formats(roundId)).map((x) => [x.format, x.mediaType, x.extension])).toEqual([
      ['html', 'text/html; charset=utf-8', 'html'],
      ['loss-svg', 'image/svg+xml', 'svg'],
    ]);
  });

  test("an evaluated round's html export is the report file trainer_evaluate_round wrote, and follows the round's later revisions", async () => {
    const roundId = await evaluatedRound(host, f, 'round 0', passes);
    const round = await host.resources.get(roundId);
    const file = readFileSync(join(host.dir, (round.content as Obj).report as string), 'utf8');
    const exported = await host.exports.export(roundId, 'html');
    expect(exported).toMatchObject({ mediaType: 'text/html; charset=utf-8', fileName: `${roundId}-r${round.revision}.html`, revision: round.revision });
    expect(utf8(exported.data)).toBe(file);
    for (const part of ['<h1>Training round: round 0</h1>', f.checkpoint.hash, `Dataset <code>${f.datasetId}</code> at revision ${f.datasetRevision}`, '1/2', '<svg']) expect(utf8(exported.data)).toContain(part);

    // A later revision of the dataset (a multiplier changed after training) is not what the round trained on: the report keeps the recorded one.
    const dataset = await host.resources.get(f.datasetId);
    await host.resources.commit(f.datasetId, { baseRevision: dataset.revision, op: { type: 'set_multiplier', group: 'new', multiplier: 7 }, operator: PERSON });
    expect(utf8((await host.exports.export(roundId, 'html')).data)).toBe(file);
    // A rename is a new revision of the round, and its report says so; the old revision's export is still the file.
    await host.resources.commit(roundId, { baseRevision: round.revision, op: { type: 'rename', name: 'round zero' }, operator: PERSON });
    expect(utf8((await host.exports.export(roundId, 'html')).data)).toContain('<h1>Training round: round zero</h1>');
    expect(utf8((await host.exports.export(roundId, 'html', { revision: round.revision })).data)).toBe(file);
  });

  test('bad input: a round not evaluated (a draft, a succeeded one, an evaluated one at its revision before the evaluation) is refused with not_evaluated', async () => {
    const draft = await host.resources.create({ kind: 'trainer.round', operator: PERSON });
    const refused = await failure(host.exports.export(draft.id, 'html'));
    expect(refused).toMatchObject({ code: 'invalid_input', details: { reason: 'not_evaluated', resourceId: draft.id, revision: 0, status: 'draft', plugin: 'trainer' } });
    expect(refused.message).toBe(`the round ${draft.id} at revision 0 is draft and has no evaluation: its report is made by trainer_evaluate_round once its checkpoint is scored`);
    const succeeded = await succeededRound(host, f, 'not scored');
    expect((await failure(host.exports.export(succeeded, 'html'))).details.reason).toBe('not_evaluated');
    const evaluated = await evaluatedRound(host, f, 'scored', passes);
    const { revision } = await host.resources.get(evaluated);
    expect((await failure(host.exports.export(evaluated, 'html', { revision: revision - 1 }))).details.reason).toBe('not_evaluated');
    expect((await host.exports.export(evaluated, 'html', { revision })).revision).toBe(revision);
  });

  test('bad input: a recorded checkpoint that does not exist or is another kind is a coded error naming it', async () => {
    const evaluated = await host.resources.get(await evaluatedRound(host, f, 'source', passes));
    const withCheckpoint = async (id: string) => {
      const content = { ...(evaluated.content as Obj), checkpoint: { id, hash: f.checkpoint.hash } };
      return (await host.resources.create({ kind: 'trainer.round', operator: PERSON, content })).id;
    };
    const missing = await failure(host.exports.export(await withCheckpoint('res_missing'), 'html'));
    expect(missing).toMatchObject({ code: 'not_found', message: 'the checkpoint res_missing does not exist', details: { reason: 'missing_resource' } });
    const wrong = await failure(host.exports.export(await withCheckpoint(f.datasetId), 'html'));
    expect(wrong).toMatchObject({ code: 'invalid_input', message: `${f.datasetId} is a trainer.dataset, not a trainer.checkpoint`, details: { reason: 'wrong_kind' } });
  });

  test('loss-svg is a standalone SVG of the loss curve (namespace and style inside); a round without metrics gets a picture saying so', async () => {
    const roundId = await succeededRound(host, f, 'curve');
    const svg = utf8((await host.exports.export(roundId, 'loss-svg')).data);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" class="plot"')).toBe(true);
    expect(svg).toMatch(/^<svg [^>]*><style>\.plot text\{[^<]*\.plot \.line\{fill:none;[^<]*<\/style><text [^>]*class="plot-title">masked training loss by step<\/text>/);
    expect(svg).toContain('<path d="M');
    expect(svg.match(/<circle /g)).toHaveLength(7);
    expect(svg.endsWith('</svg>')).toBe(true);
    const draft = await host.resources.create({ kind: 'trainer.round', operator: PERSON });
    const empty = utf8((await host.exports.export(draft.id, 'loss-svg')).data);
    expect(empty).toContain('No metrics recorded yet.');
    expect(empty).toContain('xmlns="http://www.w3.org/2000/svg"');
  });
});
