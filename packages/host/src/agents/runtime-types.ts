import type { HostServices } from './host-services';
import type { ModelProvider } from '../models/types';
import type { Json } from '../store/records';
import type { LoopEvent } from './agent-loop';
import type { GateContributor } from './completion-gate';

export interface RuntimeOptions {
  readonly host: HostServices;
  readonly provider: ModelProvider;
  readonly now?: () => Date;
  /** Token budget of a whole task (all its agents), unless the task sets its own. */
  readonly taskMaxTokens?: number;
  /** Token budget of one subagent, unless the delegation sets its own. */
  readonly subagentMaxTokens?: number;
  /** Time limit of one subagent, unless the delegation sets its own. */
  readonly subagentTimeoutMs?: number;
  readonly maxOutputTokens?: number;
  /** Background handed to a subagent is cut to this many characters. */
  readonly maxBackgroundChars?: number;
  readonly gateContributors?: readonly GateContributor[];
  /** Told to Main after its standing instructions (a benchmark suite's domain policy). */
  readonly mainInstructions?: string;
  readonly onEvent?: (event: RuntimeEvent) => void;
}

export type RuntimeEvent =
  | ({ taskId: string } & LoopEvent)
  | { type: 'subagent_started'; taskId: string; assignmentId: string; agentId: string; mode: 'sync' | 'async' }
  | { type: 'subagent_finished'; taskId: string; assignmentId: string; agentId: string; outcome: string; status: string }
  | { type: 'task_state'; taskId: string; status: string; detail?: string };

/** How a run of a task ended (the task itself may go on later: `waiting` can be resumed). */
export type TaskRunResult =
  | { status: 'done'; summary: string }
  | { status: 'waiting'; reason: 'awaiting_user' | 'budget_exhausted' | 'model_failed'; reply?: string; error?: string }
  | { status: 'aborted' };

/** What a subagent hands back to Main (its result, or why it has none). */
export interface SubagentResult {
  readonly assignmentId: string;
  readonly agentId: string;
  readonly status: 'done' | 'budget_exhausted' | 'timeout' | 'cancelled' | 'error';
  readonly result: Json;
}
