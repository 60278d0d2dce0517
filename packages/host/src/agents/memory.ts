import { mkdirSync, readFileSync } from 'node:fs';
import { writeFileAtomic } from '../util/atomic-file';
import type { AgentTool } from './agent-tool';
import { defineAgentTool } from './resource-tools';
import type { TaskPaths } from './task-files';

/**
 * A task's memory: `tasks/<id>/memory.md`, written by Main with `update_memory` and always part of
 * its context (requirements, conclusions, unfinished work, next steps), so that it survives
 * compaction and restarts.
 */
export function readMemory(paths: TaskPaths): string | null {
  try {
    return readFileSync(paths.memory, 'utf8');
  } catch {
    return null;
  }
}

/** Replaces memory.md atomically: a crash leaves the old or the new file. */
export function writeMemory(paths: TaskPaths, text: string): void {
  mkdirSync(paths.root, { recursive: true });
  writeFileAtomic(paths.memory, text);
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
