import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { CoworkError } from '../errors';

/**
 * A path given relative to the workspace (or absolute), resolved and required to stay inside it.
 * The file need not exist yet (a monitor may wait for it to appear); the part that exists has its
 * symlinks resolved before the check.
 */
export function resolveInWorkspace(workspaceDir: string, given: unknown, field: string): string {
  if (typeof given !== 'string' || given.trim() === '' || given.includes('\0')) {
    throw new CoworkError('invalid_input', `${field} must be a non-empty path`, { field });
  }
  const root = realpathSync(workspaceDir);
  const path = realExisting(resolve(root, given));
  if (!isInside(root, path)) {
    throw new CoworkError('invalid_input', `${field} ${JSON.stringify(given)} is outside the workspace ${root}`, {
      field,
      reason: 'outside_workspace',
      workspaceDir: root,
    });
  }
  return path;
}

/** The real path of the longest existing prefix of `path`, with the rest appended. */
function realExisting(path: string): string {
  const rest: string[] = [];
  for (let current = path; ; ) {
    try {
      return resolve(realpathSync(current), ...rest);
    } catch {
      const parent = resolve(current, '..');
      if (parent === current) return path;
      rest.unshift(relative(parent, current));
      current = parent;
    }
  }
}

/** Whether `path` is `root` or below it (both absolute). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}
