import { closeSync, constants, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Files that survive a crash whole: each is written to a temp file, fsynced, renamed over the old
 * one and its directory fsynced, so a reader (after power loss too) sees the old file or all of the
 * new one, never a part.
 */

/** Writes `value` as JSON so that `path` holds either the old file or the whole new one, durably. */
export function writeJsonAtomic(path: string, value: unknown): void {
  writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** Writes `text` so that `path` holds either the old file or the whole new one, durably (temp file, fsync, rename, fsync of the directory). */
export function writeFileAtomic(path: string, text: string): void {
  const temp = `${path}.${process.pid}.tmp`; // per process: two writers never share a half-written temp file
  // O_NOFOLLOW: a symlink planted at the temp name is refused (ELOOP), never written through.
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o666);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
  fsyncDir(dirname(path));
}

/** The parsed file, or undefined when it does not exist (yet). */
export function readJsonFile<T>(path: string): T | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return JSON.parse(text) as T;
}

/** Makes a rename or a new file in `dir` durable. */
export function fsyncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
