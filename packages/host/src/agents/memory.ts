import { closeSync, lstatSync, mkdirSync, readFileSync } from 'node:fs';
import { writeFileAtomic } from '../util/atomic-file';
import { FileMemo } from '../util/file-memo';
import { containedPath, openContained } from '../util/paths';
import type { AgentTool } from './agent-tool';
import { defineAgentTool } from './resource-tools';
import type { TaskPaths } from './task-files';

/**
 * A task's memory: `tasks/<id>/memory.md`, written by Main with `update_memory` and always part of
 * its context (requirements, conclusions, unfinished work, next steps), so that it survives
 * compaction and restarts.
 */
export function readMemory(paths: TaskPaths): string | null {
  let fd: number;
  try {
    // Opened inside the task's folder (util/paths openContained): a memory.md that is a symlink out of it is not read.
    fd = openContained(paths.root, 'memory.md', 'memory').fd;
  } catch {
    return null;
  }
  try {
    return readFileSync(fd, 'utf8');
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * memory.md as `readMemory` reads it, read again only when the file may have changed (util/
 * file-memo.ts): Main's context includes it every turn, and most turns it has not changed. The
 * stat is the file's own lstat: the file a kept text belongs to passed the containment checks when
 * it was read, and `writeMemory` renames a new file into place, so every update is a new inode. A
 * missing file costs one lstat.
 */
export class MemoryReader {
  private readonly memo = new FileMemo<string | null>();

  constructor(private readonly paths: TaskPaths) {}

  read(): string | null {
    const stats = lstatSync(this.paths.memory, { bigint: true, throwIfNoEntry: false });
    if (!stats) {
      this.memo.clear();
      return null;
    }
    const kept = this.memo.get(stats);
    if (kept !== undefined) return kept;
    const text = readMemory(this.paths);
    this.memo.set(stats, text);
    return text;
  }
}

/** Replaces memory.md atomically: a crash leaves the old or the new file. */
export function writeMemory(paths: TaskPaths, text: string): void {
  mkdirSync(paths.root, { recursive: true });
  // The rename replaces a symlink at memory.md rather than writing through it; the check refuses one anyway.
  writeFileAtomic(containedPath(paths.root, 'memory.md', 'memory'), text);
}

/** The `update_memory` tool: replaces memory.md. */
export function updateMemoryTool(paths: TaskPaths): AgentTool {
  return defineAgentTool('update_memory', 'Replace memory.md: requirements, conclusions, unfinished work, next steps. It is always in your context.', {
    content: { type: 'string' },
  }, ['content'], async (input) => {
    writeMemory(paths, String(input.content));
    return { saved: true, bytes: Buffer.byteLength(String(input.content)) };
  });
}
