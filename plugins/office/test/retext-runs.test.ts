// Invariant: text edited as plain text keeps the styles of what stayed: the unchanged start and end
// keep their runs, typed characters take the style of the character before them (of the first
// character when typed at the start), and the runs always spell the new text.
import { plainText, retextRuns, type Run } from '../src/shared/runs';

const runs: Run[] = [{ text: 'Sales rose ' }, { text: 'sharply', bold: true }, { text: ' in spring.' }];

describe('retextRuns', () => {
  it.each<[string, string, Run[]]>([
    ['a word changed after the bold one', 'Sales rose sharply in autumn.', [{ text: 'Sales rose ' }, { text: 'sharply', bold: true }, { text: ' in autumn.' }]],
    ['a word changed before it', 'Costs rose sharply in spring.', [{ text: 'Costs rose ' }, { text: 'sharply', bold: true }, { text: ' in spring.' }]],
    ['letters typed at the end of the bold word', 'Sales rose sharplyy in spring.', [{ text: 'Sales rose ' }, { text: 'sharplyy', bold: true }, { text: ' in spring.' }]],
    ['the bold word deleted', 'Sales rose in spring.', [{ text: 'Sales rose in spring.' }]],
    ['everything replaced', 'New', [{ text: 'New' }]],
    ['everything deleted', '', []],
    ['text typed at the start', 'Q2: Sales rose sharply in spring.', [{ text: 'Q2: Sales rose ' }, { text: 'sharply', bold: true }, { text: ' in spring.' }]],
  ])('%s', (_name, text, expected) => {
    const after = retextRuns(runs, text);
    expect(after).toEqual(expected);
    expect(plainText(after)).toBe(text);
  });

  it.each([
    ['same first half', 'a\u{1F601}'],
    ['same second half', 'a\u{1FA00}'],
  ])('never splits a character between two styles when the new one shares its %s', (_name, text) => {
    const after = retextRuns([{ text: 'a' }, { text: '\u{1F600}', italic: true }], text);
    expect(plainText(after)).toBe(text);
    expect(after.filter((run) => /^[\udc00-\udfff]|[\ud800-\udbff]$/.test(run.text))).toEqual([]);
  });
});
