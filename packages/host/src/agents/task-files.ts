import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CoworkError } from '../errors';
import { checkPathText, resolveInWorkspace } from '../util/paths';

/**
 * A task's folders on disk: working materials, run records, artifacts and published results live
 * in separate scopes, beside the task's `memory.md` (see memory.ts).
 */
export interface TaskPaths {
  readonly root: string;
  readonly memory: string;
  readonly work: string;
  readonly runs: string;
  readonly artifacts: string;
  /** Published results: immutable files, one folder per publication (see publications.ts). */
  readonly published: string;
}

/**
 * The task's folders: `tasks/<taskId>` through the one containment check (util/paths), so a task id
 * that is not one plain name, or a `tasks/` folder that is a symlink out of the workspace, is refused.
 */
export function taskPaths(workspaceDir: string, taskId: string): TaskPaths {
  const id = checkPathText(taskId, 'taskId');
  if (id.includes('/') || id === '.' || id === '..') {
    throw new CoworkError('invalid_input', `task id ${JSON.stringify(id)} must be one plain name`, { field: 'taskId', reason: 'not_a_name' });
  }
  const root = resolveInWorkspace(workspaceDir, `tasks/${id}`, 'taskId');
  return {
    root,
    memory: join(root, 'memory.md'),
    work: join(root, 'work'),
    runs: join(root, 'runs'),
    artifacts: join(root, 'artifacts'),
    published: join(root, 'published'),
  };
}

export function ensureTaskFolders(paths: TaskPaths): void {
  for (const dir of [paths.work, paths.runs, paths.artifacts]) mkdirSync(dir, { recursive: true });
}
