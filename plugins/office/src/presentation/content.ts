/**
 * The content of an `office.presentation` resource: a deck title and slides in order. Every slide
 * has a stable `id` that ops address, so that two people (or a person and an agent) editing
 * different slides make ops that still apply after the other's commit. Images, tables and charts
 * sit on a slide as elements with their own ids, unique within the slide.
 */
import { CHART_SCHEMA, chartProblems, type Chart } from '../shared/chart';
import { IMAGE_SCHEMA, imageProblems, type Image } from '../shared/image';
import { RUNS_SCHEMA, RUN_STYLE_PROPERTIES, plainText, type Run, type RunStyle } from '../shared/runs';
import { TABLE_SCHEMA, tableProblems, type Table } from '../shared/table';

export type SlideLayout = 'title' | 'title_and_bullets' | 'title_only' | 'blank';

/**
 * A bullet point; `level` 0 is the outermost, each level one indent deeper. `runs`, when present,
 * are the same text split into styled pieces (their joined text equals `text`).
 */
export type Bullet = { text: string; level: number; runs?: Run[] };

/** Where an element sits, in inches on the 10 x 5.625 in (16:9) slide; without it the exporter lays it out. */
export type Box = { x: number; y: number; w: number; h: number };

export type SlideElement =
  | { id: string; type: 'image'; image: Image; box?: Box }
  | { id: string; type: 'table'; table: Table; box?: Box }
  | { id: string; type: 'chart'; chart: Chart; box?: Box };

export type Slide = {
  id: string;
  layout: SlideLayout;
  title: string;
  /** Style of the whole title (titles are plain strings). */
  titleStyle?: RunStyle;
  bullets: Bullet[];
  /** Images, tables and charts, in the order they are laid out. */
  elements?: SlideElement[];
  /** Speaker notes, plain text. */
  notes: string;
};

export type Presentation = { title: string; slides: Slide[] };

export const SLIDE_LAYOUTS: readonly SlideLayout[] = ['title', 'title_and_bullets', 'title_only', 'blank'];

/** Bullets nest at most this deep (levels 0 to MAX_BULLET_LEVEL), as PowerPoint's outline does. */
export const MAX_BULLET_LEVEL = 4;

export const SLIDE_WIDTH_IN = 10;
export const SLIDE_HEIGHT_IN = 5.625;

const ID_PATTERN = '^[A-Za-z0-9_-]{1,64}$';
export const SLIDE_ID_SCHEMA = { type: 'string', pattern: ID_PATTERN } as const;
export const ELEMENT_ID_SCHEMA = { type: 'string', pattern: ID_PATTERN } as const;

export const RUN_STYLE_SCHEMA = {
  type: 'object',
  properties: RUN_STYLE_PROPERTIES,
  minProperties: 1,
  additionalProperties: false,
} as const;

export const BULLET_SCHEMA = {
  type: 'object',
  properties: {
    text: { type: 'string' },
    level: { type: 'integer', minimum: 0, maximum: MAX_BULLET_LEVEL },
    runs: RUNS_SCHEMA,
  },
  required: ['text', 'level'],
  additionalProperties: false,
} as const;

export const BULLETS_SCHEMA = { type: 'array', items: BULLET_SCHEMA } as const;

const BOX_SCHEMA = {
  type: 'object',
  properties: {
    x: { type: 'number', minimum: 0, maximum: SLIDE_WIDTH_IN },
    y: { type: 'number', minimum: 0, maximum: SLIDE_HEIGHT_IN },
    w: { type: 'number', exclusiveMinimum: 0, maximum: SLIDE_WIDTH_IN },
    h: { type: 'number', exclusiveMinimum: 0, maximum: SLIDE_HEIGHT_IN },
  },
  required: ['x', 'y', 'w', 'h'],
  additionalProperties: false,
} as const;

function elementShape(type: string, field: string, schema: object): object {
  return {
    type: 'object',
    properties: { id: ELEMENT_ID_SCHEMA, type: { const: type }, [field]: schema, box: BOX_SCHEMA },
    required: ['id', 'type', field],
    additionalProperties: false,
  };
}

export const ELEMENT_SCHEMA = {
  oneOf: [elementShape('image', 'image', IMAGE_SCHEMA), elementShape('table', 'table', TABLE_SCHEMA), elementShape('chart', 'chart', CHART_SCHEMA)],
} as const;

export const SLIDE_SCHEMA = {
  type: 'object',
  properties: {
    id: SLIDE_ID_SCHEMA,
    layout: { enum: [...SLIDE_LAYOUTS] },
    title: { type: 'string' },
    titleStyle: RUN_STYLE_SCHEMA,
    bullets: BULLETS_SCHEMA,
    elements: { type: 'array', items: ELEMENT_SCHEMA },
    notes: { type: 'string' },
  },
  required: ['id', 'layout', 'title', 'bullets', 'notes'],
  additionalProperties: false,
} as const;

export const PRESENTATION_SCHEMA = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    slides: { type: 'array', items: SLIDE_SCHEMA },
  },
  required: ['title', 'slides'],
  additionalProperties: false,
} as const;

/**
 * Problems with a bullet list the schema cannot see: a level may go at most one deeper than the
 * one before, and runs must spell the bullet's text.
 */
export function bulletProblems(bullets: readonly Bullet[], previousLevel = -1): string[] {
  const problems: string[] = [];
  let previous = previousLevel;
  bullets.forEach((bullet, index) => {
    if (bullet.level > previous + 1) {
      problems.push(`bullet ${index} has level ${bullet.level} but may be at most ${previous + 1} (one deeper than the bullet before)`);
    }
    if (bullet.runs && plainText(bullet.runs) !== bullet.text) {
      problems.push(`bullet ${index}: its runs spell ${JSON.stringify(plainText(bullet.runs))} but its text is ${JSON.stringify(bullet.text)}; make them equal or leave runs out`);
    }
    previous = bullet.level;
  });
  return problems;
}

/** Problems inside one element the schema cannot see (image bytes, table shape, chart series). */
export function elementProblems(element: SlideElement): string[] {
  const problems = element.type === 'image' ? imageProblems(element.image) : element.type === 'table' ? tableProblems(element.table) : chartProblems(element.chart);
  const box = element.box;
  if (box && (box.x + box.w > SLIDE_WIDTH_IN + 1e-9 || box.y + box.h > SLIDE_HEIGHT_IN + 1e-9)) {
    problems.push(`its box reaches past the slide (${SLIDE_WIDTH_IN} x ${SLIDE_HEIGHT_IN} in)`);
  }
  return problems.map((problem) => `element ${JSON.stringify(element.id)}: ${problem}`);
}

/** Everything `validateOp` checks on a whole slide: bullets, elements, unique element ids, layout. */
export function slideProblems(slide: Slide): string[] {
  const problems = bulletProblems(slide.bullets);
  if (slide.bullets.length > 0 && !showsBullets(slide.layout)) {
    problems.push(`a slide with layout ${slide.layout} shows no bullets; use title_and_bullets or title`);
  }
  const seen = new Set<string>();
  for (const element of slide.elements ?? []) {
    if (seen.has(element.id)) problems.push(`two elements have id ${JSON.stringify(element.id)}; element ids are unique within a slide`);
    seen.add(element.id);
    problems.push(...elementProblems(element));
  }
  return problems;
}

/** Whether a layout has a place for bullets (on a title slide they are the subtitle lines). */
export function showsBullets(layout: SlideLayout): boolean {
  return layout === 'title_and_bullets' || layout === 'title';
}
