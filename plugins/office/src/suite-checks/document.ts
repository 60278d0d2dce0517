/**
 * Checks on a document as Word users would find it: the docx the host exports, opened with
 * python-docx (headings by their Word styles, paragraphs and tables in reading order, numbered
 * lists by their numbering format, the page size), and block counts from the content.
 */
import type { SuiteCheck, SuiteCheckContext } from '@cowork/host';
import type { BlockType } from '../document/content';
import { argsOf, documentOf, inOrder, quote, resourceOf, sameRows, sameTexts, verdict, DOCUMENT } from './common';
import { readDocx, type DocxItem, type DocxView } from './readers';

/** The table marker `docx_order` lists a table by. */
const TABLE_ITEM = '[table]';

async function docxOf(context: SuiteCheckContext, name: string): Promise<DocxView> {
  const record = resourceOf(context, name, [DOCUMENT]);
  return readDocx(await context.exportResource(record.id, 'docx'), context.workDir, context.signal);
}

/** Non-empty paragraphs by their text and tables as `[table]`, in reading order. */
function readingOrder(view: DocxView): string[] {
  return view.body.flatMap((item) => (item.kind === 'table' ? [TABLE_ITEM] : item.text.trim() === '' ? [] : [item.text.trim()]));
}

function headingLevel(item: DocxItem): number | undefined {
  const match = item.kind === 'paragraph' ? /^Heading (\d)$/.exec(item.style) : null;
  return match ? Number(match[1]) : undefined;
}

/** python-docx finds exactly these headings (Word's `Heading N` styles), with these levels, in order. */
const docxOutline: SuiteCheck = async (context, args) => {
  const { resource, headings } = argsOf<{ resource: string; headings: { level: number; text: string }[] }>(args);
  const found = (await docxOf(context, resource)).body.flatMap((item) => {
    const level = headingLevel(item);
    return level !== undefined && item.kind === 'paragraph' ? [{ level, text: item.text.trim() }] : [];
  });
  const ok = found.length === headings.length && found.every((h, i) => h.level === headings[i]!.level && h.text === headings[i]!.text.trim());
  return verdict(ok, `the docx's headings are ${found.map((h) => `H${h.level} ${quote(h.text)}`).join(', ') || 'none'}`);
};

/**
 * These paragraphs (exact texts; `[table]` for a table) come in this order in the docx; with
 * `adjacent`, one right after the other (empty paragraphs aside).
 */
const docxOrder: SuiteCheck = async (context, args) => {
  const { resource, texts, adjacent } = argsOf<{ resource: string; texts: string[]; adjacent?: boolean }>(args);
  const items = readingOrder(await docxOf(context, resource));
  if (adjacent) {
    const start = items.findIndex((_, i) => sameTexts(items.slice(i, i + texts.length), texts));
    return verdict(start >= 0, start >= 0 ? `the docx has ${quote(texts)} one after the other` : `the docx does not have ${quote(texts)} one after the other; it reads ${quote(items)}`);
  }
  const order = inOrder(items, texts);
  return verdict(order.ok, order.ok ? `the docx has ${texts.length} paragraphs in the expected order` : `from ${quote(order.missing)} on, the docx lacks the expected paragraphs or order; it reads ${quote(items)}`);
};

/** The docx's text (paragraphs and table cells) contains each of `contains` and none of `absent`, letter case aside (a phrase may open a sentence). */
const docxText: SuiteCheck = async (context, args) => {
  const { resource, contains = [], absent = [] } = argsOf<{ resource: string; contains?: string[]; absent?: string[] }>(args);
  const view = await docxOf(context, resource);
  const text = view.body.map((item) => (item.kind === 'table' ? item.rows.map((r) => r.join(' | ')).join('\n') : item.text)).join('\n').toLowerCase();
  const missing = contains.filter((t) => !text.includes(t.toLowerCase()));
  const present = absent.filter((t) => text.includes(t.toLowerCase()));
  const problems = [...(missing.length > 0 ? [`lacks ${quote(missing)}`] : []), ...(present.length > 0 ? [`still has ${quote(present)}`] : [])];
  return verdict(problems.length === 0, problems.length === 0 ? 'the docx says what it should' : `the docx ${problems.join(' and ')}`);
};

/** The docx has a list whose paragraphs are exactly `items` (top level), numbered in `format` (`decimal`, `bullet`). */
const docxList: SuiteCheck = async (context, args) => {
  const { resource, items, format } = argsOf<{ resource: string; items: string[]; format: string }>(args);
  const lists: { text: string; format: string | null }[][] = [];
  let current: { text: string; format: string | null }[] | undefined;
  for (const item of (await docxOf(context, resource)).body) {
    if (item.kind === 'paragraph' && item.level !== null) {
      if (!current) lists.push((current = []));
      current.push({ text: item.text.trim(), format: item.format });
    } else current = undefined;
  }
  const match = lists.find((list) => sameTexts(list.map((i) => i.text), items));
  if (!match) return verdict(false, `no list in the docx has exactly ${quote(items)}; its lists: ${quote(lists.map((l) => l.map((i) => i.text)))}`);
  const formats = [...new Set(match.map((i) => i.format))];
  return verdict(formats.length === 1 && formats[0] === format, `the list of ${items.length} items is numbered ${formats.join(', ')}`);
};

/** The `index`th table (default the first) of the docx has exactly these rows. */
const docxTable: SuiteCheck = async (context, args) => {
  const { resource, rows, index = 0 } = argsOf<{ resource: string; rows: string[][]; index?: number }>(args);
  const tables = (await docxOf(context, resource)).body.flatMap((item) => (item.kind === 'table' ? [item.rows] : []));
  const table = tables[index];
  if (!table) return verdict(false, `the docx has ${tables.length} tables; there is no table ${index + 1}`);
  return verdict(sameRows(table, rows), `table ${index + 1} of the docx reads ${quote(table)}`);
};

const PAGE_MM = { A4: [210, 297], Letter: [215.9, 279.4] } as const;

/** The docx's page is this size and orientation (python-docx's section, within a millimetre). */
const docxPage: SuiteCheck = async (context, args) => {
  const { resource, size, orientation } = argsOf<{ resource: string; size: keyof typeof PAGE_MM; orientation: 'portrait' | 'landscape' }>(args);
  const { page } = await docxOf(context, resource);
  const [short, long] = PAGE_MM[size];
  const [width, height] = orientation === 'portrait' ? [short, long] : [long, short];
  const ok = Math.abs(page.widthMm - width) < 1 && Math.abs(page.heightMm - height) < 1 && page.orientation.toLowerCase().includes(orientation);
  return verdict(ok, `the docx's page is ${page.widthMm.toFixed(1)} x ${page.heightMm.toFixed(1)} mm, ${page.orientation}`);
};

/** The document has `count` blocks (of `type` when given). */
const blockCount: SuiteCheck = (context, args) => {
  const { resource, count, type } = argsOf<{ resource: string; count: number; type?: BlockType }>(args);
  const blocks = documentOf(context, resource).blocks.filter((b) => type === undefined || b.type === type);
  return verdict(blocks.length === count, `the document has ${blocks.length} ${type ? `${type} ` : ''}block(s) (${count} expected)`);
};

export const documentChecks = {
  docx_outline: docxOutline,
  docx_order: docxOrder,
  docx_text: docxText,
  docx_list: docxList,
  docx_table: docxTable,
  docx_page: docxPage,
  block_count: blockCount,
} satisfies Record<string, SuiteCheck>;
