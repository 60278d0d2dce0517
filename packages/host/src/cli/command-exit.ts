const BRAND = Symbol.for('cowork.cli.exit');

/**
 * Exit codes of commands whose outcome is neither success nor an error: `cowork run` on a task
 * that is not finished. Like the codes in `exit-codes.ts` they keep their meaning forever.
 */
export const RUN_EXIT = {
  /** The task is waiting (for the person, for more budget, for the model server): not finished. */
  waiting: 6,
  /** Stopped by Ctrl-C (SIGINT), as shells report a process ended by SIGINT. */
  interrupted: 130,
} as const;

/**
 * Thrown by a command that has printed its whole result and ends with a non-zero exit code that
 * belongs to no error. `main` returns the code and prints nothing more. Recognised by a global
 * brand, like `CoworkError`, not by `instanceof`.
 */
export class CommandExit extends Error {
  readonly [BRAND] = true;

  constructor(
    readonly exitCode: number,
    why: string,
  ) {
    super(why);
    this.name = 'CommandExit';
  }
}

export function isCommandExit(value: unknown): value is CommandExit {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}
