import type { TrialRun } from '../plugins/suite';
import type { Json } from '../util/json';

/**
 * The files a benchmark run writes (`cowork bench run`), read by people, the report and the trainer.
 * One run directory holds `results.json` (this shape) and `records/<task>.<trial>.json` (a
 * `RunRecord` each). Both carry a `format` tag; a reader refuses a tag it does not know.
 */
export const RESULTS_FORMAT = 'cowork-bench-results/1';
export const RUN_RECORD_FORMAT = 'cowork-bench-run/1';

/** Limits of one trial; a comparison between two result sets is fair only when they are equal. */
export interface TaskBudget {
  /** Tokens (input and output, every agent of the task); null: no limit. */
  readonly tokens: number | null;
  /** Main's turns; null: no limit. */
  readonly turns: number | null;
  /** Wall-clock seconds; null: no limit. */
  readonly seconds: number | null;
}

/** One rubric item's outcome. */
export interface ItemResult {
  readonly id: string;
  readonly description: string;
  readonly points: number;
  /** `points` when the check passed, else 0. */
  readonly earned: number;
  readonly pass: boolean;
  /** What the check found, in words (a person reads it when the item fails). */
  readonly detail: string;
  /** Present (false) when the check could not judge the item: see CheckVerdict.judged. */
  readonly judged?: false;
}

/**
 * One trial of one task. `scored`: the task ran and every check ran (a task that ran out of budget
 * or ended without finishing is still scored, on what it left). `invalid`: the trial has no valid
 * score (the host or a checker crashed, the model server failed past its retries, the recording did
 * not fit); it counts as a failure and a loss in every metric, never as absent.
 */
export interface TrialResult {
  readonly task: string;
  readonly split: 'dev' | 'heldout';
  readonly trial: number;
  readonly status: 'scored' | 'invalid';
  /** Why an invalid trial has no score. */
  readonly reason?: string;
  /** How the task's run ended: `done`, `waiting` (for the person, budget), `timeout`, `error`. */
  readonly outcome: string;
  /** Sum of earned points (0 for an invalid trial). */
  readonly score: number;
  /** Sum of the rubric's points. */
  readonly maxScore: number;
  /** Every rubric item passed (false for an invalid trial). */
  readonly passed: boolean;
  readonly items: readonly ItemResult[];
  readonly tokens: { readonly input: number; readonly output: number };
  /** Main's turns. */
  readonly turns: number;
  /** Time the runtime spent on the task, seconds. */
  readonly seconds: number;
  /** The harness's own time: making the workspace and starting resources, and running the checks. */
  readonly setupSeconds: number;
  readonly scoringSeconds: number;
  readonly budget: TaskBudget;
  /** The run record, relative to the run directory. */
  readonly record: string;
}

export interface ResultsFile {
  readonly format: typeof RESULTS_FORMAT;
  readonly suite: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Who answered: a model server (its name) or recordings (`replay`, with their folder). */
  readonly model: { readonly provider: string; readonly name: string | null; readonly replay: string | null };
  readonly trialsPerTask: number;
  readonly split: 'dev' | 'heldout' | 'all';
  /** Every trial run so far, in task order then trial order. A resumed run adds the missing ones. */
  readonly trials: readonly TrialResult[];
}

/**
 * Everything one trial did: the request, every model turn and tool call with its result (all
 * agents), tokens, times, the final revision of every resource, and the rubric's results.
 */
export interface RunRecord extends TrialRun {
  readonly format: typeof RUN_RECORD_FORMAT;
  readonly suite: string;
  readonly task: string;
  readonly trial: number;
  readonly budget: TaskBudget;
  readonly startedAt: string;
  readonly endedAt: string;
  /** Resources by the task's names: id, kind, final revision and content. */
  readonly resources: Readonly<Record<string, { readonly id: string; readonly kind: string; readonly revision: number; readonly content: Json }>>;
  readonly status: 'scored' | 'invalid';
  readonly reason?: string;
  readonly items: readonly ItemResult[];
}
