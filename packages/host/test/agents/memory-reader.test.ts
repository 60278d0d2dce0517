/**
 * Invariant: MemoryReader answers what readMemory would read now. It skips the read only while the
 * file is the same one, unchanged: a new file (writeMemory's rename), an edit in place, a file
 * that became a link out of the task, or one that is gone are all seen on the next read.
 */
import { mkdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryReader, readMemory, writeMemory } from '../../src/agents/memory';
import { taskPaths } from '../../src/agents/task-files';
import { tempDir } from '../support/temp-host';

describe('MemoryReader', () => {
  let dir: { path: string; cleanup: () => void };
  beforeEach(() => (dir = tempDir('cowork-memory-reader-')));
  afterEach(() => dir.cleanup());

  it('follows every change of memory.md, and reads nothing through a link', () => {
    mkdirSync(join(dir.path, 'tasks'), { recursive: true });
    const paths = taskPaths(dir.path, 't1');
    mkdirSync(paths.root, { recursive: true });
    const reader = new MemoryReader(paths);
    expect(reader.read()).toBeNull();

    writeMemory(paths, 'first');
    expect(reader.read()).toBe('first');
    expect(reader.read()).toBe('first');
    writeMemory(paths, 'other'); // the same size, a new file
    expect(reader.read()).toBe('other');

    // Edited in place (same inode): its size and times change.
    writeFileSync(paths.memory, 'edited in place, longer');
    expect(reader.read()).toBe('edited in place, longer');

    // Replaced by a link to a file outside the task: refused, as readMemory refuses it.
    const outside = join(dir.path, 'secret.txt');
    writeFileSync(outside, 'not memory');
    unlinkSync(paths.memory);
    symlinkSync(outside, paths.memory);
    expect(readMemory(paths)).toBeNull();
    expect(reader.read()).toBeNull();

    rmSync(paths.memory);
    expect(reader.read()).toBeNull();
    writeMemory(paths, 'back');
    expect(reader.read()).toBe('back');
  });
});
