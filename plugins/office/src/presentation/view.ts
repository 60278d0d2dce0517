import type { ViewBlock, ViewContext } from '@cowork/host';
import type { Chart } from '../shared/chart';
import { tableBlock } from '../shared/table';
import { slideImageFormat } from '../preview/page-exports';
import { bulletLine } from './bullet-lines';
import { showsBullets, type Presentation, type Slide, type SlideElement } from './content';

/**
 * The deck as people edit it in the page: the deck title, then one group per slide (choosing it
 * selects the slide for the agents) with its picture, its title, bullets and notes edited in place,
 * its tables and charts as tables, and buttons to move or delete it; last, a button that adds a
 * slide. Every control commits one of the kind's ops, so the kind's checks judge what a person types.
 * Labels name the slide by position ("Slide 2 title"): unique in the view, and what a person hears.
 * A field's key names it by the slide's id, so a person's unsaved edit stays with its slide when
 * slides before it are added, moved or deleted and the labels move.
 */
export function presentationView(deck: Presentation, context: ViewContext): ViewBlock[] {
  return [
    { type: 'heading', text: deck.title || 'Untitled presentation', level: 1 },
    { type: 'field', label: 'Deck title', value: deck.title, op: { type: 'set_deck_title' }, field: 'title', input: 'text' },
    ...deck.slides.map((slide, index) => slideGroup(slide, index, deck.slides.length, context)),
    { type: 'action', label: 'Add slide', op: { type: 'new_slide' }, inputs: [{ field: 'title', label: 'New slide title', input: 'text' }] },
  ];
}

function slideGroup(slide: Slide, index: number, count: number, context: ViewContext): ViewBlock {
  const name = `Slide ${index + 1}`;
  const on = { slideId: slide.id };
  const key = (what: string): string => `slide ${slide.id} ${what}`;
  const picture = slideImageFormat(index);
  const blocks: ViewBlock[] = [
    ...(picture ? [{ type: 'image', url: context.exportUrl(picture), alt: `${name} as rendered` } as const] : []),
    { type: 'field', label: `${name} title`, key: key('title'), value: slide.title, op: { type: 'edit_title', ...on }, field: 'title', input: 'text' },
  ];
  if (showsBullets(slide.layout) || slide.bullets.length > 0) {
    blocks.push({ type: 'field', label: `${name} bullets`, key: key('bullets'), value: slide.bullets.map(bulletLine), op: { type: 'set_bullet_lines', ...on }, field: 'lines', input: 'lines' });
  }
  blocks.push(...(slide.elements ?? []).map(elementBlock));
  blocks.push({ type: 'field', label: `${name} notes`, key: key('notes'), value: slide.notes, op: { type: 'set_notes', ...on }, field: 'notes', input: 'textarea' });
  if (index > 0) blocks.push({ type: 'action', label: `Move ${name.toLowerCase()} up`, op: { type: 'move_slide', ...on, to: index - 1 } });
  if (index < count - 1) blocks.push({ type: 'action', label: `Move ${name.toLowerCase()} down`, op: { type: 'move_slide', ...on, to: index + 1 } });
  blocks.push({ type: 'action', label: `Delete ${name.toLowerCase()}`, op: { type: 'delete_slide', ...on } });
  return { type: 'group', title: `${name}: ${slide.title || '(untitled)'}`, selection: on, blocks };
}

function elementBlock(element: SlideElement): ViewBlock {
  switch (element.type) {
    case 'image':
      return { type: 'paragraph', text: `Image: ${element.image.alt || '(no description)'}` };
    case 'table':
      return tableBlock(element.table);
    case 'chart':
      return chartTable(element.chart);
  }
}

/** A chart as the table of numbers it draws: one row per label, one column per series. */
function chartTable(chart: Chart): ViewBlock {
  const header = [`${chart.title ?? ''} (${chart.type} chart)`.trim(), ...chart.series.map((s) => s.name)];
  return { type: 'table', header, rows: chart.labels.map((label, i) => [label, ...chart.series.map((s) => String(s.values[i] ?? ''))]) };
}
