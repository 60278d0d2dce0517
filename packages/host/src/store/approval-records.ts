import type { Json, Operator } from './records';

export type ApprovalStatus = 'pending' | 'approved' | 'denied';

/**
 * A high-impact tool call waiting for (or decided by) a person. One per call: the call's
 * idempotency key is unique, so a call repeated after a restart finds its approval instead of
 * asking again.
 */
export interface ApprovalRecord {
  readonly id: string;
  readonly taskId: string;
  readonly agentId: string;
  /** The idempotency key of the tool call it holds. */
  readonly callKey: string;
  readonly tool: string;
  /** What makes it high-impact (see approvals/policy.ts). */
  readonly impact: string;
  /** The call's arguments, for the person deciding. */
  readonly input: Json;
  readonly status: ApprovalStatus;
  readonly requestedAt: string;
  /** A person (`human:<name>`); null while pending. */
  readonly decidedBy: Operator | null;
  readonly decidedAt: string | null;
  readonly reason: string | null;
}

export interface ApprovalRepo {
  insert(approval: ApprovalRecord): Promise<void>;
  get(id: string): Promise<ApprovalRecord | undefined>;
  byCallKey(callKey: string): Promise<ApprovalRecord | undefined>;
  list(query?: { status?: ApprovalStatus; taskId?: string }): Promise<ApprovalRecord[]>;
  /** Decides a pending approval; false when it is not pending. */
  decide(id: string, decision: { status: 'approved' | 'denied'; by: Operator; at: string; reason: string | null }): Promise<boolean>;
}
