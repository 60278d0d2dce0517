import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-file';

/**
 * A task's folders on disk: working materials, run records and published artifacts live in
 * separate scopes, beside the task's `memory.md`.
 */
export interface TaskPaths {
  readonly root: string;
  readonly memory: string;
  readonly work: string;
  readonly runs: string;
  readonly artifacts: string;
}

export function taskPaths(workspaceDir: string, taskId: string): TaskPaths {
  const root = join(workspaceDir, 'tasks', taskId);
  return {
    root,
    memory: join(root, 'memory.md'),
    work: join(root, 'work'),
    runs: join(root, 'runs'),
    artifacts: join(root, 'artifacts'),
  };
}

export function ensureTaskFolders(paths: TaskPaths): void {
  for (const dir of [paths.work, paths.runs, paths.artifacts]) mkdirSync(dir, { recursive: true });
}

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
