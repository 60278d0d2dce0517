import type { ErrorCode } from '../errors';

/**
 * The CLI's exit codes. They are part of its contract: scripts branch on them, so a code keeps its
 * meaning forever. Every error code not listed maps to `failure`.
 */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  conflict: 3,
  notFound: 4,
  busy: 5,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

const EXIT_BY_ERROR: Partial<Record<ErrorCode, ExitCode>> = {
  invalid_input: EXIT.usage,
  invalid_json: EXIT.usage,
  invalid_op: EXIT.usage,
  invalid_content: EXIT.usage,
  unknown_kind: EXIT.usage,
  content_too_large: EXIT.usage,
  unknown_format: EXIT.usage,
  invalid_file: EXIT.usage,
  command_not_found: EXIT.usage,
  model_not_configured: EXIT.usage,
  revision_conflict: EXIT.conflict,
  not_found: EXIT.notFound,
  store_busy: EXIT.busy,
  external_unavailable: EXIT.busy,
  store_unavailable: EXIT.busy,
  task_leased: EXIT.busy,
};

/** The exit code for an error code. */
export function exitCodeFor(code: ErrorCode): ExitCode {
  return EXIT_BY_ERROR[code] ?? EXIT.failure;
}

/** The exit-code table as `--help` prints it, built from the same map so the two cannot drift. */
export function exitCodeHelp(): string[] {
  const codesFor = (exit: ExitCode): string =>
    Object.entries(EXIT_BY_ERROR)
      .filter(([, value]) => value === exit)
      .map(([code]) => code)
      .join(', ');
  return [
    `  ${EXIT.ok}  ok`,
    `  ${EXIT.failure}  unexpected failure (any other error code: candidate_closed, plugin_failed, store_failed, internal, ...)`,
    `  ${EXIT.usage}  usage or invalid input (${codesFor(EXIT.usage)}); nothing was written`,
    `  ${EXIT.conflict}  ${codesFor(EXIT.conflict)}: someone committed first; the op was kept as a candidate`,
    `     (see \`cowork resources candidates ID\`)`,
    `  ${EXIT.notFound}  ${codesFor(EXIT.notFound)}: no such resource, candidate or revision`,
    `  ${EXIT.busy}  ${codesFor(EXIT.busy)}: the workspace database is held by another process or out of reach; retry shortly`,
  ];
}
