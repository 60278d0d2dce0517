import { opShape, rejectOp } from '@cowork/host';
import { WAS_SCHEMA, checkWas } from '../shared/was-guard';
import { RUN_STYLE_PROPERTIES, RUNS_SCHEMA, plainText, retextRuns, type Run, type RunStyle } from '../shared/runs';
import { freshId } from '../shared/ids';
import {
  ALIGNMENT_SCHEMA,
  BLOCK_ID_SCHEMA,
  BLOCK_SCHEMA,
  HEADING_LEVEL_SCHEMA,
  LIST_ITEM_SCHEMA,
  MARGINS_SCHEMA,
  PAGE_SIZES,
  type Alignment,
  type Block,
  type DocumentContent,
  type HeadingLevel,
  type ListItem,
  type Margins,
  type Orientation,
  type PageSize,
} from './content';
import { blockProblems, findBlock, placeBlock, requireType, type Placement } from './blocks';

/**
 * Ops of `office.document`. Blocks are addressed by their stable `id`, never by position, so ops
 * on different blocks commute; list items and table rows are addressed by index inside their block
 * (`was`, the text the author read there, makes an op refuse to land on another item).
 * - `insert_block` puts a new block after the block `after`, or `at` the start or end (default end);
 *   `add_text` puts a heading or paragraph of plain text there, its id picked unless given;
 * - `set_runs`, `set_text` (plain text; styles kept where the text stays), `set_heading_level`,
 *   `set_alignment` change one heading or paragraph; a heading's text may not be empty;
 * - `restyle` sets style fields on every run of a block (or of one list item), keeping the text;
 * - `set_list_item`, `insert_list_item`, `delete_list_item` edit one list;
 * - `set_cell`, `insert_row`, `delete_row` edit one table;
 * - `move_block` moves a block after another (or to the start or end); `delete_block` removes it;
 * - `set_page` changes the page size, orientation or margins; `set_title` the document's title.
 */
export type DocumentOp =
  | ({ type: 'insert_block'; block: Block } & Placement)
  | ({ type: 'add_text'; blockType: 'heading' | 'paragraph'; text: string; level?: HeadingLevel; blockId?: string } & Placement)
  | { type: 'set_runs'; blockId: string; runs: Run[] }
  | { type: 'set_text'; blockId: string; text: string }
  | { type: 'set_heading_level'; blockId: string; level: HeadingLevel }
  | { type: 'set_alignment'; blockId: string; align: Alignment }
  | { type: 'restyle'; blockId: string; style: RunStyle; item?: number }
  | { type: 'set_list_item'; blockId: string; index: number; runs: Run[]; level?: number; was?: string }
  | { type: 'insert_list_item'; blockId: string; at?: number; item: ListItem }
  | { type: 'delete_list_item'; blockId: string; index: number; was?: string }
  | { type: 'set_cell'; blockId: string; row: number; column: number; text: string; was?: string }
  | { type: 'insert_row'; blockId: string; at?: number; cells: string[] }
  | { type: 'delete_row'; blockId: string; row: number }
  | ({ type: 'move_block'; blockId: string } & Placement)
  | { type: 'delete_block'; blockId: string }
  | { type: 'set_page'; size?: PageSize; orientation?: Orientation; marginsMm?: Margins }
  | { type: 'set_title'; title: string };

const INDEX = { type: 'integer', minimum: 0 } as const;
const PLACEMENT = { after: BLOCK_ID_SCHEMA, at: { enum: ['start', 'end'] } } as const;

export const DOCUMENT_OP_SCHEMA = {
  oneOf: [
    opShape('insert_block', { block: BLOCK_SCHEMA, ...PLACEMENT }, ['block']),
    opShape('add_text', { blockType: { enum: ['heading', 'paragraph'] }, text: { type: 'string' }, level: HEADING_LEVEL_SCHEMA, blockId: BLOCK_ID_SCHEMA, ...PLACEMENT }, ['blockType', 'text']),
    opShape('set_runs', { blockId: BLOCK_ID_SCHEMA, runs: RUNS_SCHEMA }),
    opShape('set_text', { blockId: BLOCK_ID_SCHEMA, text: { type: 'string' } }),
    opShape('set_heading_level', { blockId: BLOCK_ID_SCHEMA, level: HEADING_LEVEL_SCHEMA }),
    opShape('set_alignment', { blockId: BLOCK_ID_SCHEMA, align: ALIGNMENT_SCHEMA }),
    opShape(
      'restyle',
      { blockId: BLOCK_ID_SCHEMA, style: { type: 'object', properties: RUN_STYLE_PROPERTIES, minProperties: 1, additionalProperties: false }, item: INDEX },
      ['blockId', 'style'],
    ),
    opShape('set_list_item', { blockId: BLOCK_ID_SCHEMA, index: INDEX, runs: RUNS_SCHEMA, level: LIST_ITEM_SCHEMA.properties.level, was: WAS_SCHEMA }, ['blockId', 'index', 'runs']),
    opShape('insert_list_item', { blockId: BLOCK_ID_SCHEMA, at: INDEX, item: LIST_ITEM_SCHEMA }, ['blockId', 'item']),
    opShape('delete_list_item', { blockId: BLOCK_ID_SCHEMA, index: INDEX, was: WAS_SCHEMA }, ['blockId', 'index']),
    opShape('set_cell', { blockId: BLOCK_ID_SCHEMA, row: INDEX, column: INDEX, text: { type: 'string' }, was: WAS_SCHEMA }, ['blockId', 'row', 'column', 'text']),
    opShape('insert_row', { blockId: BLOCK_ID_SCHEMA, at: INDEX, cells: { type: 'array', minItems: 1, items: { type: 'string' } } }, ['blockId', 'cells']),
    opShape('delete_row', { blockId: BLOCK_ID_SCHEMA, row: INDEX }),
    opShape('move_block', { blockId: BLOCK_ID_SCHEMA, ...PLACEMENT }, ['blockId']),
    opShape('delete_block', { blockId: BLOCK_ID_SCHEMA }),
    opShape('set_page', { size: { enum: [...PAGE_SIZES] }, orientation: { enum: ['portrait', 'landscape'] }, marginsMm: MARGINS_SCHEMA }, []),
    opShape('set_title', { title: { type: 'string' } }),
  ],
} as const;

/** Checks that do not depend on the content: a new block's own consistency, and unambiguous placement. */
export function validateDocumentOp(op: DocumentOp): string[] {
  switch (op.type) {
    case 'insert_block':
      return [...blockProblems(op.block), ...placementProblems(op)];
    case 'add_text':
      return [...placementProblems(op), ...textProblems(op.blockType, op.text)];
    case 'move_block':
      return placementProblems(op);
    case 'set_page':
      return op.size || op.orientation || op.marginsMm ? [] : ['set_page changes nothing; give size, orientation or marginsMm'];
    default:
      return [];
  }
}

/** Applies an op without mutating `doc`; throws `rejectOp` when the op does not fit this document. */
export function applyDocumentOp(doc: DocumentContent, op: DocumentOp): DocumentContent {
  switch (op.type) {
    case 'insert_block': {
      if (doc.blocks.some((b) => b.id === op.block.id)) {
        throw rejectOp(`a block with id ${JSON.stringify(op.block.id)} already exists; pick a new id`, { blockId: op.block.id });
      }
      return { ...doc, blocks: placeBlock(doc.blocks, op.block, op) };
    }
    case 'add_text': {
      const id = op.blockId ?? freshId(op.blockType, doc.blocks.map((b) => b.id));
      const runs = op.text ? [{ text: op.text }] : [];
      const block: Block = op.blockType === 'heading' ? { id, type: 'heading', level: op.level ?? 1, runs } : { id, type: 'paragraph', runs };
      return applyDocumentOp(doc, { type: 'insert_block', block, ...(op.after !== undefined ? { after: op.after } : {}), ...(op.at !== undefined ? { at: op.at } : {}) });
    }
    case 'move_block': {
      const { block } = findBlock(doc, op.blockId);
      if (op.after === op.blockId) throw rejectOp(`cannot move block ${JSON.stringify(op.blockId)} after itself`, { blockId: op.blockId });
      return { ...doc, blocks: placeBlock(doc.blocks.filter((b) => b.id !== op.blockId), block, op) };
    }
    case 'delete_block':
      findBlock(doc, op.blockId);
      return { ...doc, blocks: doc.blocks.filter((b) => b.id !== op.blockId) };
    case 'set_page':
      return { ...doc, page: { size: op.size ?? doc.page.size, orientation: op.orientation ?? doc.page.orientation, marginsMm: op.marginsMm ?? doc.page.marginsMm } };
    case 'set_title':
      return { ...doc, title: op.title };
    default:
      return { ...doc, blocks: replaceBlock(doc, op.blockId, (block) => applyBlockOp(block, op)) };
  }
}

type BlockOp = Exclude<DocumentOp, { type: 'insert_block' | 'add_text' | 'move_block' | 'delete_block' | 'set_page' | 'set_title' }>;

function applyBlockOp(block: Block, op: BlockOp): Block {
  switch (op.type) {
    case 'set_runs': {
      const text = requireType(block, op.type, ['heading', 'paragraph']);
      return { ...text, runs: op.runs };
    }
    case 'set_text': {
      const text = requireType(block, op.type, ['heading', 'paragraph']);
      const [problem] = textProblems(text.type, op.text);
      if (problem) throw rejectOp(`block ${JSON.stringify(text.id)}: ${problem}`, { blockId: text.id });
      return { ...text, runs: retextRuns(text.runs, op.text) };
    }
    case 'set_heading_level':
      return { ...requireType(block, op.type, ['heading']), level: op.level };
    case 'set_alignment':
      return { ...requireType(block, op.type, ['paragraph']), align: op.align };
    case 'restyle':
      return restyle(block, op.style, op.item);
    case 'set_list_item': {
      const list = requireType(block, op.type, ['list']);
      const current = itemAt(list.items, op.index, list.id);
      checkWas(`item ${op.index} of list ${JSON.stringify(list.id)}`, plainText(current.runs), op.was);
      return withItems(list, list.items.map((item, i) => (i === op.index ? { runs: op.runs, level: op.level ?? current.level } : item)));
    }
    case 'insert_list_item': {
      const list = requireType(block, op.type, ['list']);
      const at = op.at ?? list.items.length;
      if (at > list.items.length) throw rejectOp(`insert_list_item at ${at} is past the end of list ${JSON.stringify(list.id)} (${list.items.length} items)`, { at });
      return withItems(list, [...list.items.slice(0, at), op.item, ...list.items.slice(at)]);
    }
    case 'delete_list_item': {
      const list = requireType(block, op.type, ['list']);
      checkWas(`item ${op.index} of list ${JSON.stringify(list.id)}`, plainText(itemAt(list.items, op.index, list.id).runs), op.was);
      if (list.items.length === 1) throw rejectOp(`item ${op.index} is the only item of list ${JSON.stringify(list.id)}; delete the block instead`, { blockId: list.id });
      return withItems(list, list.items.filter((_, i) => i !== op.index));
    }
    case 'set_cell': {
      const table = requireType(block, op.type, ['table']);
      const row = rowAt(table.table.rows, op.row, table.id);
      if (op.column >= row.length) throw rejectOp(`table ${JSON.stringify(table.id)} has ${row.length} columns (0 to ${row.length - 1}); column ${op.column} does not exist`, { column: op.column });
      checkWas(`cell ${op.row},${op.column} of table ${JSON.stringify(table.id)}`, row[op.column]!, op.was);
      const rows = table.table.rows.map((cells, r) => (r === op.row ? cells.map((cell, c) => (c === op.column ? op.text : cell)) : cells));
      return { ...table, table: { ...table.table, rows } };
    }
    case 'insert_row': {
      const table = requireType(block, op.type, ['table']);
      const { rows } = table.table;
      const width = rows[0]?.length ?? op.cells.length;
      const at = op.at ?? rows.length;
      if (op.cells.length !== width) throw rejectOp(`table ${JSON.stringify(table.id)} has ${width} columns; give insert_row exactly ${width} cells`, { columns: width });
      if (at > rows.length) throw rejectOp(`insert_row at ${at} is past the end of table ${JSON.stringify(table.id)} (${rows.length} rows)`, { at });
      return { ...table, table: { ...table.table, rows: [...rows.slice(0, at), op.cells, ...rows.slice(at)] } };
    }
    case 'delete_row': {
      const table = requireType(block, op.type, ['table']);
      rowAt(table.table.rows, op.row, table.id);
      if (table.table.rows.length === 1) throw rejectOp(`row ${op.row} is the only row of table ${JSON.stringify(table.id)}; delete the block instead`, { blockId: table.id });
      return { ...table, table: { ...table.table, rows: table.table.rows.filter((_, r) => r !== op.row) } };
    }
  }
}

function restyle(block: Block, style: RunStyle, item: number | undefined): Block {
  const styled = (runs: Run[]): Run[] => runs.map((run) => ({ ...run, ...style }));
  if (block.type === 'list') {
    if (item !== undefined) itemAt(block.items, item, block.id);
    return { ...block, items: block.items.map((entry, i) => (item === undefined || i === item ? { ...entry, runs: styled(entry.runs) } : entry)) };
  }
  if (block.type !== 'heading' && block.type !== 'paragraph') {
    throw rejectOp(`block ${JSON.stringify(block.id)} is a ${block.type}, which has no styled text; restyle applies to heading, paragraph or list blocks`, { blockId: block.id, blockType: block.type });
  }
  if (item !== undefined) throw rejectOp(`block ${JSON.stringify(block.id)} is a ${block.type}; item applies only to lists, leave it out`, { blockId: block.id });
  return { ...block, runs: styled(block.runs) };
}

/** A list with new items, refused when the nesting no longer holds. */
function withItems(list: Extract<Block, { type: 'list' }>, items: ListItem[]): Block {
  const nesting = blockProblems({ ...list, items });
  if (nesting.length > 0) throw rejectOp(`list ${JSON.stringify(list.id)}: ${nesting.join('; ')}`, { blockId: list.id, problems: nesting });
  return { ...list, items };
}

function itemAt(items: readonly ListItem[], index: number, blockId: string): ListItem {
  const item = items[index];
  if (!item) throw rejectOp(`list ${JSON.stringify(blockId)} has ${items.length} items (0 to ${items.length - 1}); item ${index} does not exist`, { blockId, index });
  return item;
}

function rowAt(rows: readonly string[][], index: number, blockId: string): string[] {
  const row = rows[index];
  if (!row) throw rejectOp(`table ${JSON.stringify(blockId)} has ${rows.length} rows (0 to ${rows.length - 1}); row ${index} does not exist`, { blockId, row: index });
  return row;
}

function replaceBlock(doc: DocumentContent, blockId: string, change: (block: Block) => Block): Block[] {
  const { index } = findBlock(doc, blockId);
  return doc.blocks.map((block, i) => (i === index ? change(block) : block));
}

/** A heading without text is an empty line in the outline and in Word's navigation pane. */
function textProblems(blockType: 'heading' | 'paragraph', text: string): string[] {
  return blockType === 'heading' && text.trim() === '' ? ['a heading needs text; type its words, or delete the block'] : [];
}

function placementProblems(placement: Placement): string[] {
  return placement.after !== undefined && placement.at !== undefined ? ['give either after or at, not both'] : [];
}
