import { tmpdir } from 'node:os';
import { main } from '../../src/cli/main';

/** What one in-process `cowork` run printed and returned. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
}

/** Runs `cowork ...args` in-process with captured output and a clean environment. */
export async function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env: options.env ?? { USER: 'tester' },
    cwd: options.cwd ?? tmpdir(),
  });
  return { code, stdout, stderr };
}

/** Parses a `--json` run's stdout. */
export function jsonOf<T>(run: CliRun): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`stdout is not JSON (exit ${run.code}):\n${run.stdout}\nstderr:\n${run.stderr}`);
  }
}

/** The wire shape of an error printed with `--json`. */
export interface ErrorJson {
  readonly error: { readonly code: string; readonly message: string; readonly hint: string } & Record<string, unknown>;
}

export { tempDir } from '../support/temp-host';

export interface WorkspaceCli {
  /** Runs `cowork ...args --workspace <workspace>`. */
  run(...args: string[]): Promise<CliRun>;
  /** Runs with `--json`, fails unless it exits 0, and returns the parsed stdout. */
  json<T>(...args: string[]): Promise<T>;
}

/** `cowork` bound to one workspace, with `--json` results parsed. */
export function workspaceCli(workspace: string, options: CliOptions = {}): WorkspaceCli {
  const run = (...args: string[]): Promise<CliRun> => runCli([...args, '--workspace', workspace], options);
  const json = async <T>(...args: string[]): Promise<T> => {
    const result = await run(...args, '--json');
    if (result.code !== 0) throw new Error(`cowork ${args.join(' ')} exited ${result.code}: ${result.stdout}${result.stderr}`);
    return jsonOf<T>(result);
  };
  return { run, json };
}
