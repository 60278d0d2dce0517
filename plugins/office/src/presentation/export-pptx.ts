import PptxGenJS from 'pptxgenjs';
import type { Presentation, Slide } from './content';

export const PPTX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';

/**
 * Renders a deck to pptx bytes in memory with pptxgenjs (16:9, one pptx slide per slide, notes as
 * speaker notes). Blank slides keep their notes and no text.
 */
export async function renderPptx(deck: Presentation): Promise<Uint8Array> {
  const pptx = new PptxGenJS();
  pptx.layout = 'LAYOUT_16x9';
  pptx.title = deck.title;
  for (const slide of deck.slides) addSlide(pptx, slide);
  const data = await pptx.write({ outputType: 'nodebuffer' });
  if (!(data instanceof Uint8Array)) throw new Error('pptxgenjs did not return bytes for outputType nodebuffer');
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

function addSlide(pptx: PptxGenJS, slide: Slide): void {
  const out = pptx.addSlide();
  if (slide.notes) out.addNotes(slide.notes);
  switch (slide.layout) {
    case 'title':
      out.addText(slide.title, { x: 0.5, y: 1.8, w: 9, h: 1.2, fontSize: 40, bold: true, align: 'center' });
      if (slide.bullets.length > 0) {
        out.addText(slide.bullets.map((b) => b.text).join('\n'), { x: 0.5, y: 3.1, w: 9, h: 1.5, fontSize: 20, align: 'center' });
      }
      return;
    case 'title_and_bullets':
      out.addText(slide.title, titleBox());
      if (slide.bullets.length > 0) {
        out.addText(
          slide.bullets.map((b) => ({ text: b.text, options: { bullet: true, indentLevel: b.level, breakLine: true } })),
          { x: 0.5, y: 1.3, w: 9, h: 4, fontSize: 20, valign: 'top' },
        );
      }
      return;
    case 'title_only':
      out.addText(slide.title, titleBox());
      return;
    case 'blank':
      return;
  }
}

function titleBox(): PptxGenJS.TextPropsOptions {
  return { x: 0.5, y: 0.3, w: 9, h: 0.9, fontSize: 32, bold: true };
}
