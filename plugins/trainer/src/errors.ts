import { CoworkError, type ErrorCode, type Json } from '@cowork/host';

/**
 * The trainer's stable error reasons. The host's codes are a closed set, so each trainer error is a
 * host code (what a client branches on: `invalid_input`, `not_found`, `invalid_op`) with the
 * trainer's own `reason` in its details (what a person or a test reads).
 */
export const TRAINER_ERRORS = {
  not_a_run_record: 'invalid_input',
  unreadable_input: 'invalid_input',
  empty_dataset: 'invalid_input',
  not_collected: 'invalid_input',
  bad_tool_catalog: 'invalid_input',
  missing_resource: 'not_found',
  wrong_kind: 'invalid_input',
  missing_data_file: 'not_found',
  not_a_results_file: 'invalid_input',
  no_heldout_trials: 'invalid_input',
  not_evaluated: 'invalid_input',
  checkpoint_unloadable: 'invalid_input',
  no_task: 'invalid_input',
} as const satisfies Record<string, ErrorCode>;

export type TrainerErrorReason = keyof typeof TRAINER_ERRORS;

export function trainerError(reason: TrainerErrorReason, message: string, details: Record<string, Json> = {}): CoworkError {
  return new CoworkError(TRAINER_ERRORS[reason], message, { ...details, reason });
}

/** The trainer reason of an error, if it is one. */
export function trainerReason(error: unknown): string | undefined {
  if (!(error instanceof CoworkError)) return undefined;
  const reason = (error.details as Record<string, unknown>).reason;
  return typeof reason === 'string' ? reason : undefined;
}
