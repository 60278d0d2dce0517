// Invariant: what a model reads of a web.app fits its context and says what matters: the summary
// lists every file with its size and the entry's first lines; the diff names files added, removed
// and renamed and shows a line diff of each changed text file, cut when long; the view frames the
// revision's live URL; and the served file for a path is the one a browser needs (the entry at
// the root, media types by extension, 404 for anything else).
import { diffWebApps, summarizeWebApp, webAppView } from '../src/app/describe';
import { applyWebAppOp } from '../src/app/ops';
import { appFile } from '../src/app/serve';
import { PIXEL_PNG, app } from './app';

describe('web.app summary, diff and view', () => {
  it('summarizes the files, the entry and its first lines', () => {
    const summary = summarizeWebApp(app());
    expect(summary.split('\n').slice(0, 5)).toEqual([
      expect.stringMatching(/^web\.app: 4 files, \d+ B in all; entry index\.html$/),
      '  app.js  71 B, 2 lines',
      '  css/style.css  39 B, 2 lines',
      '  img/pixel.png  70 B, image/png',
      '  index.html  134 B, 5 lines',
    ]);
    expect(summary).toContain('index.html, first 6 of 6 lines:\n  <!doctype html>\n  <title>Demo</title>');
  });

  it('keeps the summary of a long entry to its first 30 lines', () => {
    const long = applyWebAppOp(app(), { type: 'put_file', path: 'index.html', text: Array.from({ length: 500 }, (_, i) => `<p>line ${i}</p>`).join('\n') });
    const summary = summarizeWebApp(long);
    expect(summary).toContain('index.html, first 30 of 500 lines:');
    expect(summary).toContain('<p>line 29</p>');
    expect(summary).not.toContain('<p>line 30</p>');
  });

  it('diffs per file: added, removed, renamed, changed text by line, changed binary by size', () => {
    let after = applyWebAppOp(app(), { type: 'patch_file', path: 'app.js', find: "'ready'", replace: "'set'" });
    after = applyWebAppOp(after, { type: 'rename_file', from: 'css/style.css', to: 'style.css' });
    after = applyWebAppOp(after, { type: 'put_file', path: 'about.html', text: '<p>about</p>\n' });
    after = applyWebAppOp(after, { type: 'put_file', path: 'img/pixel.png', base64: 'AAAA' });
    after = applyWebAppOp(after, { type: 'set_entry', path: 'about.html' });
    expect(diffWebApps(app(), after).split('\n')).toEqual([
      'entry: index.html → about.html',
      'renamed css/style.css → style.css',
      'added about.html (13 B, 1 line)',
      'changed app.js:',
      "    const out = document.getElementById('out');",
      "  - out.textContent = 'ready';",
      "  + out.textContent = 'set';",
      '    ',
      'changed img/pixel.png: 70 B, image/png → 3 B, image/png',
    ]);
    expect(diffWebApps(app(), app())).toBe('no changes');
  });

  it('cuts a long diff and says how much it left out', () => {
    const before = applyWebAppOp(app(), { type: 'put_file', path: 'data.txt', text: Array.from({ length: 300 }, (_, i) => `a${i}`).join('\n') });
    const after = applyWebAppOp(before, { type: 'put_file', path: 'data.txt', text: Array.from({ length: 300 }, (_, i) => `b${i}`).join('\n') });
    const diff = diffWebApps(before, after).split('\n');
    expect(diff.length).toBeLessThanOrEqual(122);
    expect(diff.at(-1)).toMatch(/^ {2}… 480 more lines not shown$/);
  });

  it('views the revision live in a frame, lists the files, and offers its text files for editing', () => {
    const blocks = webAppView(app(), { resourceId: 'res_1', revision: 3 });
    expect(blocks[0]).toEqual({ type: 'frame', url: '/apps/res_1/r/3/', title: 'Web app res_1, revision 3' });
    expect(blocks.at(-1)).toEqual({
      type: 'table',
      header: ['file', 'size', 'type'],
      rows: [
        ['app.js', '71 B', 'text/javascript'],
        ['css/style.css', '39 B', 'text/css'],
        ['img/pixel.png', '70 B', 'image/png'],
        ['index.html (entry)', '134 B', 'text/html'],
      ],
    });
    // Right after the frame, text files are editable in the page as put_file ops, entry first; the picture is not.
    const editable = blocks.slice(1, -1);
    expect(editable.map((b) => b.type === 'editable' && [b.label, b.op, b.field])).toEqual([
      ['index.html', { type: 'put_file', path: 'index.html' }, 'text'],
      ['app.js', { type: 'put_file', path: 'app.js' }, 'text'],
      ['css/style.css', { type: 'put_file', path: 'css/style.css' }, 'text'],
    ]);
    expect(editable[0]).toMatchObject({ text: app().files['index.html'] && (app().files['index.html'] as { text: string }).text });
  });
});

describe('serving a web.app', () => {
  it('answers the entry at the root, files by path with their media type, and nothing else', () => {
    const home = applyWebAppOp(applyWebAppOp(app(), { type: 'rename_file', from: 'index.html', to: 'home.html' }), { type: 'put_file', path: 'docs/index.html', text: '<p>docs</p>' });
    expect(appFile(home, '')).toEqual({ data: home.files['home.html'] && (home.files['home.html'] as { text: string }).text, mediaType: 'text/html; charset=utf-8' });
    expect(appFile(home, 'index.html')?.data).toBe(appFile(home, '')?.data);
    expect(appFile(home, 'docs/')).toEqual({ data: '<p>docs</p>', mediaType: 'text/html; charset=utf-8' });
    expect(appFile(home, 'css/style.css')?.mediaType).toBe('text/css; charset=utf-8');
    const png = appFile(home, 'img/pixel.png');
    expect(png?.mediaType).toBe('image/png');
    expect(Buffer.from(png!.data as Uint8Array)).toEqual(Buffer.from(PIXEL_PNG, 'base64'));
    expect(appFile(home, 'missing.js')).toBeUndefined();
    expect(appFile(home, 'toString')).toBeUndefined();
    expect(appFile(home, '__proto__')).toBeUndefined();
  });

  it('serves a binary file with its own media type when it has one', () => {
    const withType = applyWebAppOp(app(), { type: 'put_file', path: 'data/model', base64: 'AAAA', mediaType: 'model/gltf-binary' });
    expect(appFile(withType, 'data/model')?.mediaType).toBe('model/gltf-binary');
  });
});
