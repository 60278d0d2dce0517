import { closeLogFiles, openLogFiles, readChunks } from './open-log-files';

export interface LogMatchCount {
  /** Retained lines that match. */
  readonly matches: number;
  /** The newest of them, or null. */
  readonly lastMatch: string | null;
}

/**
 * What is known of one retained file, read up to `readTo`. Rotation cuts files anywhere, so a line
 * may start in one file and end in a later one: the file keeps the bytes before its first newline
 * (`head`) and after its last (`tail`) to be joined with its neighbours, and counts the lines
 * between them (`inner`) once.
 */
interface FileState {
  readTo: number;
  hasNewline: boolean;
  head: Buffer;
  tail: Buffer;
  innerMatches: number;
  innerLastMatch: string | null;
}

const NEWLINE = 0x0a;

/**
 * Counts the lines of a rotated job log (`path.keep … path.1, path`) that match a pattern, reading
 * only what each file gained since the previous count: a monitor polling a training run's 30 MiB
 * log reads the new lines, not the whole log, on each poll. The count is the one a full read gives
 * (`jobs.logs` with `search`): lines of the retained files joined, the unfinished last line
 * included. Files are followed by identity (inode and birth time), as rotation renames them.
 */
export class LogMatchCounter {
  private readonly files = new Map<string, FileState>();

  constructor(
    private readonly path: string,
    private readonly keep: number,
    private readonly pattern: RegExp,
  ) {}

  count(): LogMatchCount {
    const opened = openLogFiles(this.path, this.keep);
    const retained: FileState[] = [];
    try {
      for (const { fd, id, size } of opened) {
        let state = this.files.get(id);
        if (!state || size < state.readTo) state = emptyState(); // shorter than read: not the file it was
        this.files.set(id, state);
        this.readNew(fd, state, size);
        retained.push(state);
      }
    } finally {
      closeLogFiles(opened);
    }
    const kept = new Set(opened.map((file) => file.id));
    for (const id of [...this.files.keys()]) if (!kept.has(id)) this.files.delete(id);
    return this.total(retained);
  }

  private readNew(fd: number, state: FileState, size: number): void {
    for (const chunk of readChunks(fd, state.readTo, size)) {
      state.readTo += chunk.length;
      let rest = chunk;
      if (!state.hasNewline) {
        const first = chunk.indexOf(NEWLINE);
        if (first === -1) {
          state.head = Buffer.concat([state.head, chunk]);
          continue;
        }
        state.head = Buffer.concat([state.head, chunk.subarray(0, first)]);
        state.hasNewline = true;
        rest = chunk.subarray(first + 1);
      }
      const text = state.tail.length > 0 ? Buffer.concat([state.tail, rest]) : rest;
      const last = text.lastIndexOf(NEWLINE);
      if (last === -1) {
        state.tail = Buffer.from(text);
        continue;
      }
      for (const line of text.subarray(0, last).toString('utf8').split('\n')) {
        if (!this.pattern.test(line)) continue;
        state.innerMatches += 1;
        state.innerLastMatch = line;
      }
      state.tail = Buffer.from(text.subarray(last + 1));
    }
  }

  /** Joins the files' edges into the lines that cross them, and adds up. */
  private total(files: FileState[]): LogMatchCount {
    let matches = 0;
    let lastMatch: string | null = null;
    const test = (line: string): void => {
      if (!this.pattern.test(line)) return;
      matches += 1;
      lastMatch = line;
    };
    let carry: Buffer = Buffer.alloc(0);
    for (const file of files) {
      if (!file.hasNewline) {
        carry = Buffer.concat([carry, file.head]);
        continue;
      }
      test(Buffer.concat([carry, file.head]).toString('utf8'));
      matches += file.innerMatches;
      if (file.innerLastMatch !== null) lastMatch = file.innerLastMatch;
      carry = file.tail;
    }
    if (carry.length > 0) test(carry.toString('utf8'));
    return { matches, lastMatch };
  }
}

function emptyState(): FileState {
  return { readTo: 0, hasNewline: false, head: Buffer.alloc(0), tail: Buffer.alloc(0), innerMatches: 0, innerLastMatch: null };
}
