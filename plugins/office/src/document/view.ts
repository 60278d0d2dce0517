import type { ViewBlock, ViewContext } from '@cowork/host';
import { plainText } from '../shared/runs';
import { tableBlock } from '../shared/table';
import { previewImageBlock } from '../preview/exports';
import type { Block, DocumentContent } from './content';
import { blockLine } from './describe';

/**
 * The document as people edit it in the page: its title, then its outline, one group per block
 * (choosing it selects the block for the agents) with headings and paragraphs edited in place and
 * buttons to move, delete or follow a block with a new paragraph; buttons that add a heading or a
 * paragraph at the end; last, the pages as LibreOffice renders them. Lists, tables and images show
 * as they are (agents edit those by ops). Labels name a block by position ("Block 3 paragraph");
 * a field's key names it by the block's id, so an unsaved edit stays with its block when blocks
 * before it come, go or move.
 */
export function documentView(doc: DocumentContent, context: ViewContext): ViewBlock[] {
  return [
    { type: 'heading', text: doc.title || 'Untitled document', level: 1 },
    { type: 'field', label: 'Document title', value: doc.title, op: { type: 'set_title' }, field: 'title', input: 'text' },
    ...doc.blocks.map((block, index) => blockGroup(doc.blocks, block, index)),
    { type: 'action', label: 'Add heading', op: { type: 'add_text', blockType: 'heading', at: 'end' }, inputs: [{ field: 'text', label: 'New heading text', input: 'text' }] },
    { type: 'action', label: 'Add paragraph', op: { type: 'add_text', blockType: 'paragraph', at: 'end' }, inputs: [{ field: 'text', label: 'New paragraph text', input: 'textarea' }] },
    previewImageBlock(context),
  ];
}

function blockGroup(blocks: readonly Block[], block: Block, index: number): ViewBlock {
  const name = `Block ${index + 1}`;
  const on = { blockId: block.id };
  const before = blocks[index - 2];
  const controls: ViewBlock[] = [
    ...(index > 0 ? [{ type: 'action', label: `Move ${name.toLowerCase()} up`, op: { type: 'move_block', ...on, ...(before ? { after: before.id } : { at: 'start' }) } } as const] : []),
    ...(index < blocks.length - 1 ? [{ type: 'action', label: `Move ${name.toLowerCase()} down`, op: { type: 'move_block', ...on, after: blocks[index + 1]!.id } } as const] : []),
    // An empty paragraph, edited in place once it is there: one button, no form per block.
    { type: 'action', label: `Add paragraph after ${name.toLowerCase()}`, op: { type: 'add_text', blockType: 'paragraph', text: '', after: block.id } },
    { type: 'action', label: `Delete ${name.toLowerCase()}`, op: { type: 'delete_block', ...on } },
  ];
  return { type: 'group', title: `${name}: ${blockLine(block)}`, selection: on, blocks: [...contentBlocks(block, name), ...controls] };
}

/** What a block shows: headings and paragraphs as fields, the rest as they read. */
function contentBlocks(block: Block, name: string): ViewBlock[] {
  const on = { blockId: block.id };
  const key = (what: string): string => `block ${block.id} ${what}`;
  switch (block.type) {
    case 'heading':
      return [
        { type: 'field', label: `${name} heading`, key: key('heading'), value: plainText(block.runs), op: { type: 'set_text', ...on }, field: 'text', input: 'text' },
        { type: 'field', label: `${name} heading level`, key: key('heading level'), value: block.level, op: { type: 'set_heading_level', ...on }, field: 'level', input: 'number', min: 1, max: 3 },
      ];
    case 'paragraph':
      return [{ type: 'field', label: `${name} paragraph`, key: key('paragraph'), value: plainText(block.runs), op: { type: 'set_text', ...on }, field: 'text', input: 'textarea' }];
    case 'list':
      return [{ type: 'list', ordered: block.ordered, items: block.items.map((item) => `${'  '.repeat(item.level)}${plainText(item.runs)}`) }];
    case 'table':
      return [tableBlock(block.table)];
    case 'image':
      return [{ type: 'paragraph', text: `[image: ${block.image.alt || 'no description'}]` }];
    case 'page_break':
      return [{ type: 'paragraph', text: '[page break]' }];
  }
}
