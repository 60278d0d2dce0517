import { closeSync, existsSync, fstatSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import type { LogLimits } from './job-files';

/**
 * An append-only log file with a size cap: when `path` would pass `maxBytes`, it becomes
 * `path.1` (the older `path.1` becomes `path.2`, and so on up to `keep`; the oldest is dropped),
 * and writing goes on in a fresh `path`. So a job's log takes at most `(keep + 1) * maxBytes` bytes,
 * and the retained text is `path.keep ... path.1, path` in that order. Writes are synchronous: the
 * supervisor does nothing else, and a write that returned is in the file when the supervisor dies.
 */
export class RotatingLog {
  private fd: number;
  private size: number;

  constructor(
    private readonly path: string,
    private readonly limits: LogLimits,
  ) {
    this.fd = openSync(path, 'a');
    this.size = fstatSync(this.fd).size;
  }

  write(chunk: Buffer): void {
    let rest = chunk;
    while (rest.length > 0) {
      if (this.size >= this.limits.maxBytes) this.rotate();
      const part = rest.subarray(0, this.limits.maxBytes - this.size);
      writeAll(this.fd, part);
      this.size += part.length;
      rest = rest.subarray(part.length);
    }
  }

  /** Flushes the file to disk and closes it. */
  close(): void {
    fsyncSync(this.fd);
    closeSync(this.fd);
  }

  private rotate(): void {
    this.close();
    const { keep } = this.limits;
    if (keep === 0) {
      rmSync(this.path, { force: true });
    } else {
      for (let i = keep - 1; i >= 1; i--) {
        if (existsSync(`${this.path}.${i}`)) renameSync(`${this.path}.${i}`, `${this.path}.${i + 1}`);
      }
      renameSync(this.path, `${this.path}.1`);
    }
    this.fd = openSync(this.path, 'a');
    this.size = 0;
  }
}

/** The files of a rotated log that may exist, oldest first. */
export function logFiles(path: string, keep: number): string[] {
  const files: string[] = [];
  for (let i = keep; i >= 1; i--) files.push(`${path}.${i}`);
  files.push(path);
  return files;
}

function writeAll(fd: number, buffer: Buffer): void {
  for (let offset = 0; offset < buffer.length; ) offset += writeSync(fd, buffer, offset);
}
