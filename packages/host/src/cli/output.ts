import type { CoworkError } from '../errors';

/** Where the CLI writes. Tests pass their own to run `main` in-process. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}

/**
 * Prints results and errors either for people (text) or for programs (`--json`: exactly one JSON
 * document on stdout, whether the command succeeded or failed).
 */
export class Output {
  constructor(
    private readonly io: CliIo,
    readonly json: boolean,
  ) {}

  /** A command's result: `value` as JSON, or the lines `human` makes from it. */
  result<T>(value: T, human: (value: T) => readonly string[]): void {
    if (this.json) this.io.stdout(`${JSON.stringify(value, null, 2)}\n`);
    else this.lines(human(value));
  }

  /** Plain text for people (help); also printed under `--json`, where there is no structure to give. */
  lines(lines: readonly string[]): void {
    if (lines.length > 0) this.io.stdout(`${lines.join('\n')}\n`);
  }

  /** `error <code>: <message>` and the hint on stderr, or the error's wire JSON on stdout. */
  error(error: CoworkError): void {
    if (this.json) {
      this.io.stdout(`${JSON.stringify(error.toJSON(), null, 2)}\n`);
      return;
    }
    this.io.stderr(`error ${error.code}: ${error.message}\nhint: ${error.hint}\n`);
  }

  /** Something the user should know that is not the result (a plugin that failed to load). */
  warn(message: string): void {
    this.io.stderr(`warning: ${message}\n`);
  }
}

/** A JSON value on one line, for ops and other small values in text output. */
export function compact(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}
