import { showsBullets, type Presentation, type Slide } from '../presentation/content';
import type { Render } from '../preview/render';
import { slideWhere, type Finding } from './findings';
import type { PptxBoxes } from './pptx-boxes';
import { slideOverflows, type BoxOverflow } from './overflow';
import { LINE_HEIGHT } from './text-fit';

/** What a deck is linted against: its pptx's boxes and the render of that pptx. */
export interface PresentationLintInput {
  readonly boxes: PptxBoxes;
  readonly render: Render;
}

/**
 * Lints a deck: empty placeholders (a title slot with no title, a bullets layout with nothing in its
 * body, empty bullets, empty table header cells, images without alt text), text overflowing its box
 * (estimated, and confirmed on the rendered page), and slides that did not render (the PDF has
 * fewer pages than the deck has slides, no page image, or a page image of one colour for a slide
 * that has something to show).
 */
export function lintPresentation(deck: Presentation, input: PresentationLintInput): Finding[] {
  return [...deck.slides.flatMap((slide, i) => slideFindings(slide, i)), ...overflowFindings(deck, input), ...renderFindings(deck, input.render)];
}

function slideFindings(slide: Slide, index: number): Finding[] {
  const where = slideWhere(index, slide.id);
  const findings: Finding[] = [];
  const add = (severity: Finding['severity'], code: Finding['code'], message: string): number => findings.push({ severity, where, code, message });
  const elements = slide.elements ?? [];
  if (!hasVisibleContent(slide)) {
    add('warning', 'empty_slide', 'the slide shows nothing: give it a title, bullets or an element, or delete it');
    return findings;
  }
  if (slide.layout !== 'blank' && slide.title.trim() === '') add('warning', 'empty_placeholder', `the ${slide.layout} layout has a title slot but the title is empty`);
  if (slide.layout === 'title_and_bullets' && slide.bullets.length === 0 && elements.length === 0) {
    add('warning', 'empty_placeholder', 'the title_and_bullets layout has no bullets and no elements: add bullets or use title_only');
  }
  if (showsBullets(slide.layout)) {
    slide.bullets.forEach((bullet, b) => {
      if (bullet.text.trim() === '') add('warning', 'empty_placeholder', `bullet ${b + 1} is empty`);
    });
  }
  for (const element of elements) {
    if (element.type === 'table' && element.table.header) {
      const empty = (element.table.rows[0] ?? []).flatMap((cell, c) => (cell.trim() === '' ? [c + 1] : []));
      if (empty.length > 0) add('warning', 'empty_placeholder', `table [${element.id}] has empty header cells (columns ${empty.join(', ')})`);
    }
    if (element.type === 'image' && element.image.alt.trim() === '') add('info', 'missing_alt_text', `image [${element.id}] has no alt text`);
  }
  return findings;
}

function overflowFindings(deck: Presentation, { boxes, render }: PresentationLintInput): Finding[] {
  return deck.slides.flatMap((slide, i) => {
    const slideBoxes = boxes.slides[i];
    if (!slideBoxes) return [];
    return slideOverflows(slideBoxes, boxes, render.text[i]).map((overflow) => overflowFinding(slideWhere(i, slide.id), overflow));
  });
}

/**
 * Rendered overflow of a line or more, or up to the slide's edge (the rest is cut off), is an error;
 * less is a warning; an overflow only the estimate sees is info.
 */
function overflowFinding(where: string, { box, renderedPt, offSlide, estimate }: BoxOverflow): Finding {
  const which = box.placeholder ? `the ${box.placeholder} box` : `the text box "${box.name}"`;
  const estimated = `estimated ${estimate.lines} line${estimate.lines === 1 ? '' : 's'} need ${Math.round(estimate.neededPt)} pt, the box holds ${Math.round(estimate.availablePt)} pt`;
  if (renderedPt > 0) {
    const line = Math.max(...box.paragraphs.map((p) => p.fontPt)) * LINE_HEIGHT;
    return {
      severity: renderedPt >= line || offSlide ? 'error' : 'warning',
      where,
      code: 'text_overflow',
      message: `text of ${which} runs ${Math.round(renderedPt)} pt outside it on the rendered slide${offSlide ? ', off the slide' : ''} (${estimated}): shorten the text, split the slide, or use a smaller font`,
    };
  }
  return { severity: 'info', where, code: 'text_overflow', message: `text of ${which} may not fit (${estimated}; the rendered slide shows none outside it)` };
}

function renderFindings(deck: Presentation, render: Render): Finding[] {
  const findings: Finding[] = [];
  deck.slides.forEach((slide, i) => {
    const where = slideWhere(i, slide.id);
    const page = render.pages[i];
    if (i >= render.text.length) {
      findings.push({ severity: 'error', where, code: 'page_not_rendered', message: `the PDF has ${render.text.length} pages for ${deck.slides.length} slides; this slide has none` });
    } else if (!page) {
      findings.push({ severity: 'error', where, code: 'page_not_rendered', message: 'the slide has a PDF page but no page image could be made from it' });
    } else if (page.blank && hasVisibleContent(slide)) {
      findings.push({ severity: 'error', where, code: 'page_not_rendered', message: 'the slide rendered as a blank page (every pixel the same colour) though it has content: check text colours and images' });
    }
  });
  return findings;
}

/** Whether anything of the slide is drawn: a title where the layout shows one, bullets, or an element. */
function hasVisibleContent(slide: Slide): boolean {
  return (
    (slide.layout !== 'blank' && slide.title.trim() !== '') ||
    (showsBullets(slide.layout) && slide.bullets.some((b) => b.text.trim() !== '')) ||
    (slide.elements ?? []).length > 0
  );
}
