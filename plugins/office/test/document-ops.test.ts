// Invariant: every office.document op either yields the expected document without mutating its
// input, or is refused with `invalid_op` whose message names what exists (a block id that does not
// exist, an index out of range, an op on the wrong block type, a duplicate id); content-free
// problems (list nesting, ragged tables, a 50 MB image, ambiguous placement) are caught by validateOp.
import { isCoworkError } from '@cowork/host';
import type { Block, DocumentContent } from '../src';
import { applyDocumentOp, validateDocumentOp, type DocumentOp } from '../src/document/ops';
import { RED_PIXEL_PNG, heading, paragraph, sampleDocument } from './document-fixtures';

const ids = (op: DocumentOp): string[] => applyDocumentOp(sampleDocument(), op).blocks.map((b) => b.id);
const block = (doc: DocumentContent, id: string): Block | undefined => doc.blocks.find((b) => b.id === id);

function refusal(op: DocumentOp, doc: DocumentContent = sampleDocument()): { code: unknown; message: string } {
  try {
    applyDocumentOp(doc, op);
  } catch (error) {
    return { code: isCoworkError(error) && error.code, message: error instanceof Error ? error.message : String(error) };
  }
  return { code: 'applied', message: '' };
}

describe('office.document ops', () => {
  it.each<[string, DocumentOp, string[]]>([
    ['insert_block appends by default', { type: 'insert_block', block: paragraph('new', 'New') }, ['intro', 'summary', 'points', 'figures', 'closing', 'new']],
    ['insert_block at the start', { type: 'insert_block', at: 'start', block: paragraph('new', 'New') }, ['new', 'intro', 'summary', 'points', 'figures', 'closing']],
    ['insert_block after a block', { type: 'insert_block', after: 'summary', block: { id: 'pb', type: 'page_break' } }, ['intro', 'summary', 'pb', 'points', 'figures', 'closing']],
    ['move_block after another', { type: 'move_block', blockId: 'intro', after: 'points' }, ['summary', 'points', 'intro', 'figures', 'closing']],
    ['move_block to the start', { type: 'move_block', blockId: 'closing', at: 'start' }, ['closing', 'intro', 'summary', 'points', 'figures']],
    ['move_block to the end', { type: 'move_block', blockId: 'intro', at: 'end' }, ['summary', 'points', 'figures', 'closing', 'intro']],
    ['delete_block', { type: 'delete_block', blockId: 'points' }, ['intro', 'summary', 'figures', 'closing']],
  ])('%s', (_name, op, expected) => {
    expect(ids(op)).toEqual(expected);
  });

  it.each<[string, DocumentOp, (d: DocumentContent) => unknown, unknown]>([
    ['set_runs on a paragraph', { type: 'set_runs', blockId: 'summary', runs: [{ text: 'Flat', italic: true }] }, (d) => block(d, 'summary'), { id: 'summary', type: 'paragraph', runs: [{ text: 'Flat', italic: true }] }],
    ['set_heading_level', { type: 'set_heading_level', blockId: 'intro', level: 2 }, (d) => block(d, 'intro'), { ...heading('intro', 'Introduction'), level: 2 }],
    ['set_alignment', { type: 'set_alignment', blockId: 'closing', align: 'center' }, (d) => block(d, 'closing'), { ...paragraph('closing', 'Next steps follow.'), align: 'center' }],
    ['restyle a paragraph keeps its text', { type: 'restyle', blockId: 'summary', style: { color: 'FF0000', size: 14 } }, (d) => block(d, 'summary'), {
      id: 'summary', type: 'paragraph', runs: [{ text: 'Sales rose ', color: 'FF0000', size: 14 }, { text: 'sharply', bold: true, color: 'FF0000', size: 14 }, { text: ' in spring.', color: 'FF0000', size: 14 }],
    }],
    ['restyle one list item', { type: 'restyle', blockId: 'points', item: 1, style: { bold: true } }, (d) => block(d, 'points'), {
      id: 'points', type: 'list', ordered: false,
      items: [{ runs: [{ text: 'Europe grew' }], level: 0 }, { runs: [{ text: 'Germany led', bold: true }], level: 1 }, { runs: [{ text: 'Asia held steady' }], level: 0 }],
    }],
    ['set_list_item keeps the level when none is given', { type: 'set_list_item', blockId: 'points', index: 1, runs: [{ text: 'France led' }] }, (d) => block(d, 'points'), {
      id: 'points', type: 'list', ordered: false,
      items: [{ runs: [{ text: 'Europe grew' }], level: 0 }, { runs: [{ text: 'France led' }], level: 1 }, { runs: [{ text: 'Asia held steady' }], level: 0 }],
    }],
    ['insert_list_item at an index', { type: 'insert_list_item', blockId: 'points', at: 2, item: { runs: [{ text: 'Spain too' }], level: 1 } }, (d) => (block(d, 'points') as { items: unknown[] }).items.length, 4],
    ['delete_list_item', { type: 'delete_list_item', blockId: 'points', index: 1 }, (d) => (block(d, 'points') as { items: { level: number }[] }).items.map((i) => i.level), [0, 0]],
    ['set_cell', { type: 'set_cell', blockId: 'figures', row: 2, column: 1, text: '99' }, (d) => block(d, 'figures'), {
      id: 'figures', type: 'table', table: { header: true, rows: [['Region', 'Sales'], ['Europe', '120'], ['Asia', '99']] },
    }],
    ['insert_row appends', { type: 'insert_row', blockId: 'figures', cells: ['Africa', '40'] }, (d) => (block(d, 'figures') as { table: { rows: string[][] } }).table.rows[3], ['Africa', '40']],
    ['delete_row', { type: 'delete_row', blockId: 'figures', row: 1 }, (d) => (block(d, 'figures') as { table: { rows: string[][] } }).table.rows, [['Region', 'Sales'], ['Asia', '95']]],
    ['set_page merges what it gives', { type: 'set_page', orientation: 'landscape', size: 'Letter' }, (d) => d.page, { size: 'Letter', orientation: 'landscape', marginsMm: { top: 25, right: 20, bottom: 25, left: 20 } }],
    ['set_title', { type: 'set_title', title: 'Q3 report' }, (d) => d.title, 'Q3 report'],
  ])('%s changes only its part', (_name, op, pick, expected) => {
    const before = sampleDocument();
    const after = applyDocumentOp(before, op);
    expect(pick(after)).toEqual(expected);
    expect(before).toEqual(sampleDocument());
    expect(after.blocks.map((b) => b.id)).toEqual(before.blocks.map((b) => b.id));
  });

  it.each<[string, DocumentOp, RegExp]>([
    ['set_runs on a missing block', { type: 'set_runs', blockId: 'ghost', runs: [] }, /no block with id "ghost"; the document has intro \(heading\), summary \(paragraph\)/],
    ['delete_block of a missing block', { type: 'delete_block', blockId: 'ghost' }, /no block with id "ghost"/],
    ['move_block of a missing block', { type: 'move_block', blockId: 'ghost', at: 'start' }, /no block with id "ghost"/],
    ['insert_block after a missing block', { type: 'insert_block', after: 'ghost', block: paragraph('n', 'x') }, /no block with id "ghost" to place after/],
    ['move_block after itself', { type: 'move_block', blockId: 'intro', after: 'intro' }, /after itself/],
    ['insert_block with a taken id', { type: 'insert_block', block: paragraph('intro', 'Again') }, /already exists/],
    ['set_runs on a table', { type: 'set_runs', blockId: 'figures', runs: [] }, /block "figures" is a table; set_runs applies to heading or paragraph blocks/],
    ['set_heading_level on a paragraph', { type: 'set_heading_level', blockId: 'summary', level: 2 }, /is a paragraph; set_heading_level applies to heading/],
    ['set_cell on a list', { type: 'set_cell', blockId: 'points', row: 0, column: 0, text: 'x' }, /is a list; set_cell applies to table/],
    ['restyle a table', { type: 'restyle', blockId: 'figures', style: { bold: true } }, /has no styled text/],
    ['restyle an item of a paragraph', { type: 'restyle', blockId: 'summary', item: 0, style: { bold: true } }, /item applies only to lists/],
    ['set_list_item past the end', { type: 'set_list_item', blockId: 'points', index: 3, runs: [] }, /has 3 items \(0 to 2\); item 3 does not exist/],
    ['set_list_item that indents the first item', { type: 'set_list_item', blockId: 'points', index: 0, runs: [], level: 1 }, /list "points": list item 0 has level 1 but may be at most 0/],
    ['insert_list_item past the end', { type: 'insert_list_item', blockId: 'points', at: 9, item: { runs: [], level: 0 } }, /past the end of list "points"/],
    ['delete_list_item that breaks nesting', { type: 'delete_list_item', blockId: 'points', index: 0 }, /list item 0 has level 1 but may be at most 0/],
    ['set_cell past the last column', { type: 'set_cell', blockId: 'figures', row: 0, column: 2, text: 'x' }, /has 2 columns \(0 to 1\)/],
    ['set_cell past the last row', { type: 'set_cell', blockId: 'figures', row: 3, column: 0, text: 'x' }, /has 3 rows \(0 to 2\); row 3 does not exist/],
    ['insert_row of the wrong width', { type: 'insert_row', blockId: 'figures', cells: ['x'] }, /has 2 columns; give insert_row exactly 2 cells/],
    ['delete_row past the end', { type: 'delete_row', blockId: 'figures', row: 7 }, /row 7 does not exist/],
  ])('refuses %s with invalid_op and a message that says what exists', (_name, op, message) => {
    const result = refusal(op);
    expect(result.code).toBe('invalid_op');
    expect(result.message).toMatch(message);
  });

  it('refuses deleting the last list item or table row, pointing at delete_block', () => {
    const doc: DocumentContent = {
      ...sampleDocument(),
      blocks: [
        { id: 'one', type: 'list', ordered: true, items: [{ runs: [{ text: 'only' }], level: 0 }] },
        { id: 'row', type: 'table', table: { header: false, rows: [['a']] } },
      ],
    };
    expect(refusal({ type: 'delete_list_item', blockId: 'one', index: 0 }, doc).message).toMatch(/delete the block instead/);
    expect(refusal({ type: 'delete_row', blockId: 'row', row: 0 }, doc).message).toMatch(/delete the block instead/);
  });

  it('lists only the first ids of a long document in a refusal', () => {
    const doc: DocumentContent = { ...sampleDocument(), blocks: Array.from({ length: 40 }, (_, i) => paragraph(`p${i}`, `P${i}`)) };
    const { message } = refusal({ type: 'delete_block', blockId: 'ghost' }, doc);
    expect(message).toContain('p11 (paragraph) and 28 more');
    expect(message).not.toContain('p12');
  });

  it.each<[string, DocumentOp, RegExp | undefined]>([
    ['a 50 MB image', { type: 'insert_block', block: { id: 'big', type: 'image', image: { src: `data:image/png;base64,${'A'.repeat(Math.ceil((50 * 1024 * 1024 * 4) / 3))}`, alt: 'huge' } } }, /image is 50\.0 MB but at most 5\.0 MB is allowed/],
    ['an image that is not base64', { type: 'insert_block', block: { id: 'bad', type: 'image', image: { src: 'data:image/png;base64,@@@@', alt: 'x' } } }, /not valid base64/],
    ['an svg image', { type: 'insert_block', block: { id: 'svg', type: 'image', image: { src: 'data:image/svg+xml;base64,PHN2Zz4=', alt: 'x' } } }, /image\/svg\+xml is not supported/],
    ['a list that starts indented', { type: 'insert_block', block: { id: 'l', type: 'list', ordered: false, items: [{ runs: [], level: 1 }] } }, /list item 0 has level 1/],
    ['a ragged table', { type: 'insert_block', block: { id: 't', type: 'table', table: { header: false, rows: [['a', 'b'], ['c']] } } }, /table row 1 has 1 cells/],
    ['both after and at', { type: 'insert_block', after: 'intro', at: 'end', block: paragraph('p', 'x') }, /either after or at/],
    ['a set_page that changes nothing', { type: 'set_page' }, /changes nothing/],
    ['add_text both after and at', { type: 'add_text', blockType: 'paragraph', text: 'x', after: 'intro', at: 'end' }, /either after or at/],
    ['an empty paragraph', { type: 'add_text', blockType: 'paragraph', text: '' }, undefined],
    ['a small png', { type: 'insert_block', block: { id: 'ok', type: 'image', image: { src: RED_PIXEL_PNG, alt: 'dot' } } }, undefined],
  ])('validateOp: %s', (_name, op, problem) => {
    const problems = validateDocumentOp(op);
    if (problem) expect(problems.join('\n')).toMatch(problem);
    else expect(problems).toEqual([]);
  });

  it('add_text places a heading or paragraph of plain text with the first free id; set_text refuses blocks that are not text', () => {
    const doc = applyDocumentOp(sampleDocument(), { type: 'add_text', blockType: 'heading', level: 2, text: 'Outlook', after: 'intro' });
    expect(doc.blocks[1]).toEqual({ id: 'heading-1', type: 'heading', level: 2, runs: [{ text: 'Outlook' }] });
    expect(refusal({ type: 'set_text', blockId: 'points', text: 'x' }).message).toBe('block "points" is a list; set_text applies to heading or paragraph blocks');
    expect(refusal({ type: 'add_text', blockType: 'paragraph', text: 'x', after: 'ghost' }).message).toContain('no block with id "ghost" to place after');
  });
});
