// Invariant: diffs speak per block id (added, removed, moved, changed, page setup, title) and a
// long document's summary is an outline that accounts for every block, including those before
// the first heading, without quoting paragraph text.
import type { DocumentContent } from '../src';
import { diffDocuments, summarizeDocument } from '../src/document/describe';
import { applyDocumentOp } from '../src/document/ops';
import { longDocument, paragraph, sampleDocument } from './document-fixtures';

describe('office.document summaries and diffs', () => {
  it('describes moves, removals, page and title changes by block id', () => {
    const before = sampleDocument();
    let after = applyDocumentOp(before, { type: 'move_block', blockId: 'closing', at: 'start' });
    after = applyDocumentOp(after, { type: 'delete_block', blockId: 'figures' });
    after = applyDocumentOp(after, { type: 'set_page', orientation: 'landscape' });
    after = applyDocumentOp(after, { type: 'set_title', title: 'Report' });
    after = applyDocumentOp(after, { type: 'insert_list_item', blockId: 'points', item: { runs: [{ text: 'Africa new' }], level: 0 } });
    expect(diffDocuments(before, after).split('\n')).toEqual([
      'title: "Field report" → "Report"',
      'page: A4 portrait, margins 25/20/25/20 mm → A4 landscape, margins 25/20/25/20 mm',
      'removed block 4 [figures] table 3x2 with header: "Region | Sales"',
      'block 1 [closing]: moved from position 5',
      'block 4 [points]: bulleted list of 3 items: "Europe grew", "Germany led", "Asia held steady" → bulleted list of 4 items: "Europe grew", "Germany led", "Asia held steady", "Africa new"',
    ]);
    expect(diffDocuments(before, sampleDocument())).toBe('no changes');

    const edited = applyDocumentOp(applyDocumentOp(before, { type: 'set_cell', blockId: 'figures', row: 2, column: 1, text: '99' }), { type: 'restyle', blockId: 'intro', style: { italic: true } });
    expect(diffDocuments(before, edited).split('\n')).toEqual([
      'block 1 [intro]: heading 1 "Introduction": styles, levels or text beyond this line changed',
      'block 4 [figures]: cell (2, 1) "95" → "99"',
    ]);
  });

  it('outlines a long document, counting the blocks before the first heading', () => {
    const long: DocumentContent = longDocument(12);
    long.blocks.unshift(paragraph('preface', 'A preface nobody reads.'));
    const lines = summarizeDocument(long).split('\n');
    expect(lines[0]).toMatch(/^document "Long document \(12 pages\)", A4 portrait, margins 25\/25\/25\/25 mm; 54 blocks, \d+ words, 11 page breaks$/);
    expect(lines[2]).toBe('(before the first heading): 1 block (1 paragraph), preface');
    expect(lines).toHaveLength(3 + 12);
    expect(lines.join('\n')).not.toContain('preface nobody');
  });
});
