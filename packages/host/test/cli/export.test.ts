/**
 * Invariant: `cowork resources export` writes what the kind's exporter makes to a file (default
 * name in the current directory, or --out), at the newest or a given revision; an unknown format
 * exits 2 with `unknown_format` and writes no file.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
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
});
