import { rejectOp } from '@cowork/host';
import { BULLETS_SCHEMA, SLIDE_ID_SCHEMA, SLIDE_SCHEMA, bulletProblems, type Bullet, type Presentation, type Slide } from './content';

/**
 * Ops of `office.presentation`. Slides are addressed by their stable `id`, never by position, so
 * ops on different slides commute; positions appear only where an op is about position
 * (`add_slide.at`, `move_slide.to`) and are checked against the content the op lands on.
 * - `add_slide` inserts a slide at `at` (0..count, default the end); its id must be new;
 * - `edit_title`, `set_bullets`, `set_notes` replace one part of one slide;
 * - `move_slide` moves a slide so that it ends at index `to` (0..count-1);
 * - `delete_slide` removes a slide;
 * - `set_deck_title` replaces the presentation's title.
 */
export type PresentationOp =
  | { type: 'add_slide'; at?: number; slide: Slide }
  | { type: 'edit_title'; slideId: string; title: string }
  | { type: 'set_bullets'; slideId: string; bullets: Bullet[] }
  | { type: 'set_notes'; slideId: string; notes: string }
  | { type: 'move_slide'; slideId: string; to: number }
  | { type: 'delete_slide'; slideId: string }
  | { type: 'set_deck_title'; title: string };

export const PRESENTATION_OP_SCHEMA = {
  oneOf: [
    opShape('add_slide', { at: { type: 'integer', minimum: 0 }, slide: SLIDE_SCHEMA }, ['slide']),
    opShape('edit_title', { slideId: SLIDE_ID_SCHEMA, title: { type: 'string' } }),
    opShape('set_bullets', { slideId: SLIDE_ID_SCHEMA, bullets: BULLETS_SCHEMA }),
    opShape('set_notes', { slideId: SLIDE_ID_SCHEMA, notes: { type: 'string' } }),
    opShape('move_slide', { slideId: SLIDE_ID_SCHEMA, to: { type: 'integer', minimum: 0 } }),
    opShape('delete_slide', { slideId: SLIDE_ID_SCHEMA }),
    opShape('set_deck_title', { title: { type: 'string' } }),
  ],
} as const;

/** Checks that do not depend on the content: bullet nesting, and bullets only where the layout shows them. */
export function validatePresentationOp(op: PresentationOp): string[] {
  if (op.type === 'set_bullets') return bulletProblems(op.bullets);
  if (op.type !== 'add_slide') return [];
  const problems = bulletProblems(op.slide.bullets);
  if (op.slide.bullets.length > 0 && !showsBullets(op.slide.layout)) {
    problems.push(`a slide with layout ${op.slide.layout} shows no bullets; use title_and_bullets or title`);
  }
  return problems;
}

/** Applies an op without mutating `deck`; throws `rejectOp` when the op does not fit this deck. */
export function applyPresentationOp(deck: Presentation, op: PresentationOp): Presentation {
  switch (op.type) {
    case 'add_slide': {
      const at = op.at ?? deck.slides.length;
      if (at > deck.slides.length) throw rejectOp(`add_slide at ${at} is past the end of the deck (${deck.slides.length} slides)`, { at });
      if (deck.slides.some((s) => s.id === op.slide.id)) throw rejectOp(`a slide with id ${JSON.stringify(op.slide.id)} already exists`, { slideId: op.slide.id });
      const slides = [...deck.slides];
      slides.splice(at, 0, op.slide);
      return { ...deck, slides };
    }
    case 'edit_title':
      return updateSlide(deck, op.slideId, (slide) => ({ ...slide, title: op.title }));
    case 'set_bullets':
      return updateSlide(deck, op.slideId, (slide) => {
        if (op.bullets.length > 0 && !showsBullets(slide.layout)) {
          throw rejectOp(`slide ${JSON.stringify(slide.id)} has layout ${slide.layout}, which shows no bullets`, { slideId: slide.id });
        }
        return { ...slide, bullets: op.bullets };
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

/** Whether a layout has a place for bullets (on a title slide they are the subtitle lines). */
export function showsBullets(layout: Slide['layout']): boolean {
  return layout === 'title_and_bullets' || layout === 'title';
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

function opShape(type: string, properties: Record<string, object>, required: string[] = Object.keys(properties)): object {
  return {
    type: 'object',
    properties: { type: { const: type }, ...properties },
    required: ['type', ...required],
    additionalProperties: false,
  };
}
