import { ERROR_CODES, type ErrorCode } from '../errors';
import type { ToolSpec } from '../models/types';
import type { Json } from '../store/records';

/** What a tool needs to know about the call it serves. */
export interface AgentToolCall {
  readonly taskId: string;
  readonly agentId: string;
  readonly turn: number;
  readonly callId: string;
  /** (task, agent, turn, call): a side effect already applied under it returns its recorded result. */
  readonly idempotencyKey: string;
  readonly signal: AbortSignal;
}

/** What the loop should do once the turn's tool calls are all answered. */
export type LoopControl =
  | { readonly type: 'finish'; readonly summary: string }
  | { readonly type: 'submit'; readonly result: Json }
  | { readonly type: 'park'; readonly wake: WakeConditions }
  | { readonly type: 'compact' };

export interface WakeConditions {
  /** Epoch ms. */
  readonly at?: number;
  readonly resource?: { readonly resourceId: string; readonly afterRevision: number };
  readonly inbox?: boolean;
  /** The next event of this monitor: an Inbox message `monitor:<id>:<seq>` for the parked agent. */
  readonly monitorId?: string;
}

export interface ToolOutcome {
  readonly content: Json;
  readonly isError?: boolean;
  readonly control?: LoopControl;
}

/** A tool as the agent loop runs it (runtime tools and plugin tools alike). */
export interface AgentTool {
  readonly spec: ToolSpec;
  /**
   * The call changes nothing: no record, file, job or outside effect, so running it again, or
   * having run it for an answer that was then lost, cannot be seen. A turn of only such calls saves
   * the answer and their results in one write (see AgentLoop.readOnlyTurn). A tool whose only
   * effect is a control whose caller records it in a write of its own (`finish`, `submit_result`:
   * the task's end, the subagent's result) is one too: that write comes after the turn's.
   */
  readonly readOnly?: boolean;
  run(input: Json, call: AgentToolCall): Promise<ToolOutcome>;
}

export function errorOutcome(code: ErrorCode, message: string, details: Record<string, Json> = {}): ToolOutcome {
  return { isError: true, content: { error: { code, message, hint: ERROR_CODES[code].hint, ...details } } };
}
