/**
 * Invariant: FileMemo keeps a value only for the same file, unchanged, and changed long enough ago
 * that a same-size write within one coarse timestamp tick could not hide behind the same stat.
 */
import { lstatSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileMemo, RACY_MS } from '../../src/util/file-memo';
import { tempDir } from '../support/temp-host';

describe('FileMemo', () => {
  let dir: { path: string; cleanup: () => void };
  beforeEach(() => (dir = tempDir('cowork-file-memo-')));
  afterEach(() => dir.cleanup());

  it('answers the kept value only past the racy window, and never for another or a changed file', () => {
    const path = join(dir.path, 'f.txt');
    writeFileSync(path, 'one');
    const memo = new FileMemo<string>();
    const stats = lstatSync(path, { bigint: true });
    const changedAt = Number(stats.ctimeMs);
    memo.set(stats, 'one');
    // Just written: not trusted yet; a while later: kept.
    expect(memo.get(stats, changedAt + 1)).toBeUndefined();
    expect(memo.get(stats, changedAt + RACY_MS + 1)).toBe('one');

    // The same size, written in place: its times (or, within one tick, nothing) change; a new file: its inode.
    writeFileSync(join(dir.path, 'g.txt'), 'two');
    renameSync(join(dir.path, 'g.txt'), path);
    const replaced = lstatSync(path, { bigint: true });
    expect(memo.get(replaced, Number(replaced.ctimeMs) + RACY_MS + 1)).toBeUndefined();

    memo.clear();
    expect(memo.get(stats, changedAt + RACY_MS + 1)).toBeUndefined();
  });
});
