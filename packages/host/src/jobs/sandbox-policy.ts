import { mkdirSync, realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CoworkError } from '../errors';
import { isInside } from '../util/paths';
import { JOBS_DIR } from './job-files';
import { findBwrap, type SandboxSpec } from './sandbox';

/**
 * Who gets which sandbox (see sandbox.ts for what it is): an agent's jobs and command monitors are
 * confined to their task's work folder (the tools pass it); a person may confine a job of theirs to
 * a folder they name. Network is never decided here: the caller passes what the grant allows.
 */

/** What a caller asks for: the writable folder (an agent's: its task's work folder) and network. */
export interface SandboxRequest {
  /** Relative to the workspace, or absolute. An agent's is created when missing (`create`). */
  readonly workDir: string;
  readonly network?: boolean;
  /** Create the work folder when it is missing (a task's work folder before the task wrote anything). */
  readonly create?: boolean;
}

/** The bwrap executable, or `sandbox_unavailable`: a sandboxed command never runs unsandboxed. */
export function requireBwrap(): string {
  const bwrap = findBwrap();
  if (bwrap === undefined) {
    throw new CoworkError('sandbox_unavailable', 'bubblewrap (bwrap) is not installed, so the command cannot be sandboxed; nothing was started', {
      missing: 'bwrap',
    });
  }
  return bwrap;
}

/**
 * The sandbox of a command confined to `request.workDir`: it must be a folder inside the
 * workspace, and neither the workspace itself nor inside its jobs' files (`invalid_input`, field
 * `workDir`); everything else of the workspace is hidden. `sandbox_unavailable` without bwrap.
 */
export function sandboxFor(workspaceDir: string, request: SandboxRequest): SandboxSpec {
  requireBwrap();
  const root = realpathSync(workspaceDir);
  const given = request.workDir;
  if (typeof given !== 'string' || given.includes('\0')) throw invalid('workDir must be a path', { reason: 'not_a_path' });
  if (request.create) mkdirSync(resolve(root, given), { recursive: true });
  let workDir: string;
  try {
    workDir = realpathSync(resolve(root, given));
  } catch {
    throw invalid(`work folder ${JSON.stringify(given)} does not exist`, { reason: 'missing' });
  }
  if (!statSync(workDir).isDirectory()) throw invalid(`work folder ${JSON.stringify(given)} is not a directory`, { reason: 'not_a_directory' });
  if (workDir === root || !isInside(root, workDir) || isInside(join(root, JOBS_DIR), workDir)) {
    throw invalid(`the sandbox's work folder must be a folder inside the workspace ${root} (not the workspace itself, nor its jobs' files)`, {
      reason: 'outside_work_area',
    });
  }
  return { workDir, hidden: [root], network: request.network === true };
}

/**
 * A sandboxed command's working directory, real and absolute: `given` relative to the work folder
 * (or absolute), which it must stay inside (default: the work folder itself). `invalid_input`,
 * field `cwd`, otherwise: outside it the command would find an empty, read-only folder.
 */
export function sandboxCwd(sandbox: SandboxSpec, given: string | undefined): string {
  if (given === undefined) return sandbox.workDir;
  if (typeof given !== 'string' || given.includes('\0')) throw new CoworkError('invalid_input', 'cwd must be a path', { field: 'cwd' });
  let cwd: string;
  try {
    cwd = realpathSync(resolve(sandbox.workDir, given));
  } catch {
    throw new CoworkError('invalid_input', `working directory ${JSON.stringify(given)} does not exist in the work folder ${sandbox.workDir}`, {
      field: 'cwd',
      reason: 'missing',
    });
  }
  if (!isInside(sandbox.workDir, cwd)) {
    throw new CoworkError('invalid_input', `working directory ${JSON.stringify(given)} is outside the work folder ${sandbox.workDir}, which is all a sandboxed command can see of the workspace`, {
      field: 'cwd',
      reason: 'outside_work_folder',
      workDir: sandbox.workDir,
    });
  }
  return cwd;
}

function invalid(message: string, details: Record<string, unknown>): CoworkError {
  return new CoworkError('invalid_input', message, { field: 'workDir', ...details });
}
