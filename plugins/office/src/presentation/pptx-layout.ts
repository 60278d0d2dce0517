import { decodeImage } from '../shared/image';
import { imagePixelSize } from '../shared/image-size';
import type { Box, Slide, SlideElement } from './content';

/**
 * Where things go on the exported 10 x 5.625 in slide. Each model layout maps to a named slide
 * layout with title and body placeholders (so PowerPoint's outline and the importer see the title
 * and the bullets for what they are); elements without a box share the space the text leaves.
 */
export type MasterName =
  | 'Title Slide'
  | 'Title Slide (no subtitle)'
  | 'Title and Content'
  | 'Title and Content (beside elements)'
  | 'Title and Content (no bullets)'
  | 'Title Only'
  | 'Blank';

type Placeholders = { title?: Box & { centered?: boolean; fontSize: number }; body?: Box & { centered?: boolean; fontSize: number } };

const TITLE_BOX = { x: 0.5, y: 0.3, w: 9, h: 0.9, fontSize: 32 };
const CENTERED_TITLE = { x: 0.5, y: 1.5, w: 9, h: 1.2, fontSize: 40, centered: true };
const SUBTITLE = { x: 0.5, y: 2.8, w: 9, h: 1.2, fontSize: 20, centered: true };
const CONTENT = { x: 0.5, y: 1.3, w: 9, h: 4 };
const GAP = 0.2;

export const MASTERS: Record<MasterName, Placeholders> = {
  'Title Slide': { title: CENTERED_TITLE, body: SUBTITLE },
  'Title Slide (no subtitle)': { title: CENTERED_TITLE },
  'Title and Content': { title: TITLE_BOX, body: { ...CONTENT, fontSize: 20 } },
  'Title and Content (beside elements)': { title: TITLE_BOX, body: { ...CONTENT, w: CONTENT.w / 2 - GAP / 2, fontSize: 18 } },
  'Title and Content (no bullets)': { title: TITLE_BOX },
  'Title Only': { title: TITLE_BOX },
  Blank: {},
};

/** The named layout a slide is exported with. */
export function masterFor(slide: Slide): MasterName {
  const bullets = slide.bullets.length > 0;
  switch (slide.layout) {
    case 'title':
      return bullets ? 'Title Slide' : 'Title Slide (no subtitle)';
    case 'title_and_bullets':
      if (!bullets) return 'Title and Content (no bullets)';
      return (slide.elements ?? []).some((e) => !e.box) ? 'Title and Content (beside elements)' : 'Title and Content';
    case 'title_only':
      return 'Title Only';
    case 'blank':
      return 'Blank';
  }
}

/** The free area for elements without a box, given the slide's layout and text. */
function elementArea(master: MasterName): Box {
  switch (master) {
    case 'Title Slide':
      return { x: 0.5, y: 4.1, w: 9, h: 1.3 };
    case 'Title Slide (no subtitle)':
      return { x: 0.5, y: 2.9, w: 9, h: 2.5 };
    case 'Title and Content (beside elements)':
      return { ...CONTENT, x: CONTENT.x + CONTENT.w / 2 + GAP / 2, w: CONTENT.w / 2 - GAP / 2 };
    case 'Blank':
      return { x: 0.5, y: 0.4, w: 9, h: 4.8 };
    default:
      return CONTENT;
  }
}

/** A box per element: its own when given, else a share of the free area (side by side when wide). */
export function elementBoxes(slide: Slide, master: MasterName): Box[] {
  const elements = slide.elements ?? [];
  const free = elements.filter((e) => !e.box).length;
  const area = elementArea(master);
  const sideBySide = area.w > area.h * 1.5;
  let slot = 0;
  return elements.map((element) => {
    if (element.box) return element.box;
    const i = slot++;
    const cell = sideBySide
      ? { x: area.x + i * ((area.w + GAP) / free), y: area.y, w: (area.w + GAP) / free - GAP, h: area.h }
      : { x: area.x, y: area.y + i * ((area.h + GAP) / free), w: area.w, h: (area.h + GAP) / free - GAP };
    return element.type === 'image' ? fitImage(element, cell) : cell;
  });
}

/** The image's own size (given inches, else pixels at 96 dpi), scaled down to fit the cell, centred. */
function fitImage(element: Extract<SlideElement, { type: 'image' }>, cell: Box): Box {
  const { image } = element;
  const decoded = decodeImage(image.src);
  const pixels = imagePixelSize(decoded.data, decoded.mediaType);
  const aspect = image.widthIn && image.heightIn ? image.widthIn / image.heightIn : pixels && pixels.height > 0 ? pixels.width / pixels.height : 4 / 3;
  let w = image.widthIn ?? (image.heightIn ? image.heightIn * aspect : (pixels?.width ?? 400) / 96);
  let h = w / aspect;
  const scale = Math.min(1, cell.w / w, cell.h / h);
  w *= scale;
  h *= scale;
  return { x: cell.x + (cell.w - w) / 2, y: cell.y + (cell.h - h) / 2, w, h };
}
