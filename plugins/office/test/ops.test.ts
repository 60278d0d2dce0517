// Invariant: every op either yields the expected deck without mutating its input, or is refused
// with `invalid_op` (a slide or element id that does not exist, an index out of range, a duplicate
// id, bullets a layout cannot show) with a message that names what exists; content-free checks
// (bullet nesting, runs that do not spell the text, image bytes, table and chart shapes) are caught
// by validateOp.
import { isCoworkError } from '@cowork/host';
import type { Presentation } from '../src';
import { diffPresentations } from '../src/presentation/describe';
import { applyPresentationOp, validatePresentationOp, type PresentationOp } from '../src/presentation/ops';
import { MAX_IMAGE_BYTES } from '../src/shared/image';
import { deck, pngDataUri, slide } from './deck';

function refusal(start: Presentation, op: PresentationOp): string {
  try {
    applyPresentationOp(start, op);
  } catch (error) {
    if (isCoworkError(error) && error.code === 'invalid_op') return error.message;
    throw error;
  }
  throw new Error('expected invalid_op');
}

const ids = (ops: PresentationOp): string[] => applyPresentationOp(deck(), ops).slides.map((s) => s.id);

describe('office.presentation ops', () => {
  it.each<[string, PresentationOp, string[]]>([
    ['add_slide appends by default', { type: 'add_slide', slide: slide('end', 'End') }, ['intro', 'numbers', 'next', 'end']],
    ['add_slide at 0', { type: 'add_slide', at: 0, slide: slide('first', 'First') }, ['first', 'intro', 'numbers', 'next']],
    ['add_slide at the end index', { type: 'add_slide', at: 3, slide: slide('end', 'End') }, ['intro', 'numbers', 'next', 'end']],
    ['move_slide forward', { type: 'move_slide', slideId: 'intro', to: 2 }, ['numbers', 'next', 'intro']],
    ['move_slide back', { type: 'move_slide', slideId: 'next', to: 0 }, ['next', 'intro', 'numbers']],
    ['delete_slide', { type: 'delete_slide', slideId: 'numbers' }, ['intro', 'next']],
  ])('%s', (_name, op, expected) => {
    expect(ids(op)).toEqual(expected);
  });

  it.each<[string, PresentationOp, (d: ReturnType<typeof deck>) => unknown, unknown]>([
    ['edit_title', { type: 'edit_title', slideId: 'numbers', title: 'Figures' }, (d) => d.slides[1]?.title, 'Figures'],
    ['set_bullets', { type: 'set_bullets', slideId: 'next', bullets: [{ text: 'Ship', level: 0 }] }, (d) => d.slides[2]?.bullets, [{ text: 'Ship', level: 0 }]],
    ['set_notes', { type: 'set_notes', slideId: 'intro', notes: 'Smile' }, (d) => d.slides[0]?.notes, 'Smile'],
    ['set_deck_title', { type: 'set_deck_title', title: 'Q3' }, (d) => d.title, 'Q3'],
  ])('%s changes only its part', (_name, op, pick, expected) => {
    const before = deck();
    const after = applyPresentationOp(before, op);
    expect(pick(after)).toEqual(expected);
    expect(before).toEqual(deck());
  });

  it.each<[string, PresentationOp]>([
    ['edit_title of a missing slide', { type: 'edit_title', slideId: 'nope', title: 'x' }],
    ['set_bullets of a missing slide', { type: 'set_bullets', slideId: 'nope', bullets: [] }],
    ['set_notes of a missing slide', { type: 'set_notes', slideId: 'nope', notes: '' }],
    ['move_slide of a missing slide', { type: 'move_slide', slideId: 'nope', to: 0 }],
    ['delete_slide of a missing slide', { type: 'delete_slide', slideId: 'nope' }],
    ['move_slide past the last slide', { type: 'move_slide', slideId: 'intro', to: 4 }],
    ['add_slide past the end', { type: 'add_slide', at: 5, slide: slide('late', 'Late') }],
    ['add_slide with a taken id', { type: 'add_slide', slide: slide('intro', 'Again') }],
    ['bullets on a title_only slide', { type: 'set_bullets', slideId: 'blank', bullets: [{ text: 'x', level: 0 }] }],
  ])('rejects %s with invalid_op', (_name, op) => {
    const start = applyPresentationOp(deck(), { type: 'add_slide', slide: slide('blank', 'Blank', { layout: 'title_only' }) });
    let error: unknown;
    try {
      applyPresentationOp(start, op);
    } catch (caught) {
      error = caught;
    }
    expect(isCoworkError(error) && error.code).toBe('invalid_op');
  });

  it.each<[string, PresentationOp, number]>([
    ['a bullet two levels deeper than the one before', { type: 'set_bullets', slideId: 'a', bullets: [{ text: 'a', level: 0 }, { text: 'b', level: 2 }] }, 1],
    ['a first bullet that is indented', { type: 'set_bullets', slideId: 'a', bullets: [{ text: 'a', level: 1 }] }, 1],
    ['bullets on a new blank slide', { type: 'add_slide', slide: slide('b', 'B', { layout: 'blank', bullets: [{ text: 'x', level: 0 }] }) }, 1],
    ['well nested bullets', { type: 'set_bullets', slideId: 'a', bullets: [{ text: 'a', level: 0 }, { text: 'b', level: 1 }, { text: 'c', level: 0 }] }, 0],
  ])('validateOp: %s', (_name, op, problems) => {
    expect(validatePresentationOp(op)).toHaveLength(problems);
  });
});

describe('office.presentation fine-grained ops', () => {
  const table = { header: true, rows: [['a', 'b'], ['1', '2']] };
  const withTable = (): Presentation => applyPresentationOp(deck(), { type: 'add_element', slideId: 'next', element: { id: 't1', type: 'table', table } });

  it('adds, edits and deletes single bullets, keeping the others', () => {
    let d = applyPresentationOp(deck(), { type: 'add_bullet', slideId: 'numbers', at: 1, bullet: { text: 'Costs flat', level: 1 } });
    d = applyPresentationOp(d, { type: 'edit_bullet', slideId: 'numbers', index: 0, bullet: { text: 'Revenue up 12%', level: 0 } });
    d = applyPresentationOp(d, { type: 'delete_bullet', slideId: 'numbers', index: 2 });
    expect(d.slides[1]?.bullets).toEqual([{ text: 'Revenue up 12%', level: 0 }, { text: 'Costs flat', level: 1 }]);
  });

  it('restyles a character range of a bullet into runs, and the title as a whole', () => {
    let d = applyPresentationOp(deck(), { type: 'restyle', slideId: 'numbers', target: { bullet: 0, from: 8, to: 10 }, style: { bold: true, color: 'c00000' } });
    d = applyPresentationOp(d, { type: 'restyle', slideId: 'numbers', target: { bullet: 0 }, style: { italic: true } });
    d = applyPresentationOp(d, { type: 'restyle', slideId: 'numbers', target: 'title', style: { size: 40 } });
    expect(d.slides[1]?.bullets[0]).toEqual({
      text: 'Revenue up',
      level: 0,
      runs: [{ text: 'Revenue ', italic: true }, { text: 'up', bold: true, italic: true, color: 'C00000' }],
    });
    expect(d.slides[1]?.titleStyle).toEqual({ size: 40 });
    expect(validatePresentationOp({ type: 'set_bullets', slideId: 'numbers', bullets: d.slides[1]!.bullets })).toEqual([]);
  });

  it('adds, replaces and deletes elements by id', () => {
    const chart = { type: 'bar' as const, labels: ['Q1', 'Q2'], series: [{ name: 'Sales', values: [3, 4] }] };
    let d = withTable();
    d = applyPresentationOp(d, { type: 'add_element', slideId: 'next', at: 0, element: { id: 'c1', type: 'chart', chart } });
    d = applyPresentationOp(d, { type: 'replace_element', slideId: 'next', element: { id: 't1', type: 'table', table: { header: false, rows: [['x']] } } });
    expect(d.slides[2]?.elements?.map((e) => e.id)).toEqual(['c1', 't1']);
    expect(d.slides[2]?.elements?.[1]).toEqual({ id: 't1', type: 'table', table: { header: false, rows: [['x']] } });
    d = applyPresentationOp(d, { type: 'delete_element', slideId: 'next', elementId: 'c1' });
    expect(d.slides[2]?.elements?.map((e) => e.id)).toEqual(['t1']);
    expect(d.slides[0]).toEqual(deck().slides[0]);
  });

  it('says which slides exist when an op names a missing one', () => {
    expect(refusal(deck(), { type: 'add_bullet', slideId: 'slide-9', bullet: { text: 'x', level: 0 } })).toBe(
      'no slide with id "slide-9"; the deck has slides intro, numbers, next',
    );
    expect(refusal(withTable(), { type: 'delete_element', slideId: 'next', elementId: 'nope' })).toContain('it has elements t1');
  });

  it.each<[string, PresentationOp, string]>([
    ['a bullet index past the end', { type: 'edit_bullet', slideId: 'numbers', index: 2, bullet: { text: 'x', level: 0 } }, 'there is no bullet 2'],
    ['a delete that leaves a bullet two levels deeper', { type: 'delete_bullet', slideId: 'numbers', index: 0 }, 'may be at most 0'],
    ['a restyle range past the text', { type: 'restyle', slideId: 'numbers', target: { bullet: 0, from: 5, to: 99 }, style: { bold: true } }, 'has 10 characters'],
    ['an element id taken on that slide', { type: 'add_element', slideId: 'next', element: { id: 't1', type: 'table', table } }, 'replace_element'],
    ['a layout with no place for the bullets', { type: 'set_layout', slideId: 'numbers', layout: 'blank' }, 'shows none'],
  ])('refuses %s', (_name, op, message) => {
    expect(refusal(withTable(), op)).toContain(message);
  });

  it.each<[string, PresentationOp, RegExp]>([
    ['runs that do not spell the text', { type: 'edit_bullet', slideId: 'a', index: 0, bullet: { text: 'ab', level: 0, runs: [{ text: 'a' }] } }, /runs spell "a" but its text is "ab"/],
    ['an image that is not a data URI', { type: 'add_element', slideId: 'a', element: { id: 'i', type: 'image', image: { src: 'data:nope', alt: '' } } }, /base64 data URI/],
    ['an svg image', { type: 'add_element', slideId: 'a', element: { id: 'i', type: 'image', image: { src: 'data:image/svg+xml;base64,PHN2Zz4=', alt: '' } } }, /image\/svg\+xml is not supported/],
    ['a table with a short row', { type: 'add_element', slideId: 'a', element: { id: 't', type: 'table', table: { header: false, rows: [['a', 'b'], ['c']] } } }, /row 1 has 1 cells but row 0 has 2/],
    ['a series shorter than the labels', { type: 'add_element', slideId: 'a', element: { id: 'c', type: 'chart', chart: { type: 'line', labels: ['a', 'b'], series: [{ name: 's', values: [1] }] } } }, /has 1 values but there are 2 labels/],
    ['a pie of two series', { type: 'add_element', slideId: 'a', element: { id: 'c', type: 'chart', chart: { type: 'pie', labels: ['a'], series: [{ name: 's', values: [1] }, { name: 't', values: [2] }] } } }, /exactly one series/],
    ['an empty restyle range', { type: 'restyle', slideId: 'a', target: { bullet: 0, from: 3, to: 3 }, style: { bold: true } }, /is empty/],
  ])('validateOp refuses %s', (_name, op, message) => {
    expect(validatePresentationOp(op).join('; ')).toMatch(message);
  });

  it('validateOp accepts a real png and refuses one over the limit with its size, the limit and what to do', () => {
    expect(validatePresentationOp({ type: 'add_element', slideId: 'a', element: { id: 'i', type: 'image', image: { src: pngDataUri(), alt: 'logo' } } })).toEqual([]);
    const big = `data:image/png;base64,${'A'.repeat(Math.ceil(((MAX_IMAGE_BYTES + 1024 * 1024) * 4) / 3 / 4) * 4)}`;
    expect(validatePresentationOp({ type: 'add_element', slideId: 'a', element: { id: 'i', type: 'image', image: { src: big, alt: '' } } })).toEqual([
      'element "i": image is 6.0 MB but at most 5.0 MB is allowed; scale the image down or compress it and try again',
    ]);
  });

  it('diffs a slide moved to the top as that one move, not as every slide it passed', () => {
    const moved = applyPresentationOp(deck(), { type: 'move_slide', slideId: 'next', to: 0 });
    expect(diffPresentations(deck(), moved)).toBe('slide 1 [next]: moved from position 3');
  });
});

describe('office.presentation ops the page commits', () => {
  it('new_slide adds an empty slide with the title and the first free id, at the end or where told', () => {
    let d = applyPresentationOp(deck(), { type: 'add_slide', slide: slide('slide-1', 'Taken') });
    d = applyPresentationOp(d, { type: 'new_slide', title: 'Risks' });
    d = applyPresentationOp(d, { type: 'new_slide', title: 'Agenda', at: 0, layout: 'title_only' });
    expect(d.slides.map((s) => [s.id, s.title, s.layout])).toEqual([
      ['slide-3', 'Agenda', 'title_only'],
      ['intro', 'Welcome', 'title'],
      ['numbers', 'The numbers', 'title_and_bullets'],
      ['next', 'Next steps', 'title_and_bullets'],
      ['slide-1', 'Taken', 'title_and_bullets'],
      ['slide-2', 'Risks', 'title_and_bullets'],
    ]);
    expect(refusal(deck(), { type: 'new_slide', title: 'Late', at: 9 })).toContain('past the end of the deck (3 slides)');
  });

  it('set_bullet_lines reads levels from the indent and keeps the styles of a line that stayed at its level', () => {
    const styled = applyPresentationOp(deck(), { type: 'restyle', slideId: 'numbers', target: { bullet: 0, from: 8, to: 10 }, style: { bold: true } });
    const d = applyPresentationOp(styled, { type: 'set_bullet_lines', slideId: 'numbers', lines: ['Revenue up 12%', '\tin Europe', '  ', '  and Asia'] });
    expect(d.slides[1]?.bullets).toEqual([
      { text: 'Revenue up 12%', level: 0, runs: [{ text: 'Revenue ' }, { text: 'up 12%', bold: true }] },
      { text: 'in Europe', level: 1 },
      { text: 'and Asia', level: 1 },
    ]);
  });

  it('edit_title refuses an empty title where the layout shows one, and allows it on a blank slide', () => {
    expect(refusal(deck(), { type: 'edit_title', slideId: 'intro', title: '' })).toBe(
      'slide "intro": the title is empty, and a title slide shows its title; give it a title (or set_layout blank for a slide without one)',
    );
    const blank = applyPresentationOp(deck(), { type: 'add_slide', slide: slide('pic', 'Picture', { layout: 'blank' }) });
    expect(applyPresentationOp(blank, { type: 'edit_title', slideId: 'pic', title: '' }).slides[3]?.title).toBe('');
    expect(validatePresentationOp({ type: 'new_slide', title: ' ' })).toEqual([expect.stringContaining('the title is empty')]);
  });
});
