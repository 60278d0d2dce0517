import { splitPieces } from '../src/tokens';
import { py } from './support';

// The model's own tokenizer: python/pieces.py trains and serves with it, src/tokens.ts counts with it.
describe("the trainer model's pieces", () => {
  const text = [
    '<|user|>\nAppend the line "cedar 2210" to res_0mx57a3jy8c; café — naïve 🙂 ok?<|end|>\n',
    '<|call|>{"name":"finish","arguments":{"summary":"Committed \\"cedar 2210\\" as revision 4.\\nDone \\u00e9"}}<|end|>',
    '\t  <|not a marker|> <|pad|> snake_case_42 x\r\ny',
  ].join('');

  test('split a text into pieces that join back to it exactly, the same in Python and TypeScript', () => {
    const python = JSON.parse(py('import json, pieces; print(json.dumps(pieces.split(sys.stdin.read())))', text)) as string[];
    expect(python.join('')).toBe(text);
    expect(splitPieces(text)).toEqual(python);
    // Markers, escapes and identifiers are one piece each; everything else one character.
    expect(python).toEqual(expect.arrayContaining(['<|user|>', '<|end|>', '<|call|>', '\\"', '\\n', '\\u00e9', 'res_0mx57a3jy8c', '2210', 'snake_case_42', '🙂', ' ']));
    expect(python).not.toContain('<|not a marker|>');
  });

  test('the vocabulary: pieces in enough trajectories, never a numeral, a parent kept in order and extended', () => {
    const out = py(
      [
        'import json, pieces',
        'docs = [pieces.split(t) for t in ["read res_a 42 now", "read res_b 42 later", "read res_c 7 now", "write res_d 7 now"]]',
        'v = pieces.learn_vocabulary(docs, 0.0)',
        'child = pieces.learn_vocabulary([pieces.split(t) for t in ["create it", "create them"]], 0.0, v)',
        'ids, shapes = v.encode(pieces.split("read res_zz 9 now Read"))',
        'print(json.dumps([v.pieces, child.pieces, ids, shapes]))',
      ].join('\n'),
      '',
    );
    const [vocabulary, child, ids, shapes] = JSON.parse(out) as [string[], string[], number[], number[]];
    // " " in 4, "now" and "read" in 3 (then by the piece); "42" and "7" are in 2 but numerals; res_* and the rest in 1.
    expect(vocabulary).toEqual(['<|pad|>', ' ', 'now', 'read']);
    expect(child).toEqual(['<|pad|>', ' ', 'now', 'read', 'create']);
    // Outside the vocabulary a piece is id 0, read by its shape: 4 an identifier, 1 digits, 3 a word.
    expect(ids).toEqual([3, 1, 0, 1, 0, 1, 2, 1, 0]);
    expect(shapes).toEqual([0, 0, 4, 0, 1, 0, 0, 0, 3]);
  });
});
