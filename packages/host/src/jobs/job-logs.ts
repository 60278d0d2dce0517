import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { CoworkError } from '../errors';
import { logFiles } from './rotating-log';

/** One line of a job's retained log; `n` counts from 1 at the oldest retained line. */
export interface LogLine {
  readonly n: number;
  readonly text: string;
}

/** `tail`: the last N lines; with `search` (a regular expression), the last N lines that match. */
export interface LogQuery {
  readonly tail?: number;
  readonly search?: string;
}

export interface LogSelection {
  readonly lines: LogLine[];
  /** Lines in the retained log (rotation drops the oldest files). */
  readonly totalLines: number;
  /** With `search`: how many lines matched in all. */
  readonly matches?: number;
}

/** Everything the rotated log at `path` still holds, oldest first. */
export function readRetainedLog(path: string, keep: number): Buffer {
  return Buffer.concat(logFiles(path, keep).map(readIfExists));
}

/** Applies a query to a log's text; a bad regular expression is `invalid_input`. */
export function selectLines(text: string, query: LogQuery): LogSelection {
  const all = splitLines(text).map((line, index) => ({ n: index + 1, text: line }));
  const tail = query.tail ?? all.length;
  if (!Number.isSafeInteger(tail) || tail < 0) {
    throw new CoworkError('invalid_input', 'tail must be a non-negative integer', { field: 'tail', received: tail });
  }
  if (query.search === undefined) return { lines: lastN(all, tail), totalLines: all.length };
  const pattern = compile(query.search);
  const matching = all.filter((line) => pattern.test(line.text));
  return { lines: lastN(matching, tail), totalLines: all.length, matches: matching.length };
}

/**
 * Reads what was appended to a rotated log since the last call, across rotations: the follower
 * remembers the current file by inode, so a file renamed to `path.1` is read to its end before the
 * new `path` is read from the start.
 */
export class LogFollower {
  private ino: number | undefined;
  private offset = 0;

  constructor(
    private readonly path: string,
    private readonly keep: number,
  ) {}

  /** New bytes since the previous call (the first call returns the whole retained log). */
  read(): Buffer {
    const files = logFiles(this.path, this.keep)
      .map((file) => ({ file, ino: inodeOf(file) }))
      .filter((entry): entry is { file: string; ino: number } => entry.ino !== undefined);
    const at = files.findIndex((entry) => entry.ino === this.ino);
    const parts: Buffer[] = [];
    const from = at === -1 ? 0 : at;
    for (let i = from; i < files.length; i++) {
      const entry = files[i]!;
      parts.push(readFrom(entry.file, i === at ? this.offset : 0));
    }
    const last = files[files.length - 1];
    if (last) {
      this.ino = last.ino;
      this.offset = (at === files.length - 1 ? this.offset : 0) + (parts[parts.length - 1]?.length ?? 0);
    }
    return Buffer.concat(parts);
  }
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function lastN<T>(items: T[], n: number): T[] {
  return n === 0 ? [] : items.slice(-n);
}

function compile(search: string): RegExp {
  try {
    return new RegExp(search);
  } catch (error) {
    throw new CoworkError('invalid_input', `search is not a valid regular expression: ${(error as Error).message}`, {
      field: 'search',
      received: search,
    });
  }
}

function readIfExists(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Buffer.alloc(0);
    throw error;
  }
}

function inodeOf(path: string): number | undefined {
  try {
    return statSync(path).ino;
  } catch {
    return undefined;
  }
}

function readFrom(path: string, offset: number): Buffer {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return Buffer.alloc(0);
  }
  try {
    const chunks: Buffer[] = [];
    for (let position = offset; ; ) {
      const chunk = Buffer.alloc(64 * 1024);
      const bytes = readSync(fd, chunk, 0, chunk.length, position);
      if (bytes === 0) break;
      chunks.push(chunk.subarray(0, bytes));
      position += bytes;
    }
    return Buffer.concat(chunks);
  } finally {
    closeSync(fd);
  }
}
