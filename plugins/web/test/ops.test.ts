// Invariant: every web.app op either yields the expected files without mutating its input, or is
// refused with `invalid_op` and a message that says what to do: a path that leaves the app
// (`../x`, `/x`, `a\b`), a file over the per-file or total size limit (a 50 MB file is refused
// before anything else looks at it), a patch whose snippet is missing or not unique, an op on a
// file that does not exist, deleting the entry.
import { isCoworkError } from '@cowork/host';
import { MAX_FILES, MAX_FILE_BYTES, MAX_TOTAL_BYTES } from '../src/app/content';
import { applyWebAppOp, validateWebAppOp, type WebAppOp } from '../src/app/ops';
import { app } from './app';

function rejection(op: WebAppOp, start = app()): { code: unknown; message: string } {
  try {
    applyWebAppOp(start, op);
  } catch (error) {
    if (isCoworkError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error(`${op.type} was not refused`);
}

describe('web.app ops', () => {
  it('put_file creates and replaces text and binary files without touching the input', () => {
    const before = app();
    const added = applyWebAppOp(before, { type: 'put_file', path: 'js/extra.js', text: 'export {};\n' });
    expect(added.files['js/extra.js']).toEqual({ text: 'export {};\n' });
    const replaced = applyWebAppOp(added, { type: 'put_file', path: 'app.js', text: 'console.log(1);\n' });
    expect(replaced.files['app.js']).toEqual({ text: 'console.log(1);\n' });
    const binary = applyWebAppOp(replaced, { type: 'put_file', path: 'data.bin', base64: 'AAEC', mediaType: 'application/x-demo' });
    expect(binary.files['data.bin']).toEqual({ base64: 'AAEC', mediaType: 'application/x-demo' });
    expect(before).toEqual(app());
  });

  it('patch_file replaces the one occurrence of the snippet', () => {
    const after = applyWebAppOp(app(), { type: 'patch_file', path: 'app.js', find: "'ready'", replace: "'set'" });
    expect((after.files['app.js'] as { text: string }).text).toBe("const out = document.getElementById('out');\nout.textContent = 'set';\n");
  });

  it('patches of different parts of one file apply in either order to the same result', () => {
    const first: WebAppOp = { type: 'patch_file', path: 'app.js', find: "getElementById('out')", replace: "querySelector('#out')" };
    const second: WebAppOp = { type: 'patch_file', path: 'app.js', find: "'ready'", replace: "'done'" };
    const one = applyWebAppOp(applyWebAppOp(app(), first), second);
    expect(applyWebAppOp(applyWebAppOp(app(), second), first)).toEqual(one);
    expect((one.files['app.js'] as { text: string }).text).toBe("const out = document.querySelector('#out');\nout.textContent = 'done';\n");
  });

  it('rename_file moves a file, and the entry follows its page', () => {
    const moved = applyWebAppOp(app(), { type: 'rename_file', from: 'app.js', to: 'js/main.js' });
    expect(Object.keys(moved.files).sort()).toEqual(['css/style.css', 'img/pixel.png', 'index.html', 'js/main.js']);
    const entry = applyWebAppOp(app(), { type: 'rename_file', from: 'index.html', to: 'home.html' });
    expect(entry.entry).toBe('home.html');
  });

  it('delete_file removes a file and set_entry picks another page', () => {
    const deleted = applyWebAppOp(app(), { type: 'delete_file', path: 'css/style.css' });
    expect(Object.keys(deleted.files)).not.toContain('css/style.css');
    const withPage = applyWebAppOp(app(), { type: 'put_file', path: 'about.html', text: '<p>about</p>' });
    expect(applyWebAppOp(withPage, { type: 'set_entry', path: 'about.html' }).entry).toBe('about.html');
  });

  it.each<[string, WebAppOp, RegExp]>([
    ['a path escaping the app', { type: 'put_file', path: '../x', text: 'x' }, /"\.\.\/x" contains "\.\.", which would leave the app/],
    ['a nested escape', { type: 'put_file', path: 'js/../../x.js', text: 'x' }, /would leave the app/],
    ['an absolute path', { type: 'put_file', path: '/etc/passwd', text: 'x' }, /is absolute; give it relative to the app's root/],
    ['a backslash', { type: 'put_file', path: 'js\\app.js', text: 'x' }, /backslash/],
    ['an empty segment', { type: 'put_file', path: 'js//app.js', text: 'x' }, /empty segment/],
    ['odd characters', { type: 'put_file', path: 'my app.js', text: 'x' }, /characters other than/],
    ['a path over 200 characters', { type: 'put_file', path: `${'a'.repeat(201)}.js`, text: 'x' }, /204 characters; the limit is 200/],
    ['a rename out of the app', { type: 'rename_file', from: 'app.js', to: '../app.js' }, /would leave the app/],
    ['both text and base64', { type: 'put_file', path: 'x.js', text: 'x', base64: 'AAAA' }, /exactly one of text/],
    ['neither text nor base64', { type: 'put_file', path: 'x.js' }, /exactly one of text/],
    ['broken base64', { type: 'put_file', path: 'x.png', base64: 'not base64!' }, /not standard padded base64/],
    ['a media type on text', { type: 'put_file', path: 'x.js', text: 'x', mediaType: 'text/plain' }, /drop mediaType/],
    ['a media type with a line break', { type: 'put_file', path: 'x.bin', base64: 'AAAA', mediaType: 'text/html\r\nX-Evil: 1' }, /is not a media type/],
    ['a patch whose snippet is missing', { type: 'patch_file', path: 'app.js', find: 'not in the file', replace: 'x' }, /does not occur in "app\.js"; read the file again/],
    ['a patch whose snippet occurs three times', { type: 'patch_file', path: 'app.js', find: 'out', replace: 'x' }, /occurs 3 times in "app\.js"; include more of the surrounding text/],
    ['an empty snippet', { type: 'patch_file', path: 'app.js', find: '', replace: 'x' }, /non-empty find/],
    ['a patch of a binary file', { type: 'patch_file', path: 'img/pixel.png', find: 'A', replace: 'B' }, /binary file; replace it with put_file/],
    ['a patch of a missing file', { type: 'patch_file', path: 'nope.js', find: 'a', replace: 'b' }, /no file "nope\.js" in the app; it has app\.js, css\/style\.css/],
    ['deleting the entry', { type: 'delete_file', path: 'index.html' }, /is the entry; set_entry to another HTML file/],
    ['deleting a missing file', { type: 'delete_file', path: 'gone.css' }, /no file "gone\.css"/],
    ['renaming onto an existing file', { type: 'rename_file', from: 'app.js', to: 'index.html' }, /already exists/],
    ['renaming the entry to a script', { type: 'rename_file', from: 'index.html', to: 'index.js' }, /must stay an HTML file/],
    ['a file where a folder is', { type: 'put_file', path: 'css', text: 'x' }, /clashes with "css\/style\.css"/],
    ['a file inside a file', { type: 'put_file', path: 'app.js/x.js', text: 'x' }, /clashes with "app\.js"/],
    ['a script as the entry', { type: 'set_entry', path: 'app.js' }, /must be an HTML file/],
  ])('refuses %s with invalid_op and says why', (_name, op, message) => {
    const refused = rejection(op);
    expect(refused.code).toBe('invalid_op');
    expect(refused.message).toMatch(message);
  });

  it('refuses a 50 MB file before anything else, naming its size and the limit', () => {
    const op: WebAppOp = { type: 'put_file', path: 'video.js', text: 'x'.repeat(50 * 1024 * 1024) };
    expect(validateWebAppOp(op)).toEqual([
      `file "video.js" is 52,428,800 bytes (50.0 MiB); a web.app file may be at most 1,048,576 bytes (1.0 MiB). Make it smaller (compress the image, split the script) or leave it out`,
    ]);
    expect(rejection(op).code).toBe('invalid_op');
    const binary = rejection({ type: 'put_file', path: 'big.png', base64: 'A'.repeat(Math.ceil((MAX_FILE_BYTES + 3) / 3) * 4) });
    expect(binary.message).toMatch(/"big\.png" is 1,048,5\d\d bytes/);
  });

  it('refuses a patch that makes a file too large', () => {
    const start = applyWebAppOp(app(), { type: 'put_file', path: 'big.js', text: `${'x'.repeat(MAX_FILE_BYTES - 10)}MARK` });
    expect(rejection({ type: 'patch_file', path: 'big.js', find: 'MARK', replace: 'y'.repeat(100) }, start).message).toMatch(/at most 1,048,576 bytes/);
  });

  it('refuses a file that takes the app over its total size, and a file past the count limit', () => {
    let big = app();
    for (let i = 0; i < MAX_TOTAL_BYTES / MAX_FILE_BYTES - 1; i++) {
      big = applyWebAppOp(big, { type: 'put_file', path: `data/${i}.txt`, text: 'x'.repeat(MAX_FILE_BYTES) });
    }
    expect(rejection({ type: 'put_file', path: 'data/last.txt', text: 'x'.repeat(MAX_FILE_BYTES) }, big).message).toMatch(
      /would hold 4,194,\d{3} bytes \(4\.0 MiB\); a web.app may hold at most 4,194,304 bytes \(4\.0 MiB\) in all/,
    );
    let many = app();
    for (let i = Object.keys(many.files).length; i < MAX_FILES; i++) many = applyWebAppOp(many, { type: 'put_file', path: `f/${i}.txt`, text: '' });
    expect(rejection({ type: 'put_file', path: 'one-more.txt', text: '' }, many).message).toMatch(/already has 200 files/);
    // Replacing a file is no new file: it is still allowed at the limit.
    expect(applyWebAppOp(many, { type: 'put_file', path: 'app.js', text: '' }).files['app.js']).toEqual({ text: '' });
  });
});
