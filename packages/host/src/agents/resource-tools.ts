import { asJson } from '../util/json';
import type { ResourceApi } from '../plugins/resource-api';
import type { Json, Operator } from '../store/records';
import type { AgentTool } from './agent-tool';
import type { Grants } from './grants';

/** Tools that change a resource directly: Main's, never a subagent's (it proposes drafts). */
export const RESOURCE_WRITE_TOOLS = ['commit_resource', 'create_resource'] as const;

/**
 * The resource protocol as agent tools. Main holds every access; a subagent only what its grants
 * allow (read, draft, propose): it never commits directly, it proposes a candidate for Main. The
 * grants are enforced by `resources` (the agent's scoped API); here they only choose the tools.
 */
export function resourceTools(resources: ResourceApi, operator: Operator, grants: Grants | 'all'): AgentTool[] {
  const tools: AgentTool[] = [
    tool('read_resource', 'Read a resource: its revision, a summary, and what others changed since a revision you saw.', {
      resourceId: { type: 'string' },
      sinceRevision: { type: 'integer', minimum: 0, description: 'The revision you last saw; changes by others after it are listed.' },
    }, ['resourceId'], async (input) => {
      const view = await resources.viewFor(str(input, 'resourceId'), { operator, sinceRevision: num(input, 'sinceRevision') ?? 0 });
      return { id: view.resource.id, kind: view.resource.kind, revision: view.resource.revision, summary: view.summary, content: view.resource.content, changesByOthers: asJson(view.changesByOthers), selections: asJson(view.selections) };
    }),
    tool('create_draft', 'Start a private draft of a resource; only you can see it until you propose it.', { resourceId: { type: 'string' } }, ['resourceId'], async (input) => {
      const draft = await resources.createDraft(str(input, 'resourceId'), operator);
      return { draftId: draft.id, baseRevision: draft.baseRevision };
    }),
    tool('edit_draft', 'Apply an op of the resource kind to your draft.', { draftId: { type: 'string' }, op: {} }, ['draftId', 'op'], async (input) => {
      const draft = await resources.editDraft(str(input, 'draftId'), input.op, operator);
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
    tool('list_resources', 'List the resources of the workspace.', { kind: { type: 'string' } }, [], async (input) =>
      (await resources.list({ kind: typeof input.kind === 'string' ? input.kind : undefined })).map((r) => ({ id: r.id, kind: r.kind, revision: r.revision })),
    ),
    tool('create_resource', 'Create a resource of a kind, optionally with content.', { kind: { type: 'string' }, content: {} }, ['kind'], async (input) => {
      const r = await resources.create({ kind: str(input, 'kind'), content: input.content, operator });
      return { id: r.id, kind: r.kind, revision: r.revision };
    }),
    tool('commit_resource', 'Commit one op to a resource at the revision you read (revision_conflict if it moved).', {
      resourceId: { type: 'string' },
      baseRevision: { type: 'integer', minimum: 0 },
      op: {},
    }, ['resourceId', 'baseRevision', 'op'], async (input, call) => {
      const result = await resources.commit(str(input, 'resourceId'), { baseRevision: num(input, 'baseRevision')!, op: input.op, operator, idempotencyKey: call.idempotencyKey });
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

function str(input: Input, key: string): string {
  return String(input[key]);
}

function num(input: Input, key: string): number | undefined {
  return typeof input[key] === 'number' ? (input[key] as number) : undefined;
}

export { tool as defineAgentTool };
