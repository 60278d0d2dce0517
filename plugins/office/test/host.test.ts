// Invariant: through a real Host, ops on different slides made from the same base both land: the
// second commit gets `revision_conflict`, its op is kept as a candidate, and accepting it on the new
// base keeps both changes. The plugin passes every loader check, and diff and view speak per slide.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Host, PluginRegistry, isCoworkError } from '@cowork/host';
import { plugin } from '../src';
import { deck, slide } from './deck';

describe('office plugin in a host', () => {
  let dir: string;
  let host: Host;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cowork-office-'));
    host = await Host.open({ workspaceDir: dir, plugins: [plugin] });
  });

  afterEach(async () => {
    await host.close();
    rmSync(dir, { recursive: true, force: true });
  });

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

  it('summarizes and views a deck slide by slide', async () => {
    const r = await host.resources.create({ kind: 'office.presentation', content: deck(), operator: 'human:ann' });
    const summary = await host.resources.summarize(r.id);
    expect(summary).toContain('3 slides');
    expect(summary).toContain('2. [numbers] "The numbers"');
    const view = await host.views.view(r.id);
    expect(view.blocks).toEqual([
      { type: 'heading', text: 'Quarterly review', level: 1 },
      { type: 'heading', text: '1. Welcome', level: 2 },
      { type: 'heading', text: '2. The numbers', level: 2 },
      { type: 'list', items: ['Revenue up', '  in Europe'] },
      { type: 'heading', text: '3. Next steps', level: 2 },
      { type: 'paragraph', text: 'Notes: Keep it short' },
    ]);
  });
});
