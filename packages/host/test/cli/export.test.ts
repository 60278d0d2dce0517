/**
 * Invariant: `cowork resources export` writes what the kind's exporter makes to a file (default
 * name in the current directory, or --out), at the newest or a given revision; an unknown format
 * exits 2 with `unknown_format` and writes no file. `cowork resources import` is the way back: a
 * file becomes a new resource; a file the importer cannot read exits 2 with `invalid_file` and
 * creates nothing.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, workspaceCli } from './cli-harness';

describe('cowork resources export', () => {
  const dir = tempDir();
  afterAll(() => dir.cleanup());
  const workspace = join(dir.path, 'ws');
  const { run, json } = workspaceCli(workspace, { cwd: dir.path });

  it('exports a text resource to a file, at any revision', async () => {
    const { id } = await json<{ id: string }>('resources', 'create', '--kind', 'text', '--content', '{"text":"first"}');
    await json('resources', 'commit', id, '--base', '0', '--op', '{"type":"set","text":"second"}', '--operator', 'human:ann');
    const written = await json<{ path: string; bytes: number; revision: number }>('resources', 'export', id, '--format', 'txt');
    expect(written).toMatchObject({ path: join(dir.path, `${id}-r1.txt`), bytes: 6, revision: 1 });
    expect(readFileSync(written.path, 'utf8')).toBe('second');
    const old = await json<{ path: string }>('resources', 'export', id, '--format', 'txt', '--revision', '0', '--out', 'old.txt');
    expect(readFileSync(old.path, 'utf8')).toBe('first');

    const before = readdirSync(dir.path);
    const unknown = await run('resources', 'export', id, '--format', 'pdf');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^error unknown_format: /);
    expect(readdirSync(dir.path)).toEqual(before);
    expect(existsSync(join(dir.path, `${id}-r1.pdf`))).toBe(false);
  });

  it('imports a file as a new resource, and creates nothing from an unreadable one', async () => {
    writeFileSync(join(dir.path, 'notes.txt'), 'brought in');
    const created = await json<{ id: string; kind: string; revision: number }>('resources', 'import', 'notes.txt', '--kind', 'text', '--operator', 'human:ann');
    expect(created).toMatchObject({ kind: 'text', revision: 0 });
    expect(await json('resources', 'show', created.id)).toMatchObject({ content: { text: 'brought in' } });

    writeFileSync(join(dir.path, 'binary.txt'), Buffer.from([0xff, 0xfe, 0x00, 0xc3]));
    const before = await json<{ resources: unknown[] }>('resources', 'list');
    const bad = await run('resources', 'import', 'binary.txt', '--kind', 'text');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error invalid_file: the file is not UTF-8 text/);
    const missing = await run('resources', 'import', 'nope.txt', '--kind', 'text');
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringMatching(/^error invalid_input: cannot read/)]);
    expect(await json('resources', 'list')).toEqual(before);
  });
});
