// Invariant: through a real Host, ops on different slides made from the same base both land: the
// second commit gets `revision_conflict`, its op is kept as a candidate, and accepting it on the new
// base keeps both changes. The plugin passes every loader check, and diff and summary speak per slide
// (the view: presentation-view.test.ts).
// An image over the limit (5.5 MB, or 50 MB, past the host's op size) is refused with a message that
// says the size and what to do, and nothing is written; a 20-slide summary stays compact.
import { isCoworkError } from '@cowork/host';
import { PluginRegistry } from '@cowork/host/embed';
import { openTempHost, type TempHost } from '@cowork/host/testkit';
import { plugin } from '../src';
import type { Presentation } from '../src';
import { deck, pngDataUri, richDeck, slide } from './deck';
import { sampleDocument } from './document-fixtures';

describe('office plugin in a host', () => {
  let host: TempHost;

  beforeEach(async () => {
    host = await openTempHost({ plugins: [plugin], prefix: 'cowork-office-' });
  });

  afterEach(() => host.dispose());

  it('passes the loader checks', () => {
    expect(new PluginRegistry().check(plugin)).toEqual([]);
    expect(host.pluginProblems).toEqual([]);
    expect(host.registry.kinds().map((k) => k.kind.name)).toContain('office.presentation');
  });

  it('keeps both a person editing slide 2 and an agent adding slide 4 from the same base', async () => {
    const r = await host.resources.create({ kind: 'office.presentation', content: deck(), operator: 'human:ann' });
    const base = r.revision;
    await host.resources.commit(r.id, { baseRevision: base, op: { type: 'edit_title', slideId: 'numbers', title: 'Figures' }, operator: 'human:ann' });

    let conflict: unknown;
    try {
      await host.resources.commit(r.id, { baseRevision: base, op: { type: 'add_slide', slide: slide('risks', 'Risks') }, operator: 'agent:a1' });
    } catch (error) {
      conflict = error;
    }
    if (!isCoworkError(conflict)) throw new Error('expected a revision_conflict');
    expect(conflict.code).toBe('revision_conflict');
    const { candidateId, currentRevision } = conflict.details as { candidateId: string; currentRevision: number };

    await host.resources.acceptCandidate(candidateId, { operator: 'agent:a1', baseRevision: currentRevision });
    const content = (await host.resources.get(r.id)).content as ReturnType<typeof deck>;
    expect(content.slides.map((s) => [s.id, s.title])).toEqual([
      ['intro', 'Welcome'],
      ['numbers', 'Figures'],
      ['next', 'Next steps'],
      ['risks', 'Risks'],
    ]);
    const diff = await host.resources.diff(r.id, base, currentRevision + 1);
    expect(diff).toContain('slide 2 [numbers]: title "The numbers" → "Figures"');
    expect(diff).toContain('added slide 4 [risks] "Risks"');
  });

  it('refuses an op on a missing slide as invalid_op, and a content that breaks the schema', async () => {
    const r = await host.resources.create({ kind: 'office.presentation', operator: 'human:ann' });
    const codes: unknown[] = [];
    for (const attempt of [
      () => host.resources.commit(r.id, { baseRevision: 0, op: { type: 'delete_slide', slideId: 'ghost' }, operator: 'human:ann' }),
      () => host.resources.commit(r.id, { baseRevision: 0, op: { type: 'add_slide', slide: { id: 'x', title: 'no layout' } }, operator: 'human:ann' }),
      () => host.resources.create({ kind: 'office.presentation', content: { title: 't', slides: [{ id: 'x' }] }, operator: 'human:ann' }),
    ]) {
      await attempt().then(
        () => codes.push('ok'),
        (error: unknown) => codes.push(isCoworkError(error) ? error.code : error),
      );
    }
    expect(codes).toEqual(['invalid_op', 'invalid_op', expect.stringMatching(/^invalid_/)]);
  });

  it('summarizes a deck slide by slide', async () => {
    const r = await host.resources.create({ kind: 'office.presentation', content: deck(), operator: 'human:ann' });
    const summary = await host.resources.summarize(r.id);
    expect(summary).toContain('3 slides');
    expect(summary).toContain('2. [numbers] "The numbers"');
  });

  it.each<[string, number, string, RegExp]>([
    ['5.5 MB', 5.5, 'invalid_op', /image is 5\.5 MB but at most 5\.0 MB is allowed; scale the image down/],
    ['50 MB', 50, 'content_too_large', /\(66\.7 MB\), over the limit of 8388608 \(8\.0 MB\); scale down or compress the file/],
  ])('refuses a %s image and writes nothing', async (_name, megabytes, code, message) => {
    const r = await host.resources.create({ kind: 'office.presentation', content: deck(), operator: 'human:ann' });
    const src = `data:image/png;base64,${'A'.repeat(Math.ceil((megabytes * 1024 * 1024) / 3) * 4)}`;
    let error: unknown;
    try {
      await host.resources.commit(r.id, { baseRevision: r.revision, op: { type: 'add_element', slideId: 'next', element: { id: 'photo', type: 'image', image: { src, alt: 'photo' } } }, operator: 'agent:a1' });
    } catch (caught) {
      error = caught;
    }
    expect(isCoworkError(error) && [error.code, error.message]).toEqual([code, expect.stringMatching(message)]);
    const after = await host.resources.get(r.id);
    expect(after.revision).toBe(r.revision);
    expect(after.content).toEqual(deck());
  });

  it('adds a real image, and summarizes and diffs elements compactly', async () => {
    const r = await host.resources.create({ kind: 'office.presentation', content: deck(), operator: 'human:ann' });
    const { revision } = await host.resources.commit(r.id, {
      baseRevision: r.revision,
      op: { type: 'add_element', slideId: 'next', element: { id: 'logo', type: 'image', image: { src: pngDataUri(), alt: 'Company logo' } } },
      operator: 'agent:a1',
    });
    expect(await host.resources.diff(r.id, r.revision, revision)).toBe('slide 3 [next]: added image logo "Company logo"');
    expect(await host.resources.summarize(r.id)).toContain('3. [next] "Next steps" (title_and_bullets, image logo "Company logo", notes)');

    const big: Presentation = { title: 'Big', slides: Array.from({ length: 4 }, () => richDeck().slides).flat().map((s, i) => ({ ...s, id: `${s.id}-${i}` })) };
    const summary = await host.resources.summarize((await host.resources.create({ kind: 'office.presentation', content: big, operator: 'human:ann' })).id);
    expect(big.slides).toHaveLength(20);
    expect(summary.length).toBeLessThan(2500);
    expect(summary).not.toContain('base64');
  });

  it('refuses a created deck or document whose ids repeat or whose parts break their rules, creating nothing', async () => {
    const repeated = { ...deck(), slides: [slide('a', 'One'), slide('a', 'Two')] };
    const ragged = { ...sampleDocument(), blocks: [{ id: 't', type: 'table', table: { header: false, rows: [['a', 'b'], ['c']] } }] };
    const errors = [];
    for (const [kind, content] of [['office.presentation', repeated], ['office.document', ragged]] as const) {
      errors.push(await host.resources.create({ kind, content, operator: 'human:ann' }).catch((error: unknown) => error));
    }
    expect(errors).toEqual([
      expect.objectContaining({ code: 'invalid_content', message: expect.stringContaining('two slides have id "a"') }),
      expect.objectContaining({ code: 'invalid_content', message: expect.stringContaining('block "t": ') }),
    ]);
    expect(await host.resources.list({ kind: 'office.document' })).toEqual([]);
    expect(await host.resources.list({ kind: 'office.presentation' })).toEqual([]);
  });

  it('refuses a bullet or cell op accepted on a newer revision when another item has taken its place (was)', async () => {
    const r = await host.resources.create({ kind: 'office.presentation', content: deck(), operator: 'human:ann' });
    // The agent reads bullet 0 of "numbers" and edits it; meanwhile a person puts a bullet in front.
    const edit = { type: 'edit_bullet', slideId: 'numbers', index: 0, bullet: { text: 'Revenue up 12%', level: 0 }, was: 'Revenue up' };
    await host.resources.commit(r.id, { baseRevision: 0, op: { type: 'add_bullet', slideId: 'numbers', at: 0, bullet: { text: 'Costs flat', level: 0 } }, operator: 'human:ann' });
    const conflict = await host.resources.commit(r.id, { baseRevision: 0, op: edit, operator: 'agent:a1' }).catch((e: unknown) => e);
    if (!isCoworkError(conflict)) throw new Error('expected a revision_conflict');
    const accepted = await host.resources.acceptCandidate(String(conflict.details.candidateId), { operator: 'agent:a1', baseRevision: 1 }).catch((e: unknown) => e);
    expect(isCoworkError(accepted) && [accepted.code, accepted.message]).toEqual([
      'invalid_op',
      expect.stringContaining('bullet 0 of slide "numbers" now reads "Costs flat", not "Revenue up"'),
    ]);
    // On the bullet's new position the same edit applies.
    await host.resources.commit(r.id, { baseRevision: 1, op: { ...edit, index: 1 }, operator: 'agent:a1' });
    const bullets = ((await host.resources.get(r.id)).content as Presentation).slides[1]!.bullets.map((b) => b.text);
    expect(bullets).toEqual(['Costs flat', 'Revenue up 12%', 'in Europe']);

    const doc = await host.resources.create({ kind: 'office.document', content: { ...sampleDocument(), blocks: [{ id: 't', type: 'table', table: { header: true, rows: [['name', 'qty'], ['bolts', '4']] } }] }, operator: 'human:ann' });
    const cell = await host.resources.commit(doc.id, { baseRevision: 0, op: { type: 'set_cell', blockId: 't', row: 1, column: 1, text: '5', was: '3' }, operator: 'agent:a1' }).catch((e: unknown) => e);
    expect(isCoworkError(cell) && cell.code).toBe('invalid_op');
    expect((await host.resources.get(doc.id)).revision).toBe(0);
  });
});
