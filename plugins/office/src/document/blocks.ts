/**
 * Finding and placing blocks by id, and the checks on one block the schema cannot express. The
 * refusals name what exists, so that a model (or a person) can correct the op in one step.
 */
import { rejectOp } from '@cowork/host';
import { imageProblems } from '../shared/image';
import { tableProblems } from '../shared/table';
import { listProblems, type Block, type BlockType, type DocumentContent } from './content';

/** Where a block goes: after the block `after`, or at the start or end (the default). */
export type Placement = { after?: string; at?: 'start' | 'end' };

/** How many ids a refusal lists before it points at the summary instead. */
const LISTED_IDS = 12;

/** Problems inside one block: list nesting, ragged table rows, an image that is not a small png/jpeg/gif. */
export function blockProblems(block: Block): string[] {
  switch (block.type) {
    case 'list':
      return listProblems(block.items);
    case 'table':
      return tableProblems(block.table);
    case 'image':
      return imageProblems(block.image);
    default:
      return [];
  }
}

export function findBlock(doc: DocumentContent, blockId: string): { block: Block; index: number } {
  const index = doc.blocks.findIndex((b) => b.id === blockId);
  const block = doc.blocks[index];
  if (!block) throw rejectOp(`no block with id ${JSON.stringify(blockId)}; ${describeIds(doc.blocks)}`, { blockId });
  return { block, index };
}

/** The blocks with `block` inserted at `placement`; refuses an `after` that names no block. */
export function placeBlock(blocks: readonly Block[], block: Block, placement: Placement): Block[] {
  if (placement.after !== undefined) {
    const at = blocks.findIndex((b) => b.id === placement.after);
    if (at < 0) throw rejectOp(`no block with id ${JSON.stringify(placement.after)} to place after; ${describeIds(blocks)}`, { after: placement.after });
    return [...blocks.slice(0, at + 1), block, ...blocks.slice(at + 1)];
  }
  return placement.at === 'start' ? [block, ...blocks] : [...blocks, block];
}

/** The block narrowed to one of `types`, or a refusal saying which op needs which block type. */
export function requireType<T extends BlockType>(block: Block, opType: string, types: readonly T[]): Extract<Block, { type: T }> {
  if (!(types as readonly BlockType[]).includes(block.type)) {
    throw rejectOp(`block ${JSON.stringify(block.id)} is a ${block.type}; ${opType} applies to ${types.join(' or ')} blocks`, { blockId: block.id, blockType: block.type });
  }
  return block as Extract<Block, { type: T }>;
}

function describeIds(blocks: readonly Block[]): string {
  if (blocks.length === 0) return 'the document has no blocks; insert one first';
  const listed = blocks.slice(0, LISTED_IDS).map((b) => `${b.id} (${b.type})`).join(', ');
  const more = blocks.length > LISTED_IDS ? ` and ${blocks.length - LISTED_IDS} more (the summary lists them by section)` : '';
  return `the document has ${listed}${more}`;
}
