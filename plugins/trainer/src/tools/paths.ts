import { isAbsolute, relative, resolve } from 'node:path';
import { trainerError } from '../errors';

/** A path a tool was given, resolved inside the workspace; one that leaves it is refused. */
export function insideWorkspace(workspaceDir: string, path: string): string {
  const full = resolve(workspaceDir, path);
  const rel = relative(workspaceDir, full);
  if (rel.startsWith('..') || isAbsolute(rel)) throw trainerError('unreadable_input', `${path} is outside the workspace`, { path });
  return full;
}
