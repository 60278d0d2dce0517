import { opShape, rejectOp } from '@cowork/host';
import { WAS_SCHEMA, checkWas } from '../shared/was-guard';
import { freshId } from '../shared/ids';
import { bulletsFromLines } from './bullet-lines';
import { restyleRuns, type RunStyle } from '../shared/runs';
import {
  BULLETS_SCHEMA,
  BULLET_SCHEMA,
  ELEMENT_ID_SCHEMA,
  ELEMENT_SCHEMA,
  RUN_STYLE_SCHEMA,
  SLIDE_ID_SCHEMA,
  SLIDE_LAYOUTS,
  SLIDE_SCHEMA,
  bulletProblems,
  elementProblems,
  showsBullets,
  slideProblems,
  type Bullet,
  type Presentation,
  type Slide,
  type SlideElement,
  type SlideLayout,
} from './content';

/** What a restyle op styles: the whole title, or characters [from, to) of one bullet (default all of it). */
export type RestyleTarget = 'title' | { bullet: number; from?: number; to?: number };

/**
 * Ops of `office.presentation`. Slides are addressed by their stable `id`, never by position, so
 * ops on different slides commute; positions appear only where an op is about position
 * (`add_slide.at`, `move_slide.to`, bullet indexes within one slide) and are checked against the
 * content the op lands on. Elements are addressed by slide id and element id.
 * - slides: `add_slide` (at 0..count, default the end; new id), `new_slide` (an empty slide with a
 *   title, the id picked unless given: what the page's "add slide" commits), `move_slide` (to index
 *   0..count-1), `delete_slide`, `set_layout`, `edit_title`, `set_notes`, `set_deck_title`;
 *   `new_slide` and `edit_title` refuse an empty title on a layout that shows one;
 * - bullets: `set_bullets` replaces the list, `set_bullet_lines` replaces it with lines as the page
 *   edits them (two spaces of indent per level, styles kept where a line stays), `add_bullet` /
 *   `edit_bullet` / `delete_bullet` touch one (give `was`, the bullet's text as you read it, so the op is refused if another bullet is there by then);
 * - `restyle` sets a run style on the title or on a character range of a bullet;
 * - elements: `add_element` (new id on that slide), `replace_element` (same id), `delete_element`.
 */
export type PresentationOp =
  | { type: 'add_slide'; at?: number; slide: Slide }
  | { type: 'new_slide'; title: string; at?: number; slideId?: string; layout?: SlideLayout }
  | { type: 'edit_title'; slideId: string; title: string }
  | { type: 'set_layout'; slideId: string; layout: SlideLayout }
  | { type: 'set_bullets'; slideId: string; bullets: Bullet[] }
  | { type: 'set_bullet_lines'; slideId: string; lines: string[] }
  | { type: 'add_bullet'; slideId: string; at?: number; bullet: Bullet }
  | { type: 'edit_bullet'; slideId: string; index: number; bullet: Bullet; was?: string }
  | { type: 'delete_bullet'; slideId: string; index: number; was?: string }
  | { type: 'restyle'; slideId: string; target: RestyleTarget; style: RunStyle }
  | { type: 'add_element'; slideId: string; at?: number; element: SlideElement }
  | { type: 'replace_element'; slideId: string; element: SlideElement }
  | { type: 'delete_element'; slideId: string; elementId: string }
  | { type: 'set_notes'; slideId: string; notes: string }
  | { type: 'move_slide'; slideId: string; to: number }
  | { type: 'delete_slide'; slideId: string }
  | { type: 'set_deck_title'; title: string };

const INDEX = { type: 'integer', minimum: 0 } as const;

const RESTYLE_TARGET_SCHEMA = {
  oneOf: [
    { const: 'title' },
    { type: 'object', properties: { bullet: INDEX, from: INDEX, to: INDEX }, required: ['bullet'], additionalProperties: false },
  ],
} as const;

export const PRESENTATION_OP_SCHEMA = {
  oneOf: [
    opShape('add_slide', { at: INDEX, slide: SLIDE_SCHEMA }, ['slide']),
    opShape('new_slide', { title: { type: 'string' }, at: INDEX, slideId: SLIDE_ID_SCHEMA, layout: { enum: [...SLIDE_LAYOUTS] } }, ['title']),
    opShape('edit_title', { slideId: SLIDE_ID_SCHEMA, title: { type: 'string' } }),
    opShape('set_layout', { slideId: SLIDE_ID_SCHEMA, layout: { enum: [...SLIDE_LAYOUTS] } }),
    opShape('set_bullets', { slideId: SLIDE_ID_SCHEMA, bullets: BULLETS_SCHEMA }),
    opShape('set_bullet_lines', { slideId: SLIDE_ID_SCHEMA, lines: { type: 'array', items: { type: 'string' } } }),
    opShape('add_bullet', { slideId: SLIDE_ID_SCHEMA, at: INDEX, bullet: BULLET_SCHEMA }, ['slideId', 'bullet']),
    opShape('edit_bullet', { slideId: SLIDE_ID_SCHEMA, index: INDEX, bullet: BULLET_SCHEMA, was: WAS_SCHEMA }, ['slideId', 'index', 'bullet']),
    opShape('delete_bullet', { slideId: SLIDE_ID_SCHEMA, index: INDEX, was: WAS_SCHEMA }, ['slideId', 'index']),
    opShape('restyle', { slideId: SLIDE_ID_SCHEMA, target: RESTYLE_TARGET_SCHEMA, style: RUN_STYLE_SCHEMA }),
    opShape('add_element', { slideId: SLIDE_ID_SCHEMA, at: INDEX, element: ELEMENT_SCHEMA }, ['slideId', 'element']),
    opShape('replace_element', { slideId: SLIDE_ID_SCHEMA, element: ELEMENT_SCHEMA }),
    opShape('delete_element', { slideId: SLIDE_ID_SCHEMA, elementId: ELEMENT_ID_SCHEMA }),
    opShape('set_notes', { slideId: SLIDE_ID_SCHEMA, notes: { type: 'string' } }),
    opShape('move_slide', { slideId: SLIDE_ID_SCHEMA, to: INDEX }),
    opShape('delete_slide', { slideId: SLIDE_ID_SCHEMA }),
    opShape('set_deck_title', { title: { type: 'string' } }),
  ],
} as const;

/** Checks that do not depend on the content: bullet nesting and runs, image bytes, table and chart shapes. */
export function validatePresentationOp(op: PresentationOp): string[] {
  switch (op.type) {
    case 'add_slide':
      return slideProblems(op.slide);
    case 'new_slide':
      return titleProblems(op.layout ?? 'title_and_bullets', op.title);
    case 'set_bullets':
      return bulletProblems(op.bullets);
    case 'add_bullet':
    case 'edit_bullet':
      // Nesting against the neighbours needs the content; applyOp checks it.
      return bulletProblems([op.bullet], op.bullet.level - 1);
    case 'add_element':
    case 'replace_element':
      return elementProblems(op.element);
    case 'restyle':
      return typeof op.target !== 'string' && op.target.from !== undefined && op.target.to !== undefined && op.target.from >= op.target.to
        ? [`restyle range from ${op.target.from} to ${op.target.to} is empty; "to" is exclusive and must be greater than "from"`]
        : [];
    default:
      return [];
  }
}

/** Applies an op without mutating `deck`; throws `rejectOp` when the op does not fit this deck. */
export function applyPresentationOp(deck: Presentation, op: PresentationOp): Presentation {
  switch (op.type) {
    case 'add_slide':
      return insertSlide(deck, op.slide, op.at);
    case 'new_slide': {
      const id = op.slideId ?? freshId('slide', deck.slides.map((s) => s.id));
      return insertSlide(deck, { id, layout: op.layout ?? 'title_and_bullets', title: op.title, bullets: [], notes: '' }, op.at);
    }
    case 'edit_title':
      return updateSlide(deck, op.slideId, (slide) => {
        const [problem] = titleProblems(slide.layout, op.title);
        if (problem) throw rejectOp(`slide ${JSON.stringify(slide.id)}: ${problem}`, { slideId: slide.id });
        return { ...slide, title: op.title };
      });
    case 'set_layout':
      return updateSlide(deck, op.slideId, (slide) => {
        if (slide.bullets.length > 0 && !showsBullets(op.layout)) {
          throw rejectOp(`slide ${JSON.stringify(slide.id)} has ${slide.bullets.length} bullets and layout ${op.layout} shows none; delete them first or use title_and_bullets or title`, { slideId: slide.id });
        }
        return { ...slide, layout: op.layout };
      });
    case 'set_bullets':
      return updateSlide(deck, op.slideId, (slide) => withBullets(slide, op.bullets));
    case 'set_bullet_lines':
      return updateSlide(deck, op.slideId, (slide) => withBullets(slide, bulletsFromLines(op.lines, slide.bullets)));
    case 'add_bullet':
      return updateSlide(deck, op.slideId, (slide) => {
        const at = op.at ?? slide.bullets.length;
        if (at > slide.bullets.length) throw rejectOp(`add_bullet at ${at} is past the end of slide ${JSON.stringify(slide.id)}'s ${slide.bullets.length} bullets`, { at });
        return withBullets(slide, [...slide.bullets.slice(0, at), op.bullet, ...slide.bullets.slice(at)]);
      });
    case 'edit_bullet':
      return updateSlide(deck, op.slideId, (slide) => {
        checkBulletIndex(slide, op.index, op.was);
        return withBullets(slide, slide.bullets.map((b, i) => (i === op.index ? op.bullet : b)));
      });
    case 'delete_bullet':
      return updateSlide(deck, op.slideId, (slide) => {
        checkBulletIndex(slide, op.index, op.was);
        return withBullets(slide, slide.bullets.filter((_, i) => i !== op.index));
      });
    case 'restyle':
      return updateSlide(deck, op.slideId, (slide) => restyle(slide, op.target, op.style));
    case 'add_element':
      return updateSlide(deck, op.slideId, (slide) => {
        const elements = slide.elements ?? [];
        const at = op.at ?? elements.length;
        if (at > elements.length) throw rejectOp(`add_element at ${at} is past the end of slide ${JSON.stringify(slide.id)}'s ${elements.length} elements`, { at });
        if (elements.some((e) => e.id === op.element.id)) {
          throw rejectOp(`slide ${JSON.stringify(slide.id)} already has an element with id ${JSON.stringify(op.element.id)}; pick a new id or use replace_element`, { elementId: op.element.id });
        }
        return { ...slide, elements: [...elements.slice(0, at), op.element, ...elements.slice(at)] };
      });
    case 'replace_element':
      return updateSlide(deck, op.slideId, (slide) => {
        const at = elementIndex(slide, op.element.id);
        return { ...slide, elements: (slide.elements ?? []).map((e, i) => (i === at ? op.element : e)) };
      });
    case 'delete_element':
      return updateSlide(deck, op.slideId, (slide) => {
        const at = elementIndex(slide, op.elementId);
        return { ...slide, elements: (slide.elements ?? []).filter((_, i) => i !== at) };
      });
    case 'set_notes':
      return updateSlide(deck, op.slideId, (slide) => ({ ...slide, notes: op.notes }));
    case 'move_slide': {
      const from = indexOf(deck, op.slideId);
      if (op.to >= deck.slides.length) throw rejectOp(`move_slide to ${op.to} is past the last slide (index ${deck.slides.length - 1})`, { to: op.to });
      const slides = [...deck.slides];
      const [moved] = slides.splice(from, 1);
      if (moved) slides.splice(op.to, 0, moved);
      return { ...deck, slides };
    }
    case 'delete_slide': {
      const at = indexOf(deck, op.slideId);
      return { ...deck, slides: deck.slides.filter((_, i) => i !== at) };
    }
    case 'set_deck_title':
      return { ...deck, title: op.title };
  }
}

function insertSlide(deck: Presentation, slide: Slide, at = deck.slides.length): Presentation {
  if (at > deck.slides.length) throw rejectOp(`a slide at ${at} is past the end of the deck (${deck.slides.length} slides)`, { at });
  if (deck.slides.some((s) => s.id === slide.id)) throw rejectOp(`a slide with id ${JSON.stringify(slide.id)} already exists`, { slideId: slide.id });
  const slides = [...deck.slides];
  slides.splice(at, 0, slide);
  return { ...deck, slides };
}

/** An empty title on a layout that shows one leaves an empty placeholder on the slide. */
function titleProblems(layout: SlideLayout, title: string): string[] {
  return layout !== 'blank' && title.trim() === '' ? [`the title is empty, and a ${layout} slide shows its title; give it a title (or set_layout blank for a slide without one)`] : [];
}

/** A slide with a new bullet list, refused when the layout shows no bullets or the nesting breaks. */
function withBullets(slide: Slide, bullets: Bullet[]): Slide {
  if (bullets.length > 0 && !showsBullets(slide.layout)) {
    throw rejectOp(`slide ${JSON.stringify(slide.id)} has layout ${slide.layout}, which shows no bullets; set_layout to title_and_bullets first`, { slideId: slide.id });
  }
  const problems = bulletProblems(bullets);
  if (problems.length > 0) throw rejectOp(`on slide ${JSON.stringify(slide.id)}: ${problems.join('; ')}`, { slideId: slide.id, problems });
  return { ...slide, bullets };
}

function restyle(slide: Slide, target: RestyleTarget, style: RunStyle): Slide {
  if (target === 'title') return { ...slide, titleStyle: { ...slide.titleStyle, ...style } };
  checkBulletIndex(slide, target.bullet);
  const bullet = slide.bullets[target.bullet]!;
  const from = target.from ?? 0;
  const to = target.to ?? bullet.text.length;
  if (to > bullet.text.length || from >= to) {
    throw rejectOp(`restyle range ${from}..${to} does not fit bullet ${target.bullet} of slide ${JSON.stringify(slide.id)}, which has ${bullet.text.length} characters`, { slideId: slide.id });
  }
  const runs = restyleRuns(bullet.runs ?? [{ text: bullet.text }], from, to, style);
  const restyled: Bullet = { text: bullet.text, level: bullet.level, runs };
  return { ...slide, bullets: slide.bullets.map((b, i) => (i === target.bullet ? restyled : b)) };
}

function checkBulletIndex(slide: Slide, index: number, was?: string): void {
  if (index >= slide.bullets.length) {
    throw rejectOp(`slide ${JSON.stringify(slide.id)} has ${slide.bullets.length} bullets (indexes 0..${slide.bullets.length - 1}); there is no bullet ${index}`, { slideId: slide.id, index });
  }
  checkWas(`bullet ${index} of slide ${JSON.stringify(slide.id)}`, slide.bullets[index]!.text, was);
}

function elementIndex(slide: Slide, elementId: string): number {
  const elements = slide.elements ?? [];
  const at = elements.findIndex((e) => e.id === elementId);
  if (at < 0) {
    const known = elements.length === 0 ? 'no elements' : `elements ${elements.map((e) => e.id).join(', ')}`;
    throw rejectOp(`slide ${JSON.stringify(slide.id)} has no element with id ${JSON.stringify(elementId)}; it has ${known}`, { slideId: slide.id, elementId });
  }
  return at;
}

function updateSlide(deck: Presentation, slideId: string, change: (slide: Slide) => Slide): Presentation {
  const at = indexOf(deck, slideId);
  return { ...deck, slides: deck.slides.map((slide, i) => (i === at ? change(slide) : slide)) };
}

function indexOf(deck: Presentation, slideId: string): number {
  const at = deck.slides.findIndex((s) => s.id === slideId);
  if (at < 0) throw rejectOp(`no slide with id ${JSON.stringify(slideId)}; the deck has ${ids(deck)}`, { slideId });
  return at;
}

function ids(deck: Presentation): string {
  return deck.slides.length === 0 ? 'no slides' : `slides ${deck.slides.map((s) => s.id).join(', ')}`;
}
