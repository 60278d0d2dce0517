// Invariant: a zip a person brings becomes a web.app with exactly its files (one wrapping folder
// unwrapped), and the zip export of that app imports back to the same content; a zip that could
// not be an app (an entry escaping it with `../` or `/`, a 50 MB file, no page to open, not a zip
// at all) is refused as `invalid_file` with a message naming the problem, and creates nothing.
import { strToU8, zipSync } from 'fflate';
import { openTempHost, type TempHost, isCoworkError } from '@cowork/host';
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
});
