// Invariant: through a real Host, a file path that names a member of Object.prototype
// ("constructor", "toString", "hasOwnProperty"...) is an ordinary path: an op on it when it does not
// exist is refused and commits nothing, it clashes with a folder of the same name, and it can be
// created, renamed, diffed and deleted. A path with a "__proto__" segment, which a plain object
// cannot hold as a key, is refused as an op (invalid_op) and in a content (invalid_content).
import { isCoworkError } from '@cowork/host';
import { openTempHost, type TempHost } from '@cowork/host/testkit';
import { plugin, type WebApp } from '../src';
import { app } from './app';

describe('web.app paths named like built-in JavaScript members', () => {
  let host: TempHost;
  let id: string;

  beforeEach(async () => {
    host = await openTempHost({ plugins: [plugin], prefix: 'cowork-web-names-' });
    id = (await host.resources.create({ kind: 'web.app', content: app(), operator: 'human:ann' })).id;
  });

  afterEach(() => host.dispose());

  const paths = async (): Promise<string[]> => Object.keys(((await host.resources.get(id)).content as unknown as WebApp).files).sort();

  async function commit(op: unknown): Promise<{ code: string; message: string }> {
    const { revision } = await host.resources.get(id);
    try {
      await host.resources.commit(id, { baseRevision: revision, op, operator: 'agent:a1' });
      return { code: 'ok', message: '' };
    } catch (error) {
      if (isCoworkError(error)) return { code: error.code, message: error.message };
      throw error;
    }
  }

  it.each<[string, unknown, RegExp]>([
    ['delete_file "toString"', { type: 'delete_file', path: 'toString' }, /no file "toString" in the app/],
    ['patch_file "valueOf"', { type: 'patch_file', path: 'valueOf', find: 'a', replace: 'b' }, /no file "valueOf" in the app/],
    ['rename_file from "constructor"', { type: 'rename_file', from: 'constructor', to: 'x.js' }, /no file "constructor" in the app/],
  ])('refuses %s on a missing file and commits nothing', async (_name, op, message) => {
    expect(await commit(op)).toEqual({ code: 'invalid_op', message: expect.stringMatching(message) });
    expect((await host.resources.get(id)).revision).toBe(0);
  });

  it('refuses a file and a folder of the same built-in name, in either order', async () => {
    expect(await commit({ type: 'put_file', path: 'constructor/x.js', text: 'x' })).toEqual({ code: 'ok', message: '' });
    expect(await commit({ type: 'put_file', path: 'constructor', text: 'c' })).toEqual({
      code: 'invalid_op',
      message: expect.stringMatching(/"constructor" clashes with "constructor\/x\.js"/),
    });
    expect(await commit({ type: 'put_file', path: 'toString', text: 't' })).toEqual({ code: 'ok', message: '' });
    expect(await commit({ type: 'put_file', path: 'toString/y.js', text: 'y' })).toEqual({
      code: 'invalid_op',
      message: expect.stringMatching(/"toString\/y\.js" clashes with "toString"/),
    });
    expect(await paths()).toEqual(['app.js', 'constructor/x.js', 'css/style.css', 'img/pixel.png', 'index.html', 'toString']);
  });

  it('creates, renames to, diffs and deletes such files like any other', async () => {
    expect(await commit({ type: 'put_file', path: 'constructor', text: 'c\n' })).toEqual({ code: 'ok', message: '' });
    expect(await commit({ type: 'rename_file', from: 'app.js', to: 'hasOwnProperty' })).toEqual({ code: 'ok', message: '' });
    expect(await commit({ type: 'patch_file', path: 'constructor', find: 'c', replace: 'd' })).toEqual({ code: 'ok', message: '' });
    expect(await commit({ type: 'delete_file', path: 'constructor' })).toEqual({ code: 'ok', message: '' });
    expect(await host.resources.diff(id, 3, 4)).toMatch(/^removed constructor \(/);
    expect(await host.resources.diff(id, 1, 2)).toBe('renamed app.js → hasOwnProperty');
    expect(await paths()).toEqual(['css/style.css', 'hasOwnProperty', 'img/pixel.png', 'index.html']);
  });

  it.each(['__proto__', 'lib/__proto__', '__proto__/a.js'])('refuses the path %s as an op and in a content', async (path) => {
    expect(await commit({ type: 'put_file', path, text: 'x' })).toEqual({ code: 'invalid_op', message: expect.stringMatching(/named "__proto__", a name JavaScript objects reserve; rename it/) });
    expect(await commit({ type: 'rename_file', from: 'app.js', to: path })).toEqual({ code: 'invalid_op', message: expect.stringMatching(/named "__proto__"/) });
    // A computed key makes "__proto__" an own property, as JSON.parse would.
    const content = { entry: 'index.html', files: { 'index.html': { text: '' }, [path]: { text: 'x' } } };
    await expect(host.resources.create({ kind: 'web.app', content, operator: 'human:ann' })).rejects.toMatchObject({ code: 'invalid_content' });
    expect((await host.resources.get(id)).revision).toBe(0);
  });
});
