import { createHash } from 'node:crypto';
import { closeSync, createReadStream, readFileSync, statSync, type BigIntStats } from 'node:fs';
import { isCoworkError } from '../errors';
import { FileMemo } from '../util/file-memo';
import { openContained } from '../util/paths';
import type { Json } from '../store/records';
import { sha256Hex } from './hash';
import type { Observer } from './observer';

/** Files up to this size are read in one call; larger ones are hashed as a stream. */
const READ_WHOLE_BYTES = 1024 * 1024;
/**
 * A file's content: `{exists: false}`, or `{exists: true, size, sha256}`. Something that is not a
 * regular file, or resolves outside the workspace, is `{error: ...}`. Unchanged polls cost one
 * `stat` (no read, no hash) once the file has been still for a couple of seconds.
 */
export function fileObserver(target: { path: string }, workspaceDir: string): Observer {
  // A file changed in the last RACY_MS is hashed again even when its stat looks unchanged.
  const memo = new FileMemo<Json>();
  return {
    async observe(): Promise<Json> {
      let stats: BigIntStats;
      try {
        stats = statSync(target.path, { bigint: true });
      } catch (error) {
        memo.clear();
        const code = (error as NodeJS.ErrnoException).code;
        return code === 'ENOENT' || code === 'ENOTDIR' ? { exists: false } : { exists: false, error: code ?? 'stat_failed' };
      }
      if (!stats.isFile()) return { exists: true, error: 'not_a_file' };
      const kept = memo.get(stats);
      if (kept !== undefined) return kept;
      const observation = await hashFile(target.path, workspaceDir, Number(stats.size));
      memo.set(stats, observation);
      return observation;
    },
  };
}

async function hashFile(path: string, workspaceDir: string, size: number): Promise<Json> {
  let fd: number;
  try {
    // A symlink may point out of the workspace after the monitor was created: the file is checked
    // again and opened without following a last symlink, and the open descriptor's real path is
    // checked too, so a swap between the check and the read is caught (util/paths openContained).
    fd = resolveOpen(path, workspaceDir);
  } catch (error) {
    if (isCoworkError(error)) return { exists: true, error: 'outside_workspace' };
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return { exists: true, error: 'outside_workspace' };
    return code === 'ENOENT' ? { exists: false } : { exists: true, error: code ?? 'read_failed' };
  }
  try {
    if (size <= READ_WHOLE_BYTES) {
      const bytes = readFileSync(fd);
      return { exists: true, size: bytes.length, sha256: sha256Hex(bytes) };
    }
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const chunk of createReadStream('', { fd, autoClose: false }) as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      hash.update(chunk);
    }
    return { exists: true, size: bytes, sha256: hash.digest('hex') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? { exists: false } : { exists: true, error: code ?? 'read_failed' };
  } finally {
    closeSync(fd);
  }
}

function resolveOpen(path: string, workspaceDir: string): number {
  return openContained(workspaceDir, path, 'path', { baseName: 'the workspace', outsideReason: 'outside_workspace' }).fd;
}
