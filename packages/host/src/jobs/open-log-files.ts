import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { logFiles } from './rotating-log';

/** One retained file of a rotated log, open for reading. */
export interface OpenLogFile {
  readonly fd: number;
  /**
   * Which file this is across renames: inode and birth time. The inode alone is not enough: a
   * file dropped by rotation frees its inode, and the next new log file often gets the same number.
   */
  readonly id: string;
  readonly size: number;
}

/** Rotation between listing the files and opening them is retried this often. */
const OPEN_ATTEMPTS = 3;
const CHUNK_BYTES = 1024 * 1024;

/**
 * Opens the retained files of the rotated log at `path` (`path.keep … path.1, path`, oldest first),
 * each once, so that a rename while they are read does not matter. Close them with `closeLogFiles`.
 */
export function openLogFiles(path: string, keep: number): OpenLogFile[] {
  for (let attempt = 1; ; attempt++) {
    const files: OpenLogFile[] = [];
    for (const file of logFiles(path, keep)) {
      let fd: number;
      try {
        fd = openSync(file, 'r');
      } catch {
        continue; // not there (yet, or any more)
      }
      const stats = fstatSync(fd, { bigint: true });
      files.push({ fd, id: `${stats.ino}:${stats.birthtimeNs}`, size: Number(stats.size) });
    }
    // A rotation between two opens shifts the files: open them again.
    const now = logFiles(path, keep)
      .map(identityOf)
      .filter((id): id is string => id !== undefined);
    if (attempt >= OPEN_ATTEMPTS || sameList(now, files.map((f) => f.id))) return files;
    closeLogFiles(files);
  }
}

export function closeLogFiles(files: readonly OpenLogFile[]): void {
  for (const file of files) closeSync(file.fd);
}

/** The file's bytes from `position` up to `end` (its size when it was opened), a chunk at a time. */
export function* readChunks(fd: number, position: number, end: number): Generator<Buffer> {
  for (let at = position; at < end; ) {
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, end - at));
    const bytes = readSync(fd, chunk, 0, chunk.length, at);
    if (bytes === 0) return; // cut short since it was opened: not for a log, which only grows
    yield chunk.subarray(0, bytes);
    at += bytes;
  }
}

/** Everything in the file from `position` to `end`. */
export function readRest(fd: number, position: number, end: number): Buffer {
  return Buffer.concat([...readChunks(fd, position, end)]);
}

function identityOf(path: string): string | undefined {
  try {
    const stats = statSync(path, { bigint: true });
    return `${stats.ino}:${stats.birthtimeNs}`;
  } catch {
    return undefined;
  }
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}
