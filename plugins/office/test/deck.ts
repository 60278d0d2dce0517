// Decks the tests share: a small one with three slides, and a rich one with every element kind.
import { PNG } from 'pngjs';
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

/** A real PNG of `width` x `height` pixels, a red-to-blue gradient, as a data URI. */
export function pngDataUri(width = 64, height = 48): string {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 4;
      png.data[at] = Math.round((255 * x) / width);
      png.data[at + 1] = 80;
      png.data[at + 2] = Math.round((255 * y) / height);
      png.data[at + 3] = 255;
    }
  }
  return `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
}

/** Every kind of content: a subtitle, styled runs, nested bullets, an image, a table, charts, notes. */
export function richDeck(): Presentation {
  return {
    title: 'Launch plan',
    slides: [
      slide('cover', 'Project Lighthouse', { layout: 'title', bullets: [{ text: 'Kick-off, March', level: 0 }], notes: 'Introduce the team' }),
      slide('goals', 'Goals for the quarter', {
        titleStyle: { color: '1F4E79' },
        bullets: [
          { text: 'Ship the beta to ten customers', level: 0, runs: [{ text: 'Ship the beta', bold: true }, { text: ' to ten customers' }] },
          { text: 'Onboarding under five minutes', level: 1 },
          { text: 'Weekly demos', level: 2, runs: [{ text: 'Weekly demos', italic: true, color: 'C00000' }] },
          { text: 'Hire two engineers', level: 0 },
        ],
        notes: 'Stress the beta date.\nMention hiring.',
      }),
      slide('budget', 'Budget by team', {
        layout: 'title_only',
        elements: [{ id: 'costs', type: 'table', table: { header: true, rows: [['Team', 'Q1', 'Q2'], ['Design', '12', '14'], ['Engineering', '40', '45']] } }],
      }),
      slide('growth', 'Signups per month', {
        bullets: [{ text: 'Growth after the launch', level: 0 }],
        elements: [
          { id: 'signups', type: 'chart', chart: { type: 'bar', title: 'Signups', labels: ['Jan', 'Feb', 'Mar'], series: [{ name: 'Signups', values: [120, 180, 260] }] } },
          { id: 'logo', type: 'image', image: { src: pngDataUri(), alt: 'Lighthouse logo' } },
        ],
      }),
      slide('mix', 'Where users come from', {
        layout: 'blank',
        elements: [{ id: 'sources', type: 'chart', chart: { type: 'pie', labels: ['Search', 'Ads', 'Friends'], series: [{ name: 'Share', values: [50, 30, 20] }] } }],
        notes: 'Pie chart only',
      }),
    ],
  };
}
