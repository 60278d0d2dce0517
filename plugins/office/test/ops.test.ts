// Invariant: every op either yields the expected deck without mutating its input, or is refused
// with `invalid_op` (a slide id that does not exist, an index out of range, a duplicate id, bullets
// a layout cannot show); content-free checks (bullet nesting) are caught by validateOp.
import { isCoworkError } from '@cowork/host';
import { applyPresentationOp, validatePresentationOp, type PresentationOp } from '../src/presentation/ops';
import { deck, slide } from './deck';

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
