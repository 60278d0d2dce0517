import type { Approvals, ApprovalRequest } from '../approvals/approvals';
import { loadPolicy } from '../approvals/policy';
import type { Impact } from '../approvals/policy';
import type { ToolDefinition } from '../plugins/types';
import type { Json } from '../store/records';
import { errorOutcome, type ToolOutcome } from './agent-tool';

/** What the gate needs: where the policy lives, and the approvals. */
export interface ApprovalGateDeps {
  readonly workspaceDir: string;
  readonly approvals: Approvals;
}

/** The impact of one call of a tool: its declaration, or what it decides from the input. */
export function impactOf(tool: ToolDefinition, input: Json): Impact | undefined {
  return typeof tool.impact === 'function' ? tool.impact(input) : tool.impact;
}

/**
 * Holds a high-impact call until the workspace's policy lets it run: `allow` runs it, `deny`
 * refuses it, `ask` parks it on a pending approval until a person decides. Resolves to undefined
 * when the call may run, or to the `denied` outcome. The decision comes only from the approvals
 * store, which only people write: nothing the model reads (a tool result, a page, a log) can
 * approve. A stopped loop rejects (the call stays unanswered and asks again, finding the same
 * approval, when its turn resumes).
 */
export async function awaitApproval(deps: ApprovalGateDeps, request: ApprovalRequest, signal: AbortSignal): Promise<ToolOutcome | undefined> {
  const rule = loadPolicy(deps.workspaceDir)[request.impact];
  if (rule === 'allow') return undefined;
  if (rule === 'deny') {
    return errorOutcome('denied', `the workspace's policy denies ${request.impact} calls, so ${request.tool} did not run`, { impact: request.impact, policy: 'deny' });
  }
  const asked = await deps.approvals.request(request);
  const approval = asked.status === 'pending' ? await deps.approvals.decided(asked.id, signal) : asked;
  if (approval.status === 'approved') return undefined;
  return errorOutcome('denied', `${approval.decidedBy ?? 'a person'} denied ${request.tool}${approval.reason ? `: ${approval.reason}` : ''}`, {
    approvalId: approval.id,
    impact: request.impact,
    decidedBy: approval.decidedBy,
    reason: approval.reason,
  });
}
