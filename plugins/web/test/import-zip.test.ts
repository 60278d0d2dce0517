// Invariant: a zip a person brings becomes a web.app with exactly its files (one wrapping folder
// unwrapped), and the zip export of that app imports back to the same content; a zip that could
// not be an app (an entry escaping it with `../` or `/`, a 50 MB file, no page to open, not a zip
// at all) is refused as `invalid_file` with a message naming the problem, and creates nothing.
// No header is believed: an entry whose real size or CRC-32 differs from what its headers declare,
// or whose deflate stream is cut short, is refused as `invalid_file` (a bomb claiming 100 bytes is
// stopped, not inflated), and a file named `__proto__` is refused rather than dropped.
import { Zip, ZipDeflate, strToU8, zipSync } from 'fflate';
import { deflateRawSync } from 'node:zlib';
import { isCoworkError } from '@cowork/host';
import { openTempHost, type TempHost, forgeZip, zeroBomb } from '@cowork/host/testkit';
import { plugin, sampleApp, zipWebApp } from '../src';
import { PIXEL_PNG, app } from './app';

describe('web.app zip import', () => {
  let host: TempHost;

  beforeEach(async () => {
    host = await openTempHost({ plugins: [plugin], prefix: 'cowork-web-import-' });
  });

  afterEach(() => host.dispose());

  const importZip = (data: Uint8Array, fileName = 'app.zip') => host.imports.importFile({ kind: 'web.app', data, fileName, operator: 'human:ann' });

  async function refusal(data: Uint8Array): Promise<{ code: unknown; message: string }> {
    try {
      await importZip(data);
    } catch (error) {
      if (isCoworkError(error)) return { code: error.code, message: error.message };
      throw error;
    }
    throw new Error('the import was not refused');
  }

  it('imports a zip wrapped in one folder, text as text and images as base64', async () => {
    const planner = sampleApp('packing-planner');
    const zipped = zipSync({
      'planner/': {},
      'planner/index.html': strToU8((planner.files['index.html'] as { text: string }).text),
      'planner/app.js': strToU8((planner.files['app.js'] as { text: string }).text),
      'planner/style.css': strToU8((planner.files['style.css'] as { text: string }).text),
      'planner/img/pixel.png': Buffer.from(PIXEL_PNG, 'base64'),
      '__MACOSX/planner/._app.js': strToU8('junk'),
    });
    const r = await importZip(zipped);
    expect(r.kind).toBe('web.app');
    expect(r.content).toEqual({ ...planner, files: { ...planner.files, 'img/pixel.png': { base64: PIXEL_PNG } } });
  });

  it('imports its own zip export back to the same content', async () => {
    expect((await importZip(zipWebApp(app()))).content).toEqual(app());
  });

  it.each<[string, () => Uint8Array, RegExp]>([
    ['an entry escaping the app', () => zipSync({ 'index.html': strToU8('<p>x</p>'), '../evil.js': strToU8('x') }), /entry "\.\.\/evil\.js" contains "\.\.", which would leave the app/],
    ['an absolute entry', () => zipSync({ 'index.html': strToU8('<p>x</p>'), '/etc/cron.d/x': strToU8('x') }), /entry "\/etc\/cron\.d\/x" is absolute/],
    ['a 50 MB file', () => zipSync({ 'index.html': strToU8('<p>x</p>'), 'video.mp4': new Uint8Array(50 * 1024 * 1024) }), /entry "video\.mp4" is 52,428,800 bytes \(50\.0 MiB\); a web\.app file may be at most 1,048,576 bytes/],
    ['no page to open', () => zipSync({ 'a.html': strToU8('a'), 'b.html': strToU8('b') }), /no index\.html at its root and several pages \(a\.html, b\.html\)/],
    ['bytes that are no zip', () => strToU8('just some text'), /app\.zip is not a readable zip file/],
  ])('refuses %s as invalid_file and creates nothing', async (_name, make, message) => {
    const refused = await refusal(make());
    expect(refused.code).toBe('invalid_file');
    expect(refused.message).toMatch(message);
    expect(await host.resources.list()).toEqual([]);
  });

  it('imports a zip whose sizes follow each entry (data descriptors), as streaming zip tools write it', async () => {
    const chunks: Uint8Array[] = [];
    const zip = new Zip((error, chunk) => {
      if (error) throw error;
      chunks.push(chunk);
    });
    for (const [path, text] of Object.entries({ 'index.html': '<p>hi</p>', 'app.js': 'let x = 1;\n' })) {
      const file = new ZipDeflate(path);
      zip.add(file);
      file.push(strToU8(text), true);
    }
    zip.end();
    const r = await importZip(Buffer.concat(chunks));
    expect(r.content).toEqual({ entry: 'index.html', files: { 'index.html': { text: '<p>hi</p>' }, 'app.js': { text: 'let x = 1;\n' } } });
  });

  it('keeps files named like built-in JavaScript members as ordinary files', async () => {
    const zipped = forgeZip([
      { name: 'index.html', data: '<p>x</p>' },
      { name: 'constructor', data: 'c' },
      { name: 'toString.js', data: 't' },
      { name: 'hasOwnProperty/valueOf', data: 'v' },
    ]);
    const content = (await importZip(zipped)).content as { files: Record<string, unknown> };
    expect(Object.keys(content.files).sort()).toEqual(['constructor', 'hasOwnProperty/valueOf', 'index.html', 'toString.js']);
    expect([content.files['constructor'], content.files['toString.js']]).toEqual([{ base64: Buffer.from('c').toString('base64') }, { text: 't' }]);
  });

  const page = { name: 'index.html', data: '<p>x</p>' };
  const script = 'let total = 0;\n'.repeat(200);
  it.each<[string, () => Uint8Array, RegExp]>([
    [
      'a 256 MiB bomb of zeros whose headers claim 100 bytes',
      () => forgeZip([page, { name: 'video.mp4', compressed: zeroBomb(256), size: 100 }]),
      /app\.zip is damaged or forged: its entry video\.mp4 inflates to more than the 100 bytes its header declares/,
    ],
    [
      'a stored entry longer than its headers declare',
      () => forgeZip([page, { name: 'app.js', data: script, stored: true, size: 100 }]),
      /its entry app\.js holds 3000 bytes but its header declares 100/,
    ],
    [
      'an entry shorter than its headers declare',
      () => forgeZip([page, { name: 'app.js', data: script, size: script.length + 50 }]),
      /its entry app\.js holds 3000 bytes but its header declares 3050/,
    ],
    [
      'a deflate stream cut short',
      () => forgeZip([page, { name: 'app.js', compressed: deflateRawSync(script).subarray(0, 20), size: script.length }]),
      /its entry app\.js has compressed data that is damaged or cut short/,
    ],
    [
      'an entry whose CRC-32 does not match its data',
      () => forgeZip([page, { name: 'app.js', data: script, crc: 12345 }]),
      /its entry app\.js does not match its CRC-32 checksum/,
    ],
    ['a zip cut short', () => zipWebApp(app()).slice(0, 300), /app\.zip is not a readable zip file/],
    ['a file named __proto__', () => forgeZip([page, { name: '__proto__', data: 'x' }]), /entry "__proto__" has a file or folder named "__proto__", a name JavaScript objects reserve/],
    ['a folder named __proto__', () => forgeZip([page, { name: 'lib/__proto__/a.js', data: 'x' }]), /entry "lib\/__proto__\/a\.js" has a file or folder named "__proto__"/],
  ])('refuses %s as invalid_file and creates nothing', async (_name, make, message) => {
    const refused = await refusal(make());
    expect(refused).toEqual({ code: 'invalid_file', message: expect.stringMatching(message) });
    expect(await host.resources.list()).toEqual([]);
  });
});
