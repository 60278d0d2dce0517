import { CoworkError } from '../errors';
import { closeLogFiles, openLogFiles, readRest } from './open-log-files';

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
  const files = openLogFiles(path, keep);
  try {
    return Buffer.concat(files.map((file) => readRest(file.fd, 0, file.size)));
  } finally {
    closeLogFiles(files);
  }
}

/** Applies a query to a log's text; a bad regular expression is `invalid_input`. */
export function selectLines(text: string, query: LogQuery): LogSelection {
  const all = splitLines(text).map((line, index) => ({ n: index + 1, text: line }));
  const tail = query.tail ?? all.length;
  if (!Number.isSafeInteger(tail) || tail < 0) {
    throw new CoworkError('invalid_input', 'tail must be a non-negative integer', { field: 'tail', received: tail });
  }
  if (query.search === undefined) return { lines: lastN(all, tail), totalLines: all.length };
  const pattern = compilePattern(query.search);
  const matching = all.filter((line) => pattern.test(line.text));
  return { lines: lastN(matching, tail), totalLines: all.length, matches: matching.length };
}

/**
 * Reads what was appended to a rotated log since the last call, across rotations: the follower
 * remembers the current file by identity, so a file renamed to `path.1` is read to its end before
 * the new `path` is read from the start.
 */
export class LogFollower {
  private id: string | undefined;
  private offset = 0;

  constructor(
    private readonly path: string,
    private readonly keep: number,
  ) {}

  /** New bytes since the previous call (the first call returns the whole retained log). */
  read(): Buffer {
    const files = openLogFiles(this.path, this.keep);
    try {
      const at = files.findIndex((file) => file.id === this.id);
      const parts: Buffer[] = [];
      for (let i = at === -1 ? 0 : at; i < files.length; i++) parts.push(readRest(files[i]!.fd, i === at ? this.offset : 0, files[i]!.size));
      const last = files[files.length - 1];
      if (last) {
        this.offset = (at === files.length - 1 ? this.offset : 0) + (parts[parts.length - 1]?.length ?? 0);
        this.id = last.id;
      }
      return Buffer.concat(parts);
    } finally {
      closeLogFiles(files);
    }
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

/** A search pattern as a regular expression; a bad one is `invalid_input`. */
export function compilePattern(search: string): RegExp {
  try {
    return new RegExp(search);
  } catch (error) {
    throw new CoworkError('invalid_input', `search is not a valid regular expression: ${(error as Error).message}`, {
      field: 'search',
      received: search,
    });
  }
}
