import { toCoworkError } from '../errors';
import { group, type Command } from './command';
import { isCommandExit } from './command-exit';
import { benchCommand } from './commands/bench';
import { jobsCommand } from './commands/jobs';
import { mcpCommand } from './commands/mcp';
import { pluginsCommand } from './commands/plugins';
import { resourcesCommand } from './commands/resources';
import { runCommand } from './commands/run';
import { serveCommand } from './commands/serve';
import { taskCommand, tasksCommand } from './commands/tasks';
import { usersCommand } from './commands/users';
import { workspaceCommand } from './commands/workspace';
import { approvalsCommand, approveCommand, denyCommand } from './commands/approvals';
import { publishedCommand } from './commands/published';
import { dispatch, wantsJson } from './dispatch';
import { EXIT, exitCodeFor } from './exit-codes';
import { Output, type CliIo } from './output';

export type { CliIo } from './output';

/**
 * The top-level commands. Adding one is one line here; its declaration (options, help text, run)
 * lives in its own file under `commands/`.
 */
export const COMMANDS: Readonly<Record<string, Command>> = {
  plugins: pluginsCommand,
  resources: resourcesCommand,
  jobs: jobsCommand,
  run: runCommand,
  tasks: tasksCommand,
  task: taskCommand,
  serve: serveCommand,
  bench: benchCommand,
  mcp: mcpCommand,
  users: usersCommand,
  workspace: workspaceCommand,
  approvals: approvalsCommand,
  approve: approveCommand,
  deny: denyCommand,
  published: publishedCommand,
};

/**
 * Runs the `cowork` command line and resolves to the process exit code (see `exit-codes.ts`); it
 * never rejects. Errors are printed as `error <code>: <message>` on stderr, or with `--json` as the
 * error's wire JSON on stdout.
 */
export async function main(argv: readonly string[], io: CliIo = processIo(), commands: Readonly<Record<string, Command>> = COMMANDS): Promise<number> {
  const out = new Output(io, wantsJson(argv));
  const root = group({ summary: 'cowork', children: commands });
  try {
    // `cowork help [command...]` is `cowork [command...] --help`.
    const args = argv[0] === 'help' ? [...argv.slice(1), '--help'] : argv;
    await dispatch(root, [], args, io, out);
    return EXIT.ok;
  } catch (thrown) {
    // A command that printed its result and ends with its own code (`cowork run`: 6 waiting, 130 interrupted).
    if (isCommandExit(thrown)) return thrown.exitCode;
    const error = toCoworkError(thrown);
    out.error(error);
    return exitCodeFor(error.code);
  }
}

function processIo(): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
  };
}
