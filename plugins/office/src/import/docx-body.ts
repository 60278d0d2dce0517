/**
 * Turns the children of `w:body` into document blocks: a paragraph becomes a heading (by style),
 * a list item (consecutive paragraphs in one numbering make one list block), or a paragraph;
 * a page break inside a paragraph splits it around a page_break block; a picture becomes an image
 * block; a table becomes a table block of plain-text cells. Ids are `b1`, `b2`, … in order.
 */
import { rejectFile } from '@cowork/host';
import type { Image } from '../shared/image';
import type { Run } from '../shared/runs';
import { MAX_TABLE_COLUMNS, MAX_TABLE_ROWS } from '../shared/table';
import { MAX_LIST_LEVEL, type Alignment, type Block, type ListItem } from '../document/content';
import { paragraphPieces, type Piece, type PictureRef } from './docx-runs';
import { numPrOf, type DocxStyles } from './docx-styles';
import { child, childrenNamed, childrenOf, isOn, tagOf, valOf, type XmlNode } from './docx-xml';

/** Resolves a picture to an image block's image, or to a line of text saying why it was left out. */
export type PictureResolver = (picture: PictureRef) => Image | string;

// A Map, not an object literal: `w:val="constructor"` must not find Object.prototype's members.
const ALIGNMENTS: ReadonlyMap<string, Alignment> = new Map([['left', 'left'], ['start', 'left'], ['center', 'center'], ['right', 'right'], ['end', 'right'], ['both', 'justify'], ['distribute', 'justify']]);

export function bodyBlocks(body: readonly XmlNode[], styles: DocxStyles, resolvePicture: PictureResolver): Block[] {
  const out = new BlockWriter();
  const visit = (nodes: readonly XmlNode[]): void => {
    for (const node of nodes) {
      const tag = tagOf(node);
      if (tag === 'w:p') paragraph(node, styles, resolvePicture, out);
      else if (tag === 'w:tbl') out.table(tableRows(node));
      else if (tag === 'w:sdt') visit(childrenOf(child(childrenOf(node), 'w:sdtContent')));
    }
  };
  visit(body);
  return out.blocks;
}

function paragraph(node: XmlNode, styles: DocxStyles, resolvePicture: PictureResolver, out: BlockWriter): void {
  const parts = childrenOf(node);
  const pPr = childrenOf(child(parts, 'w:pPr'));
  const styleId = valOf(pPr, 'w:pStyle');
  const heading = styles.headingLevel(styleId);
  const numbering = heading === undefined ? styles.numbering(styleId, numPrOf(pPr)) : undefined;
  const align = ALIGNMENTS.get(valOf(pPr, 'w:jc') ?? '');
  if (isOn(pPr, 'w:pageBreakBefore')) out.pageBreak();

  const emitText = (runs: Run[], alone: boolean): void => {
    if (heading !== undefined) {
      if (runs.length > 0) out.push({ id: '', type: 'heading', level: heading, runs });
    } else if (numbering) {
      out.listItem(numbering.numId, styles.isOrdered(numbering), { runs, level: numbering.level });
    } else if (runs.length > 0 || alone) {
      out.push({ id: '', type: 'paragraph', runs, ...(align ? { align } : {}) });
    }
  };
  const pieces = paragraphPieces(parts);
  const onlyText = pieces.every((p) => p.kind === 'run');
  let runs: Run[] = [];
  for (const piece of pieces) {
    if (piece.kind === 'run') {
      runs.push(piece.run);
      continue;
    }
    emitText(runs, false);
    runs = [];
    if (piece.kind === 'page_break') out.pageBreak();
    else out.image(resolvePicture(piece.picture));
  }
  // A paragraph that held only a break or a picture leaves no empty paragraph behind it.
  emitText(runs, onlyText);
}

/** Plain-text rows, merged cells repeated as empty cells so every row has the same width. */
function tableRows(node: XmlNode): { header: boolean; rows: string[][] } {
  const rows = childrenNamed(childrenOf(node), 'w:tr');
  const cells = rows.map((tr) =>
    childrenNamed(childrenOf(tr), 'w:tc').flatMap((tc) => {
      const span = Number(valOf(childrenOf(child(childrenOf(tc), 'w:tcPr')), 'w:gridSpan')) || 1;
      return [cellText(childrenOf(tc)), ...Array.from({ length: span - 1 }, () => '')];
    }),
  );
  const width = Math.max(0, ...cells.map((row) => row.length));
  if (width > MAX_TABLE_COLUMNS) {
    throw rejectFile(`a table in the .docx has ${width} columns but at most ${MAX_TABLE_COLUMNS} are supported; split it into narrower tables and import again`, { columns: width });
  }
  const header = rows[0] !== undefined && isOn(childrenOf(child(childrenOf(rows[0]), 'w:trPr')), 'w:tblHeader');
  return { header, rows: cells.filter((row) => row.length > 0).map((row) => [...row, ...Array.from({ length: width - row.length }, () => '')]) };
}

/** A cell's paragraphs (nested tables included), one line each. */
function cellText(nodes: readonly XmlNode[]): string {
  const lines: string[] = [];
  for (const node of nodes) {
    const tag = tagOf(node);
    if (tag === 'w:p') lines.push(paragraphPieces(childrenOf(node)).map((p: Piece) => (p.kind === 'run' ? p.run.text : '')).join(''));
    else if (tag === 'w:tbl' || tag === 'w:tr' || tag === 'w:tc' || tag === 'w:sdt' || tag === 'w:sdtContent') lines.push(cellText(childrenOf(node)));
  }
  return lines.join('\n');
}

/** Collects blocks in order, numbering their ids and grouping list paragraphs into list blocks. */
class BlockWriter {
  readonly blocks: Block[] = [];
  private list: { numIds: Set<string>; block: Extract<Block, { type: 'list' }> } | undefined;

  push(block: Block): void {
    this.list = undefined;
    this.blocks.push({ ...block, id: `b${this.blocks.length + 1}` });
  }

  pageBreak(): void {
    this.push({ id: '', type: 'page_break' });
  }

  image(image: Image | string): void {
    this.push(typeof image === 'string' ? { id: '', type: 'paragraph', runs: [{ text: image }] } : { id: '', type: 'image', image });
  }

  /** Long tables are split into tables of at most MAX_TABLE_ROWS rows, each repeating the header. */
  table({ header, rows }: { header: boolean; rows: string[][] }): void {
    if (rows.length === 0) return;
    const [first, ...rest] = rows;
    const body = header ? rest : rows;
    const size = header ? MAX_TABLE_ROWS - 1 : MAX_TABLE_ROWS;
    for (let at = 0; at === 0 || at < body.length; at += size) {
      this.push({ id: '', type: 'table', table: { header, rows: header && first ? [first, ...body.slice(at, at + size)] : body.slice(at, at + size) } });
    }
  }

  /**
   * Adds an item to the open list, or starts a new list with it. Writers do not keep one numbering
   * per list (LibreOffice gives a list's first item its own restarting numbering, Word's
   * `List Bullet 2` style has a numbering of its own), so an item continues the open list when it
   * is nested, or when its numbering already appears in that list; a top-level item in a new
   * numbering starts a new list.
   */
  listItem(numId: string, ordered: boolean, item: ListItem): void {
    const open = this.list && (item.level > 0 || this.list.numIds.has(numId)) ? this.list : undefined;
    const previous = open?.block.items[open.block.items.length - 1]?.level ?? -1;
    const level = Math.max(0, Math.min(item.level, previous + 1, MAX_LIST_LEVEL));
    if (open) {
      open.block.items.push({ ...item, level });
      open.numIds.add(numId);
      return;
    }
    this.push({ id: '', type: 'list', ordered, items: [{ ...item, level }] });
    this.list = { numIds: new Set([numId]), block: this.blocks[this.blocks.length - 1] as Extract<Block, { type: 'list' }> };
  }
}

