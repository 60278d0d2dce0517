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

/** Up to a chunk of the file from `position`; empty at its end. */
export function readChunk(fd: number, position: number): Buffer {
  const chunk = Buffer.alloc(CHUNK_BYTES);
  const bytes = readSync(fd, chunk, 0, chunk.length, position);
  return chunk.subarray(0, bytes);
}

/** Everything in the file from `position`. */
export function readRest(fd: number, position: number): Buffer {
  const chunks: Buffer[] = [];
  for (let at = position; ; ) {
    const chunk = readChunk(fd, at);
    if (chunk.length === 0) return Buffer.concat(chunks);
    chunks.push(chunk);
    at += chunk.length;
  }
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
