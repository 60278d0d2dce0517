// Invariant: every path the web plugin takes (an app's file paths in ops and content, a zip entry
// on import, a URL path served to a browser) goes through the host's one containment check
// (containedRelative) besides the plugin's own stricter rules: for every path of the host's hostile
// corpus (@cowork/host/testkit), a path is refused, or names a plain relative file inside the app;
// a zip entry that would leave the app is refused as `invalid_file` and nothing is created.
import { strToU8, zipSync } from 'fflate';
import { isCoworkError } from '@cowork/host';
import { fullCorpus, makePathFixture, openTempHost, type CorpusEntry, type PathFixture, type TempHost } from '@cowork/host/testkit';
import { plugin } from '../src';
import { pathProblem } from '../src/app/paths';
import { appFile } from '../src/app/serve';
import { app } from './app';

let f: PathFixture;
let corpus: CorpusEntry[];

beforeAll(() => {
  f = makePathFixture();
  corpus = fullCorpus(f);
});

afterAll(() => f.cleanup());

function plainInside(path: string): boolean {
  return !path.startsWith('/') && !path.includes('\\') && !path.includes('\0') && path.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

describe('web.app paths against the hostile corpus', () => {
  it('pathProblem refuses every path that is not a plain relative one', () => {
    for (const entry of corpus) {
      const problem = pathProblem(entry.path);
      if (problem === undefined) expect({ path: entry.path, inside: plainInside(entry.path) }).toEqual({ path: entry.path, inside: true });
    }
  });

  it('appFile (the /apps route and the check tool) serves only files of the app', () => {
    const served = app();
    served.files['secret.txt'] = { text: 'inside' };
    for (const entry of corpus) {
      const file = appFile(served, entry.path);
      if (file === undefined) continue;
      // Whatever was served is one of the app's own files, looked up by a contained path.
      expect(Object.values(served.files).some((f) => ('text' in f ? f.text === file.data : true))).toBe(true);
    }
    expect(appFile(served, '%2e%2e/secret.txt')).toBeUndefined();
    expect(appFile(served, 'secret.txt')).toMatchObject({ data: 'inside' });
  });

  describe('zip entries', () => {
    let host: TempHost;
    beforeAll(async () => {
      host = await openTempHost({ plugins: [plugin], prefix: 'cowork-web-paths-' });
    });
    afterAll(() => host.dispose());

    it('an entry named by any corpus path is refused, or lands inside the app', async () => {
      const names = [...new Set(corpus.map((e) => e.path))].filter((p) => p !== 'index.html' && p.length < 60_000);
      for (const name of names) {
        let data: Uint8Array;
        try {
          data = zipSync({ 'index.html': strToU8('<p>x</p>'), [name]: strToU8('x') });
        } catch {
          continue; // fflate cannot write this name (a NUL, a name over 65535 bytes)
        }
        try {
          const created = await host.imports.importFile({ kind: 'web.app', data, fileName: 'app.zip', operator: 'human:ann' });
          const files = Object.keys((created.content as { files: Record<string, unknown> }).files);
          for (const path of files) expect({ name, path, inside: plainInside(path) }).toEqual({ name, path, inside: true });
        } catch (error) {
          expect(isCoworkError(error) && error.code).toBe('invalid_file');
        }
      }
    });
  });
});
