// Invariant: a deck's view passes the host's view schema with a group per slide (selecting the
// slide by id) and a unique label on every control, and each control, used as the page uses it
// (the edited value put at the field's `field`, committed on the revision shown), changes exactly
// its part of the deck through a real host; a value the kind's checks refuse (an empty title,
// bullets nested too deep) is answered with `invalid_op` saying what to do, and nothing is written.
import { isCoworkError } from '@cowork/host';
import { controlLabels, fieldKeys, openTempHost, useControl, type TempHost } from '@cowork/host/testkit';
import { plugin, type Presentation } from '../src';
import { deck } from './deck';

describe('office.presentation view', () => {
  let host: TempHost;
  let id: string;

  beforeEach(async () => {
    host = await openTempHost({ plugins: [plugin], prefix: 'cowork-office-view-' });
    id = (await host.resources.create({ kind: 'office.presentation', content: deck(), operator: 'human:ann' })).id;
  });

  afterEach(() => host.dispose());

  const content = async (): Promise<Presentation> => (await host.resources.get(id)).content as Presentation;

  it('shows one group per slide with its picture, title, bullets, notes and buttons, every label unique', async () => {
    const view = await host.views.view(id);
    const groups = (view.blocks ?? []).filter((block) => block.type === 'group');
    expect(groups.map((group) => [group.title, group.selection])).toEqual([
      ['Slide 1: Welcome', { slideId: 'intro' }],
      ['Slide 2: The numbers', { slideId: 'numbers' }],
      ['Slide 3: Next steps', { slideId: 'next' }],
    ]);
    expect(groups[1]!.blocks).toEqual([
      { type: 'image', url: `/api/resources/${id}/export/slide-2?revision=0`, alt: 'Slide 2 as rendered' },
      { type: 'field', label: 'Slide 2 title', key: 'slide numbers title', value: 'The numbers', op: { type: 'edit_title', slideId: 'numbers' }, field: 'title', input: 'text' },
      { type: 'field', label: 'Slide 2 bullets', key: 'slide numbers bullets', value: ['Revenue up', '  in Europe'], op: { type: 'set_bullet_lines', slideId: 'numbers' }, field: 'lines', input: 'lines' },
      { type: 'field', label: 'Slide 2 notes', key: 'slide numbers notes', value: '', op: { type: 'set_notes', slideId: 'numbers' }, field: 'notes', input: 'textarea' },
      { type: 'action', label: 'Move slide 2 up', op: { type: 'move_slide', slideId: 'numbers', to: 0 } },
      { type: 'action', label: 'Move slide 2 down', op: { type: 'move_slide', slideId: 'numbers', to: 2 } },
      { type: 'action', label: 'Delete slide 2', op: { type: 'delete_slide', slideId: 'numbers' } },
    ]);
    const labels = controlLabels(view.blocks ?? []);
    expect(new Set(labels).size).toBe(labels.length);
    // The title, bullets and notes of each slide, each by its own key.
    const keys = fieldKeys(view.blocks ?? []);
    expect([keys.length, new Set(keys).size]).toEqual([9, 9]);
    expect(labels).toEqual(expect.arrayContaining(['Deck title', 'Add slide', 'New slide title', 'Move slide 1 down', 'Move slide 3 up']));
    expect(labels).not.toContain('Move slide 1 up');
  });

  it('commits each control as the page does and the deck changes accordingly', async () => {
    await useControl(host, id, 'Deck title', 'Q3 review');
    await useControl(host, id, 'Slide 2 title', 'Figures');
    await useControl(host, id, 'Slide 2 bullets', ['Revenue up 12%', '  in Europe', '', 'Costs flat']);
    await useControl(host, id, 'Slide 3 notes', 'Thank the team');
    await useControl(host, id, 'Add slide', { title: 'Risks' });
    await useControl(host, id, 'Move slide 4 up');
    await useControl(host, id, 'Delete slide 1');
    const last = await useControl(host, id, 'Move slide 1 down');
    expect(last).toBe(8);
    const after = await content();
    expect(after.title).toBe('Q3 review');
    expect(after.slides.map((s) => [s.id, s.title])).toEqual([
      ['slide-1', 'Risks'],
      ['numbers', 'Figures'],
      ['next', 'Next steps'],
    ]);
    expect(after.slides[1]!.bullets).toEqual([
      { text: 'Revenue up 12%', level: 0 },
      { text: 'in Europe', level: 1 },
      { text: 'Costs flat', level: 0 },
    ]);
    expect(after.slides[2]!.notes).toBe('Thank the team');
    expect(after.slides[0]).toEqual({ id: 'slide-1', layout: 'title_and_bullets', title: 'Risks', bullets: [], notes: '' });
  });

  it.each<[string, string, unknown, RegExp]>([
    ['an empty slide title', 'Slide 2 title', '   ', /the title is empty, and a title_and_bullets slide shows its title; give it a title/],
    ['a new slide without a title', 'Add slide', { title: '' }, /the title is empty/],
    ['bullets indented two levels at once', 'Slide 2 bullets', ['Revenue', '    in Europe'], /bullet 1 has level 2 but may be at most 1/],
    ['bullets nested past the deepest level', 'Slide 2 bullets', ['a', '  b', '    c', '      d', '        e', '          f'], /nest at most 4 levels deep/],
  ])('refuses %s with the reason and writes nothing', async (_name, label, value, message) => {
    const error = await useControl(host, id, label, value as never).catch((e: unknown) => e);
    expect(isCoworkError(error) && [error.code, error.message]).toEqual(['invalid_op', expect.stringMatching(message)]);
    const now = await host.resources.get(id);
    expect([now.revision, now.content]).toEqual([0, deck()]);
  });
});
