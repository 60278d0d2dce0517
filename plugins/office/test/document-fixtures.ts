// Documents the tests (and the previews tests and benchmarks) share: a small one with every block
// type, and `longDocument(pages)`, which lays out as `pages` pages (one section per page, separated
// by page breaks, each section well short of a page).
import type { Block, DocumentContent } from '../src';

/** A 1x1 red PNG as a data URI. */
export const RED_PIXEL_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

export function paragraph(id: string, text: string, extra: Partial<Extract<Block, { type: 'paragraph' }>> = {}): Block {
  return { id, type: 'paragraph', runs: [{ text }], ...extra };
}

export function heading(id: string, text: string, level: 1 | 2 | 3 = 1): Block {
  return { id, type: 'heading', level, runs: [{ text }] };
}

/** Five blocks with stable ids: a heading, a paragraph, a nested bulleted list, a table and a closing paragraph. */
export function sampleDocument(): DocumentContent {
  return {
    title: 'Field report',
    page: { size: 'A4', orientation: 'portrait', marginsMm: { top: 25, right: 20, bottom: 25, left: 20 } },
    blocks: [
      heading('intro', 'Introduction'),
      { id: 'summary', type: 'paragraph', runs: [{ text: 'Sales rose ' }, { text: 'sharply', bold: true }, { text: ' in spring.' }] },
      {
        id: 'points',
        type: 'list',
        ordered: false,
        items: [
          { runs: [{ text: 'Europe grew' }], level: 0 },
          { runs: [{ text: 'Germany led' }], level: 1 },
          { runs: [{ text: 'Asia held steady' }], level: 0 },
        ],
      },
      { id: 'figures', type: 'table', table: { header: true, rows: [['Region', 'Sales'], ['Europe', '120'], ['Asia', '95']] } },
      paragraph('closing', 'Next steps follow.'),
    ],
  };
}

/** A document of `pages` pages: each page a heading, two paragraphs and (every third page) a list or (every fifth) a table. */
export function longDocument(pages: number): DocumentContent {
  const blocks: Block[] = [];
  for (let page = 1; page <= pages; page++) {
    if (page > 1) blocks.push({ id: `break-${page}`, type: 'page_break' });
    blocks.push(heading(`h-${page}`, `Section ${page}`, 1));
    blocks.push(paragraph(`p-${page}-a`, `Section ${page} opens with a paragraph of plain text. ${filler(page)}`));
    blocks.push(paragraph(`p-${page}-b`, `A second paragraph closes section ${page}. ${filler(page + 1)}`));
    if (page % 3 === 0) {
      blocks.push({
        id: `l-${page}`,
        type: 'list',
        ordered: page % 2 === 0,
        items: [
          { runs: [{ text: `Point ${page}.1` }], level: 0 },
          { runs: [{ text: `Detail ${page}.1.1` }], level: 1 },
          { runs: [{ text: `Point ${page}.2` }], level: 0 },
        ],
      });
    }
    if (page % 5 === 0) {
      blocks.push({ id: `t-${page}`, type: 'table', table: { header: true, rows: [['Item', 'Value'], [`Row ${page}`, String(page * 10)]] } });
    }
  }
  return { title: `Long document (${pages} pages)`, page: { size: 'A4', orientation: 'portrait', marginsMm: { top: 25, right: 25, bottom: 25, left: 25 } }, blocks };
}

function filler(seed: number): string {
  const sentences = [
    'The figures were gathered over the quarter and checked twice.',
    'Each region reported on the same template so that the numbers compare.',
    'Where a value was missing the previous quarter was carried forward.',
    'Comments from the field teams are summarised below.',
  ];
  return Array.from({ length: 4 }, (_, i) => sentences[(seed + i) % sentences.length]).join(' ');
}
