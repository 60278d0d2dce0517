import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, resolve } from 'node:path';
import { CoworkError } from '../errors';
import { resolveInWorkspace } from '../util/paths';

/** What a caller asks to run. */
export interface StartJobInput {
  /** The program: a name looked up on PATH, or a path (relative to `cwd`). Not run through a shell. */
  readonly command: string;
  readonly args?: readonly string[];
  /** Working directory, relative to the workspace or absolute; it must be inside the workspace. Default: the workspace. */
  readonly cwd?: string;
  /** Variables set on top of the host's environment. */
  readonly env?: Readonly<Record<string, string>>;
  /** A label for people; not unique. */
  readonly name?: string;
}

/** The input, checked: cwd absolute and real, inside the workspace. */
export interface CheckedJobInput {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly name: string | null;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Checks a job before anything is written or started: `invalid_input` for a malformed field or a
 * working directory that is missing or outside the workspace (symlinks resolved), and
 * `command_not_found` for a program that is not an executable file on PATH (or at its path).
 */
export function checkJobInput(workspaceDir: string, input: StartJobInput): CheckedJobInput {
  const command = input.command;
  if (typeof command !== 'string' || command.trim() === '' || command.includes('\0')) {
    throw invalid('command', 'command must be a non-empty string');
  }
  const args = input.args ?? [];
  if (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string' && !arg.includes('\0'))) {
    throw invalid('args', 'args must be an array of strings');
  }
  const env = checkEnv(input.env ?? {});
  if (input.name !== undefined && (typeof input.name !== 'string' || input.name.length > 200)) {
    throw invalid('name', 'name must be a string of at most 200 characters');
  }
  const cwd = checkCwd(workspaceDir, input.cwd ?? '.');
  resolveCommand(command, cwd, env.PATH ?? process.env.PATH ?? '');
  return { command, args: [...args], cwd, env, name: input.name ?? null };
}

function checkCwd(workspaceDir: string, given: string): string {
  // The one containment check (util/paths): refuses malformed text and anything whose real path leaves the workspace.
  const cwd = resolveInWorkspace(workspaceDir, given, 'cwd');
  let stats;
  try {
    stats = statSync(cwd);
  } catch {
    throw invalid('cwd', `working directory ${JSON.stringify(given)} does not exist`, { reason: 'missing' });
  }
  if (!stats.isDirectory()) throw invalid('cwd', `${JSON.stringify(given)} is not a directory`, { reason: 'not_a_directory' });
  return cwd;
}

function checkEnv(env: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  if (typeof env !== 'object' || env === null || Array.isArray(env)) throw invalid('env', 'env must be an object of strings');
  for (const [name, value] of Object.entries(env)) {
    if (!ENV_NAME.test(name) || typeof value !== 'string' || value.includes('\0')) {
      throw invalid('env', `env ${JSON.stringify(name)} must be a variable name with a string value`);
    }
  }
  return { ...env };
}

/** The executable `command` names, as the supervisor's spawn will find it. */
function resolveCommand(command: string, cwd: string, path: string): void {
  const candidates = command.includes('/')
    ? [resolve(cwd, command)]
    : path.split(delimiter).map((dir) => resolve(cwd, dir === '' ? '.' : dir, command));
  const found = candidates.find(isExecutableFile);
  if (found === undefined) {
    throw new CoworkError('command_not_found', `command ${JSON.stringify(command)} is not an executable file${command.includes('/') ? '' : ' on PATH'}`, {
      command,
    });
  }
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function invalid(field: string, message: string, details: Record<string, unknown> = {}): CoworkError {
  return new CoworkError('invalid_input', message, { field, ...details });
}
