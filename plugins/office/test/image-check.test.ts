// Invariant: an image's problems are what they were when its base64 was matched by a pattern (the
// reference below): a data URI of png, jpeg or gif whose body is the base64 alphabet with at most
// two '=' at its end, a length that is a multiple of 4, at least one byte and at most 5 MB. The
// cheaper check (Node's decoder and encoder) and the memory of large sources checked before give
// the same answer for every source, asked once or again, and for different sources of one length.
import { randomBytes } from 'node:crypto';
import { imageProblems, MAX_IMAGE_BYTES } from '../src/shared/image';

/** The check as it was, pattern and all: the specification the faster one must keep. */
function reference(src: string): string[] {
  const match = /^data:([a-z]+\/[a-z0-9.+-]+);base64,/i.exec(src);
  if (!match) return ['image src must be a base64 data URI such as "data:image/png;base64,iVBOR..."'];
  const mediaType = match[1]!.toLowerCase();
  if (!['image/png', 'image/jpeg', 'image/gif'].includes(mediaType)) return [`image type ${mediaType} is not supported; use image/png, image/jpeg, image/gif`];
  const body = src.slice(match[0].length);
  const padding = body.endsWith('==') ? 2 : body.endsWith('=') ? 1 : 0;
  const bytes = Math.floor((body.length * 3) / 4) - padding;
  const mb = (n: number): string => `${(n / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes > MAX_IMAGE_BYTES) return [`image is ${mb(bytes)} but at most ${mb(MAX_IMAGE_BYTES)} is allowed; scale the image down or compress it and try again`];
  if (body.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(body)) return ['image src is not valid base64 after "base64,"'];
  if (bytes === 0) return ['image src holds no bytes'];
  return [];
}

const PNG = 'data:image/png;base64,';
/** Valid base64 of `bytes` random bytes (a multiple of 3, so no padding). */
const body = (bytes: number): string => randomBytes(bytes).toString('base64');
/** `text` with the character at `at` (negative: from the end) replaced by `char`. */
const put = (text: string, at: number, char: string): string => {
  const i = at < 0 ? text.length + at : at;
  return text.slice(0, i) + char + text.slice(i + 1);
};

describe('image problems', () => {
  const small = [
    '',
    'AAAA',
    'AAA=',
    'AA==',
    'AB==', // bits past the last byte set: the pattern accepts it
    'ABC=',
    'A===',
    '====',
    '=AAA',
    'AA=A',
    'AAAAA',
    'AAAAAA==',
    'AAAA====',
    'AA-A',
    'AA_A',
    'AA A',
    'AA\nA',
    'AAAA\u00e9AAA',
    'AAAA\u4e00AAA',
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  ];

  it.each(small)('judges the small body %j as the pattern did', (text) => {
    expect(imageProblems({ src: PNG + text, alt: '' })).toEqual(reference(PNG + text));
  });

  it.each([
    ['a not-data URI', 'https://example.com/a.png'],
    ['a type other than png, jpeg or gif', 'data:image/webp;base64,AAAA'],
    ['an upper-case type', 'data:IMAGE/JPEG;base64,AAAA'],
    ['an image over the size limit', PNG + 'A'.repeat(Math.ceil(((MAX_IMAGE_BYTES + 3) * 4) / 3 / 4) * 4)],
  ])('judges %s as the pattern did', (_name, src) => {
    expect(imageProblems({ src, alt: '' })).toEqual(reference(src));
  });

  const large = body(300 * 1024);
  it.each<[string, string]>([
    ['valid', large],
    ['valid, one byte of padding', body(300 * 1024 + 2)],
    ['valid, two bytes of padding', body(300 * 1024 + 1)],
    ['"-" at the start', put(large, 0, '-')],
    ['"_" in the middle', put(large, large.length >> 1, '_')],
    ['a space in the middle', put(large, large.length >> 1, ' ')],
    ['a line break every 76 characters', large.replace(/(.{76})/g, '$1\n')],
    ['"=" in the middle', put(large, large.length >> 1, '=')],
    ['"=" in the group before the last', put(large, -5, '=')],
    ['"*" in the last group', put(large, -2, '*')],
    ['a non-Latin character in the middle', put(large, 1000, '\u4e00')],
    ['an "é" near the end', put(large, -7, '\u00e9')],
    ['one character too many', `${large}A`],
    ['three "=" at the end', `${large.slice(0, -3)}===`],
  ])('judges a large body (%s) as the pattern did, asked once and again', (_name, text) => {
    const expected = reference(PNG + text);
    expect(imageProblems({ src: PNG + text, alt: '' })).toEqual(expected);
    // Asked again with an equal string that is another object (as a content read back from JSON is).
    expect(imageProblems({ src: JSON.parse(JSON.stringify(PNG + text)) as string, alt: '' })).toEqual(expected);
  });

  it('tells apart large sources of the same length, one remembered as good', () => {
    const good = PNG + body(200 * 1024);
    const bad = put(good, -10, '!');
    expect(good.length).toBe(bad.length);
    expect(imageProblems({ src: good, alt: '' })).toEqual([]);
    expect(imageProblems({ src: bad, alt: '' })).toEqual(['image src is not valid base64 after "base64,"']);
    expect(imageProblems({ src: good, alt: '' })).toEqual([]);
  });

  it('gives each caller its own list of problems', () => {
    const bad = put(PNG + body(100 * 1024), 50, '!');
    imageProblems({ src: bad, alt: '' }).push('changed by a caller');
    expect(imageProblems({ src: bad, alt: '' })).toEqual(['image src is not valid base64 after "base64,"']);
  });
});
