import { isCoworkError, resolveInWorkspace } from '@cowork/host';
import { trainerError } from '../errors';

/**
 * A path a tool was given, resolved inside the workspace by the host's one containment check (real
 * paths, symlinks followed); one that leaves it, or is not a usable path, is refused.
 */
export function insideWorkspace(workspaceDir: string, path: string): string {
  try {
    return resolveInWorkspace(workspaceDir, path, 'path');
  } catch (error) {
    if (!isCoworkError(error) || error.code !== 'invalid_input') throw error;
    const why = error.details['reason'];
    const message = why === 'outside_workspace' ? `${String(path)} is outside the workspace` : error.message;
    throw trainerError('unreadable_input', message, { path: String(path), why: String(why) });
  }
}
