/**
 * `cowork serve` as its own process, run from src/ (the bin runs the same `main` from dist/): the
 * several-hosts tests start two of these on one database and SIGKILL one. argv: the CLI's
 * arguments after `serve`; settings come from the environment, as for the bin.
 *
 * Usage: node --import tsx serve-child.ts --port 0 --workspace DIR
 */
import { main } from '../../src/cli/main';

main(['serve', ...process.argv.slice(2)]).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
