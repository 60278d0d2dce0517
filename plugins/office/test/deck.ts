// A small deck the tests share: three slides with stable ids.
import type { Presentation, Slide } from '../src';

export function slide(id: string, title: string, extra: Partial<Slide> = {}): Slide {
  return { id, layout: 'title_and_bullets', title, bullets: [], notes: '', ...extra };
}

export function deck(): Presentation {
  return {
    title: 'Quarterly review',
    slides: [
      slide('intro', 'Welcome', { layout: 'title' }),
      slide('numbers', 'The numbers', { bullets: [{ text: 'Revenue up', level: 0 }, { text: 'in Europe', level: 1 }] }),
      slide('next', 'Next steps', { notes: 'Keep it short' }),
    ],
  };
}
