import type { BigIntStats } from 'node:fs';

/**
 * A file changed less than this long ago is not trusted as unchanged even when its stat looks the
 * same: file times are coarse (a few ms), so two same-size writes within one tick look alike
 * ("racy git"). Past this age, an unchanged (device, inode, size, mtime, ctime) means unchanged
 * content.
 */
export const RACY_MS = 2000;

/**
 * What was derived from a file (its hash, its text), kept while the file's stat says it is the
 * same file, unchanged and not changed too recently to tell. The caller stats the file (following
 * links or not, as its reads do) and derives the value again when `get` answers undefined.
 */
export class FileMemo<T> {
  private kept: { readonly signature: string; readonly value: T } | undefined;

  /** The kept value, or undefined when the file may have changed since it was kept. */
  get(stats: BigIntStats, now = Date.now()): T | undefined {
    const kept = this.kept;
    if (!kept || kept.signature !== signatureOf(stats) || now - Number(stats.ctimeMs) <= RACY_MS) return undefined;
    return kept.value;
  }

  set(stats: BigIntStats, value: T): void {
    this.kept = { signature: signatureOf(stats), value };
  }

  clear(): void {
    this.kept = undefined;
  }
}

function signatureOf(stats: BigIntStats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
}
