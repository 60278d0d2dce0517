import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A task's folders on disk: working materials, run records and published artifacts live in
 * separate scopes, beside the task's `memory.md` (see memory.ts).
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
