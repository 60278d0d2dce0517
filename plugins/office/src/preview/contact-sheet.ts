import { PNG } from 'pngjs';

/** Pixels between two pages of a contact sheet. */
export const SHEET_GAP = 16;
/** The sheet's background, behind the gaps and beside narrower pages: a light grey, so white pages stand out. */
const BACKGROUND = Buffer.from([0xd9, 0xd9, 0xd9, 0xff]);

/**
 * One PNG holding every page: pages stacked top to bottom, left-aligned, `SHEET_GAP` pixels apart,
 * as wide as the widest page. The web page shows a deck or a document as this one image. Written
 * unfiltered and without alpha: pngjs's adaptive filtering takes ten times longer on a tall sheet
 * for a file only a third smaller.
 */
export function contactSheet(pages: readonly PNG[]): Uint8Array {
  if (pages.length === 0) throw new Error('a contact sheet needs at least one page');
  const width = Math.max(...pages.map((page) => page.width));
  const height = pages.reduce((sum, page) => sum + page.height, 0) + SHEET_GAP * (pages.length - 1);
  const sheet = new PNG({ width, height });
  sheet.data.fill(BACKGROUND);
  let top = 0;
  for (const page of pages) {
    PNG.bitblt(page, sheet, 0, 0, page.width, page.height, 0, top);
    top += page.height + SHEET_GAP;
  }
  return new Uint8Array(PNG.sync.write(sheet, { filterType: 0, colorType: 2 }));
}
