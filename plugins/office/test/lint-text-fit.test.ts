// Invariant: the text-fit estimate counts lines from characters, font size and the usable width
// (box less insets and indent), one more per line break, at 1.2 x the font size each, and calls
// text overflowing only past the box's usable height (with a 5 % tolerance).
import type { TextBox } from '../src/lint/pptx-boxes';
import { estimateTextFit } from '../src/lint/text-fit';

function box(h: number, paragraphs: { text: string; fontPt?: number; bold?: boolean; indentPt?: number }[]): TextBox {
  return {
    name: 'Text 1',
    rect: { x: 0, y: 0, w: 214.4, h },
    insets: { left: 7.2, top: 3.6, right: 7.2, bottom: 3.6 },
    paragraphs: paragraphs.map((p) => ({ fontPt: 20, bold: false, indentPt: 0, ...p })),
  };
}

describe('text fit estimate', () => {
  it('wraps at the usable width: 20 characters of 20 pt text per 200 pt line', () => {
    expect(estimateTextFit(box(100, [{ text: 'x'.repeat(20) }])).lines).toBe(1);
    expect(estimateTextFit(box(100, [{ text: 'x'.repeat(21) }])).lines).toBe(2);
    expect(estimateTextFit(box(100, [{ text: 'x'.repeat(20), indentPt: 20 }])).lines).toBe(2);
    expect(estimateTextFit(box(100, [{ text: 'x'.repeat(20), bold: true }])).lines).toBe(2);
    expect(estimateTextFit(box(100, [{ text: 'short\nbreak' }, { text: '' }])).lines).toBe(3);
  });

  it('overflows only past the usable height, with the tolerance', () => {
    // Three lines of 20 pt need 72 pt; the box offers its height less 7.2 pt of insets.
    const three = [{ text: 'a' }, { text: 'b' }, { text: 'c' }];
    const exact = estimateTextFit(box(79.2, three));
    expect([exact.lines, exact.neededPt, exact.availablePt, exact.overflows]).toEqual([3, expect.closeTo(72), expect.closeTo(72), false]);
    expect(estimateTextFit(box(76, three)).overflows).toBe(false); // 68.8 pt, within 5 %
    expect(estimateTextFit(box(70, three)).overflows).toBe(true);
  });
});
