import { mkdirSync, readFileSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { webcrypto } from 'node:crypto';
import { join } from 'node:path';
import { CoworkError } from '../errors';
import { parseStored, type Json } from '../util/json';

/**
 * Large JSON texts (a content or an op of `thresholdChars` or more: a deck with pictures, an 8 MB
 * text) live in files beside the database, named by their SHA-256, and the database keeps a short
 * reference in their place. `keep` writes such a file before the transaction that refers to it,
 * asynchronously (in libuv's threads: written, fsynced, renamed into place, folder fsynced), so
 * a commit of megabytes holds the event loop and the database's write lock for a few small rows
 * instead of megabytes and their fsync. When `keep` resolves the file is durable, so a transaction
 * that commits a reference to it never points at nothing, crash or not.
 *
 * A reference is a text no JSON starts with (`@value:<sha256>`), so every stored text is read
 * back by one function. A file whose transaction failed is left behind unreferenced: harmless,
 * content-addressed (the same text is one file), and not yet swept.
 */
export class LargeValues {
  constructor(
    private readonly dir: string,
    private readonly thresholdChars: number,
  ) {}

  /** The text to store: as it is when small; when large, a reference to its durable file. */
  async keep(text: string): Promise<string> {
    if (text.length < this.thresholdChars) return text;
    const bytes = Buffer.from(text, 'utf8');
    const hash = Buffer.from(await webcrypto.subtle.digest('SHA-256', bytes)).toString('hex');
    const folder = join(this.dir, hash.slice(0, 2));
    const path = join(folder, hash);
    const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      mkdirSync(folder, { recursive: true });
      const file = await open(temp, 'w');
      try {
        await file.writeFile(bytes);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temp, path);
      await syncFolder(folder);
    } catch (error) {
      // A half-written temporary file would only hold on to the space a full disk needs back.
      await rm(temp, { force: true }).catch(() => undefined);
      throw diskError(error, path);
    }
    return `${REF_PREFIX}${hash}`;
  }

  /** A stored text as JSON: a reference is read from its file. A bound function: repositories pass it on as it is. */
  readonly parse = <T = Json>(stored: string): T => parseStored<T>(this.text(stored));

  /** A stored text as the text it stands for: a reference is read from its file. */
  text(stored: string): string {
    if (!stored.startsWith(REF_PREFIX)) return stored;
    const hash = stored.slice(REF_PREFIX.length);
    try {
      return readFileSync(join(this.dir, hash.slice(0, 2), hash), 'utf8');
    } catch (error) {
      throw new CoworkError('store_failed', `the stored value ${hash} is missing or unreadable in ${this.dir}: ${(error as Error).message}`, { value: hash });
    }
  }
}

const REF_PREFIX = '@value:';

/** Errors that mean the disk is full or failing: the value was not kept, so nothing refers to it. */
const DISK_ERRNOS = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EROFS', 'EFBIG']);

function diskError(error: unknown, path: string): unknown {
  const errno = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof errno !== 'string' || !DISK_ERRNOS.has(errno)) return error;
  return new CoworkError('store_io_error', `a large value could not be written to ${path} (${errno}); the write was not saved`, { errno }, { cause: error });
}

async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
