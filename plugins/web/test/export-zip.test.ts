// Invariant: the zip export holds exactly the app's files under their paths, byte for byte
// (unzipped with fflate), and is deterministic: the same content gives the same bytes.
import { unzipSync } from 'fflate';
import { fileData } from '../src/app/content';
import { zipWebApp } from '../src/app/export-zip';
import { app } from './app';

describe('web.app zip export', () => {
  it('round-trips every file', () => {
    const content = app();
    const unzipped = unzipSync(zipWebApp(content));
    expect(Object.keys(unzipped).sort()).toEqual(Object.keys(content.files).sort());
    for (const [path, file] of Object.entries(content.files)) {
      expect(Buffer.from(unzipped[path]!)).toEqual(Buffer.from(fileData(file)));
    }
  });

  it('gives the same bytes for the same content', async () => {
    const first = zipWebApp(app());
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(Buffer.from(zipWebApp(app()))).toEqual(Buffer.from(first));
  });
});
