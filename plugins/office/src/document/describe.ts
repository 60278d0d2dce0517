import { movedIds } from '../shared/moves';
import { plainText } from '../shared/runs';
import type { Block, DocumentContent, PageSetup } from './content';

const TEXT_CHARS = 60;
/** A list's line shows this many items; a diff or summary line stays short for a long list. */
const LISTED_ITEMS = 5;
/** Up to this many blocks the summary lists every block; above it, headings with block counts. */
const FULL_LISTING_BLOCKS = 30;

/**
 * What a model reads: title, page setup and size, then the outline. A short document lists every
 * block with its id and opening words; a long one lists only headings, each with how many blocks
 * of which type its section holds and the range of their ids, so a 30-page document stays a few
 * dozen lines.
 */
export function summarizeDocument(doc: DocumentContent): string {
  const breaks = doc.blocks.filter((b) => b.type === 'page_break').length;
  const head = `document ${quote(doc.title)}, ${pageLine(doc.page)}; ${plural(doc.blocks.length, 'block')}, ${plural(wordCount(doc), 'word')}` +
    (breaks > 0 ? `, ${plural(breaks, 'page break')}` : '');
  if (doc.blocks.length <= FULL_LISTING_BLOCKS) return [head, ...doc.blocks.map((b) => `[${b.id}] ${blockLine(b)}`)].join('\n');
  return [head, 'outline (headings; each section\'s blocks by type and id range):', ...outline(doc.blocks)].join('\n');
}

/** Per-block changes in words, matching blocks by id: added, removed, moved, and what changed inside. */
export function diffDocuments(before: DocumentContent, after: DocumentContent): string {
  const lines: string[] = [];
  if (before.title !== after.title) lines.push(`title: ${quote(before.title)} → ${quote(after.title)}`);
  if (pageLine(before.page) !== pageLine(after.page)) lines.push(`page: ${pageLine(before.page)} → ${pageLine(after.page)}`);
  const old = new Map(before.blocks.map((block, i) => [block.id, { block, index: i }]));
  const now = new Set(after.blocks.map((b) => b.id));
  for (const [id, { block, index }] of old) {
    if (!now.has(id)) lines.push(`removed block ${index + 1} [${id}] ${blockLine(block)}`);
  }
  const moved = movedIds(after.blocks.flatMap((b) => (old.has(b.id) ? [{ id: b.id, from: old.get(b.id)!.index }] : [])));
  after.blocks.forEach((block, index) => {
    const was = old.get(block.id);
    if (!was) {
      lines.push(`added block ${index + 1} [${block.id}] ${blockLine(block)}`);
      return;
    }
    const label = `block ${index + 1} [${block.id}]`;
    if (moved.has(block.id)) lines.push(`${label}: moved from position ${was.index + 1}`);
    if (JSON.stringify(was.block) !== JSON.stringify(block)) lines.push(`${label}: ${blockChange(was.block, block)}`);
  });
  return lines.length === 0 ? 'no changes' : lines.join('\n');
}

/** What changed in one block: table cells by position, else the block's line before and after. */
function blockChange(before: Block, after: Block): string {
  if (before.type === 'table' && after.type === 'table') {
    const cells = changedCells(before.table.rows, after.table.rows);
    if (cells) return cells;
  }
  const [was, now] = [blockLine(before), blockLine(after)];
  return was === now ? `${was}: styles, levels or text beyond this line changed` : `${was} → ${now}`;
}

/** `cell (row, column) "a" → "b"` for a table whose shape stayed, or undefined when rows or columns changed. */
function changedCells(before: readonly string[][], after: readonly string[][]): string | undefined {
  if (before.length !== after.length || before.some((row, r) => row.length !== after[r]?.length)) return undefined;
  const changes = after.flatMap((row, r) => row.flatMap((cell, c) => (cell === before[r]![c] ? [] : [`cell (${r}, ${c}) ${quote(before[r]![c]!)} → ${quote(cell)}`])));
  const shown = changes.slice(0, LISTED_ITEMS).join(', ');
  return changes.length > LISTED_ITEMS ? `${shown} and ${changes.length - LISTED_ITEMS} more cells` : changes.length > 0 ? shown : undefined;
}

/** One line about a block: its type and opening words (or shape, for lists, tables and images). */
export function blockLine(block: Block): string {
  switch (block.type) {
    case 'heading':
      return `heading ${block.level} ${quote(plainText(block.runs))}`;
    case 'paragraph':
      return `paragraph ${quote(plainText(block.runs))}${block.align ? ` (${block.align})` : ''}`;
    case 'list':
    {
      const shown = block.items.slice(0, LISTED_ITEMS).map((i) => quote(plainText(i.runs)));
      const more = block.items.length > LISTED_ITEMS ? ', …' : '';
      return `${block.ordered ? 'numbered' : 'bulleted'} list of ${plural(block.items.length, 'item')}: ${shown.join(', ')}${more}`;
    }
    case 'table': {
      const { rows } = block.table;
      return `table ${rows.length}x${rows[0]?.length ?? 0}${block.table.header ? ' with header' : ''}: ${quote((rows[0] ?? []).join(' | '))}`;
    }
    case 'image':
      return `image ${quote(block.image.alt)}${block.image.widthIn ? ` ${block.image.widthIn}in wide` : ''}`;
    case 'page_break':
      return 'page break';
  }
}

function outline(blocks: readonly Block[]): string[] {
  const lines: string[] = [];
  // The blocks before the first heading get a line only when there are some.
  let section: { line: string; members: Block[]; heading: boolean } = { line: '(before the first heading)', members: [], heading: false };
  const flush = (): void => {
    if (section.heading || section.members.length > 0) lines.push(`${section.line}: ${sectionShape(section.members)}`);
  };
  for (const block of blocks) {
    if (block.type !== 'heading') {
      section.members.push(block);
      continue;
    }
    flush();
    section = { line: `${'  '.repeat(block.level - 1)}[${block.id}] ${'#'.repeat(block.level)} ${quote(plainText(block.runs))}`, members: [], heading: true };
  }
  flush();
  return lines;
}

function sectionShape(members: readonly Block[]): string {
  if (members.length === 0) return 'no blocks';
  const counts = new Map<string, number>();
  for (const block of members) counts.set(block.type, (counts.get(block.type) ?? 0) + 1);
  const kinds = [...counts].map(([type, n]) => plural(n, type.replace('_', ' '))).join(', ');
  const first = members[0]!.id;
  const last = members[members.length - 1]!.id;
  return `${plural(members.length, 'block')} (${kinds}), ${first === last ? first : `${first} … ${last}`}`;
}

function wordCount(doc: DocumentContent): number {
  const texts = doc.blocks.flatMap((block): string[] => {
    switch (block.type) {
      case 'heading':
      case 'paragraph':
        return [plainText(block.runs)];
      case 'list':
        return block.items.map((item) => plainText(item.runs));
      case 'table':
        return block.table.rows.flat();
      default:
        return [];
    }
  });
  return texts.reduce((sum, text) => sum + (text.match(/\S+/g)?.length ?? 0), 0);
}

function pageLine(page: PageSetup): string {
  const m = page.marginsMm;
  return `${page.size} ${page.orientation}, margins ${m.top}/${m.right}/${m.bottom}/${m.left} mm`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function quote(text: string): string {
  return JSON.stringify(text.length > TEXT_CHARS ? `${text.slice(0, TEXT_CHARS)}…` : text);
}
