/**
 * The content of an `office.document` resource: a title, the page setup and blocks in reading
 * order. Every block has a stable `id` that ops address, so that a person editing one block and an
 * agent editing another make ops that still apply after the other's commit. Inside a list or a
 * table, items, rows and cells are addressed by index (they have no identity of their own).
 */
import { IMAGE_SCHEMA, type Image } from '../shared/image';
import { RUNS_SCHEMA, type Run } from '../shared/runs';
import { TABLE_SCHEMA, type Table } from '../shared/table';

export type PageSize = 'A4' | 'Letter';
export type Orientation = 'portrait' | 'landscape';
export type Margins = { top: number; right: number; bottom: number; left: number };
export type PageSetup = { size: PageSize; orientation: Orientation; marginsMm: Margins };

export type HeadingLevel = 1 | 2 | 3;
export type Alignment = 'left' | 'center' | 'right' | 'justify';

/** A list entry; `level` 0 is the outermost, each level one indent deeper. */
export type ListItem = { runs: Run[]; level: number };

export type Block =
  | { id: string; type: 'heading'; level: HeadingLevel; runs: Run[] }
  | { id: string; type: 'paragraph'; runs: Run[]; align?: Alignment }
  | { id: string; type: 'list'; ordered: boolean; items: ListItem[] }
  | { id: string; type: 'table'; table: Table }
  | { id: string; type: 'image'; image: Image }
  | { id: string; type: 'page_break' };

export type BlockType = Block['type'];

export type DocumentContent = { title: string; page: PageSetup; blocks: Block[] };

export const PAGE_SIZES: readonly PageSize[] = ['A4', 'Letter'];
export const ALIGNMENTS: readonly Alignment[] = ['left', 'center', 'right', 'justify'];

/** Lists nest at most this deep (levels 0 to MAX_LIST_LEVEL), as Word's default numbering does. */
export const MAX_LIST_LEVEL = 4;

/** Margins beyond this leave no room on an A4 or Letter page. */
export const MAX_MARGIN_MM = 80;

export const DEFAULT_PAGE: PageSetup = { size: 'A4', orientation: 'portrait', marginsMm: { top: 25, right: 25, bottom: 25, left: 25 } };

export const BLOCK_ID_SCHEMA = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' } as const;

const MARGIN = { type: 'number', minimum: 0, maximum: MAX_MARGIN_MM } as const;

export const MARGINS_SCHEMA = {
  type: 'object',
  properties: { top: MARGIN, right: MARGIN, bottom: MARGIN, left: MARGIN },
  required: ['top', 'right', 'bottom', 'left'],
  additionalProperties: false,
} as const;

export const PAGE_SCHEMA = {
  type: 'object',
  properties: { size: { enum: [...PAGE_SIZES] }, orientation: { enum: ['portrait', 'landscape'] }, marginsMm: MARGINS_SCHEMA },
  required: ['size', 'orientation', 'marginsMm'],
  additionalProperties: false,
} as const;

export const LIST_ITEM_SCHEMA = {
  type: 'object',
  properties: { runs: RUNS_SCHEMA, level: { type: 'integer', minimum: 0, maximum: MAX_LIST_LEVEL } },
  required: ['runs', 'level'],
  additionalProperties: false,
} as const;

export const HEADING_LEVEL_SCHEMA = { enum: [1, 2, 3] } as const;
export const ALIGNMENT_SCHEMA = { enum: [...ALIGNMENTS] } as const;

export const BLOCK_SCHEMA = {
  oneOf: [
    blockShape('heading', { level: HEADING_LEVEL_SCHEMA, runs: RUNS_SCHEMA }),
    blockShape('paragraph', { runs: RUNS_SCHEMA, align: ALIGNMENT_SCHEMA }, ['runs']),
    blockShape('list', { ordered: { type: 'boolean' }, items: { type: 'array', minItems: 1, items: LIST_ITEM_SCHEMA } }),
    blockShape('table', { table: TABLE_SCHEMA }),
    blockShape('image', { image: IMAGE_SCHEMA }),
    blockShape('page_break', {}),
  ],
} as const;

export const DOCUMENT_SCHEMA = {
  type: 'object',
  properties: { title: { type: 'string' }, page: PAGE_SCHEMA, blocks: { type: 'array', items: BLOCK_SCHEMA } },
  required: ['title', 'page', 'blocks'],
  additionalProperties: false,
} as const;

/** Problems with list nesting the schema cannot see: an item may go at most one level deeper than the one before. */
export function listProblems(items: readonly ListItem[]): string[] {
  const problems: string[] = [];
  let previous = -1;
  items.forEach((item, index) => {
    if (item.level > previous + 1) {
      problems.push(`list item ${index} has level ${item.level} but may be at most ${previous + 1} (one deeper than the item before)`);
    }
    previous = item.level;
  });
  return problems;
}

function blockShape(type: BlockType, properties: Record<string, object>, required: string[] = Object.keys(properties)): object {
  return {
    type: 'object',
    properties: { id: BLOCK_ID_SCHEMA, type: { const: type }, ...properties },
    required: ['id', 'type', ...required],
    additionalProperties: false,
  };
}
