import { asJson } from '../util/json';
import type { ResourceApi } from '../plugins/resource-api';
import type { Json, Operator } from '../store/records';
import type { AgentTool } from './agent-tool';
import type { Grants } from './grants';
import type { LastSeen, SeenBy } from './last-seen';

/** Tools that change a resource directly: Main's, never a subagent's (it proposes drafts). */
export const RESOURCE_WRITE_TOOLS = ['commit_resource', 'create_resource'] as const;

/** A `sinceRevision` no revision is after: a first read lists no changes, only the content. */
const NO_CHANGES = Number.MAX_SAFE_INTEGER;

/**
 * The resource protocol as agent tools. Main holds every access; a subagent only what its grants
 * allow (read, draft, propose): it never commits directly, it proposes a candidate for Main. The
 * grants are enforced by `resources` (the agent's scoped API); here they only choose the tools.
 *
 * With `lastSeen`, every read records the revision it showed the agent, and a read without
 * `sinceRevision` lists the changes by others since the agent's previous read (its first read shows
 * the content and no changes). Without it, such a read lists every change by others.
 */
export function resourceTools(resources: ResourceApi, operator: Operator, grants: Grants | 'all', lastSeen?: LastSeen): AgentTool[] {
  const tools: AgentTool[] = [
    tool('read_resource', 'Read a resource: its revision, content, summary, the changes others made since you last read it (or since sinceRevision), and where people have their selection.', {
      resourceId: { type: 'string' },
      sinceRevision: { type: 'integer', minimum: 0, description: 'List changes by others after this revision instead of after the revision your last read showed you.' },
    }, ['resourceId'], async (input, call) => {
      const resourceId = str(input, 'resourceId');
      const who = seenBy(call);
      // Without a revision: from what this agent last saw; on its first read, the content alone.
      const since = num(input, 'sinceRevision') ?? (lastSeen ? await lastSeen.since(who, resourceId) : 0);
      const view = await resources.viewFor(resourceId, { operator, sinceRevision: since ?? NO_CHANGES });
      await lastSeen?.saw(who, resourceId, view.resource.revision);
      return {
        id: view.resource.id,
        kind: view.resource.kind,
        revision: view.resource.revision,
        summary: view.summary,
        content: view.resource.content,
        changesSince: since ?? null,
        changesByOthers: asJson(view.changesByOthers),
        selections: asJson(view.selections),
      };
    }),
    tool('create_draft', 'Start a private draft of a resource; only you can see it until you propose it.', { resourceId: { type: 'string' } }, ['resourceId'], async (input) => {
      const draft = await resources.createDraft(str(input, 'resourceId'), operator);
      return { draftId: draft.id, baseRevision: draft.baseRevision };
    }),
    tool('edit_draft', 'Apply an op of the resource kind to your draft.', { draftId: { type: 'string' }, op: {} }, ['draftId', 'op'], async (input, call) => {
      const draft = await resources.editDraft(str(input, 'draftId'), input.op, operator);
      // The draft's content shows the resource as of its base revision.
      await lastSeen?.saw(seenBy(call), draft.resourceId, draft.baseRevision);
      return { draftId: draft.id, ops: draft.ops.length, content: draft.content };
    }),
    tool('propose_draft', 'Propose your draft to Main as a candidate change.', { draftId: { type: 'string' } }, ['draftId'], async (input) => {
      const candidate = await resources.proposeDraft(str(input, 'draftId'), operator);
      return { candidateId: candidate.id, baseRevision: candidate.baseRevision, ops: candidate.ops.length };
    }),
  ];
  if (grants !== 'all') return tools;
  return [
    ...tools,
    readOnly(
      tool('list_resources', 'List the resources of the workspace.', { kind: { type: 'string' } }, [], async (input) =>
        (await resources.list({ kind: typeof input.kind === 'string' ? input.kind : undefined })).map((r) => ({ id: r.id, kind: r.kind, revision: r.revision })),
      ),
    ),
    tool('create_resource', 'Create a resource of a kind, optionally with content.', { kind: { type: 'string' }, content: {} }, ['kind'], async (input, call) => {
      const r = await resources.create({ kind: str(input, 'kind'), content: input.content, operator });
      await lastSeen?.saw(seenBy(call), r.id, r.revision);
      return { id: r.id, kind: r.kind, revision: r.revision };
    }),
    tool('commit_resource', 'Commit one op to a resource at the revision you read (revision_conflict if it moved).', {
      resourceId: { type: 'string' },
      baseRevision: { type: 'integer', minimum: 0 },
      op: {},
    }, ['resourceId', 'baseRevision', 'op'], async (input, call) => {
      const resourceId = str(input, 'resourceId');
      const baseRevision = num(input, 'baseRevision')!;
      const result = await resources.commit(resourceId, { baseRevision, op: input.op, operator, idempotencyKey: call.idempotencyKey });
      await lastSeen?.committed(seenBy(call), resourceId, baseRevision, result.revision);
      return { revision: result.revision };
    }),
  ];
}

type Input = Record<string, unknown>;

function tool(
  name: string,
  description: string,
  properties: Record<string, object>,
  required: string[],
  run: (input: Input, call: Parameters<AgentTool['run']>[1]) => Promise<Json>,
): AgentTool {
  return {
    spec: { name, description, inputSchema: { type: 'object', properties, required, additionalProperties: false } },
    run: async (input, call) => ({ content: await run(input as Input, call) }),
  };
}

/** Marks a tool that changes nothing (see AgentTool.readOnly). read_resource is not one: it records what the agent saw. */
function readOnly(agentTool: AgentTool): AgentTool {
  return { ...agentTool, readOnly: true };
}

function seenBy(call: Parameters<AgentTool['run']>[1]): SeenBy {
  return { taskId: call.taskId, agentId: call.agentId, callKey: call.idempotencyKey };
}

function str(input: Input, key: string): string {
  return String(input[key]);
}

function num(input: Input, key: string): number | undefined {
  return typeof input[key] === 'number' ? (input[key] as number) : undefined;
}

export { tool as defineAgentTool };
