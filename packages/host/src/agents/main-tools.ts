import { asJson } from '../util/json';
import type { Json, Operator } from '../store/records';
import { CoworkError } from '../errors';
import type { ResourceApi } from '../plugins/resource-api';
import type { AgentTool, AgentToolCall, ToolOutcome } from './agent-tool';
import { awaitApproval, type ApprovalGateDeps } from './approval-gate';
import type { GateBlocker } from './completion-gate';
import type { Inbox } from './inbox';
import { defineAgentTool } from './resource-tools';
import { updateMemoryTool } from './memory';
import { sleepUntilTool } from './parking';
import type { TaskPaths } from './task-files';
import { manifestOf, type Publications, type PublishSource } from './publications';

export interface DelegateInput {
  readonly assignment: string;
  readonly mode: 'sync' | 'async';
  readonly agent?: string;
  readonly background?: string;
  readonly tools?: string[];
  readonly resources?: { resourceId?: string; kind?: string; access: 'read' | 'draft' | 'propose' }[];
  readonly maxTokens?: number;
  readonly timeoutSeconds?: number;
}

/** What Main's tools need from the runtime. */
export interface MainToolDeps {
  readonly taskId: string;
  readonly resources: ResourceApi;
  readonly inbox: Inbox;
  readonly paths: TaskPaths;
  readonly now: () => Date;
  delegate(input: DelegateInput, call: AgentToolCall): Promise<ToolOutcome>;
  gate(): Promise<GateBlocker[]>;
  /** Agent ids of this task's subagents, for addressing messages. */
  subagents(): string[];
  /** Whether the monitor is active and posts to Main in this task (what `sleep_until {monitorId}` waits on). */
  monitorActive(monitorId: string): Promise<boolean>;
  /** Where `publish` copies what the task delivers. */
  readonly publications: Publications;
  /** Where a `publish` call waits for a person under the workspace's policy (impact `publish`). */
  readonly approvalGate: ApprovalGateDeps;
}

/** Tools only Main has: a subagent is refused them (it proposes drafts and submits a result instead). */
export const MAIN_ONLY_TOOLS = ['delegate', 'accept_candidate', 'reject_candidate', 'finish', 'update_memory', 'publish'] as const;

/** Main's own tools: delegation, messages, acceptance, parking, context and memory, publishing, and finish. */
export function mainTools(deps: MainToolDeps): AgentTool[] {
  const operator = 'agent:main' as const;
  return [
    {
      spec: {
        name: 'delegate',
        description: 'Give one assignment to a new subagent. mode "sync" waits for its result; "async" returns an assignment id at once and the result arrives later in your Inbox.',
        inputSchema: {
          type: 'object',
          properties: {
            assignment: { type: 'string', minLength: 1 },
            mode: { enum: ['sync', 'async'] },
            agent: { type: 'string', pattern: '^[a-z][a-z0-9-]{0,40}$', description: 'A short name for the subagent.' },
            background: { type: 'string', description: 'What the subagent needs to know; it sees nothing else of your history.' },
            tools: { type: 'array', items: { type: 'string' }, description: 'Plugin tools to grant.' },
            resources: {
              type: 'array',
              items: {
                type: 'object',
                properties: { resourceId: { type: 'string' }, kind: { type: 'string' }, access: { enum: ['read', 'draft', 'propose'] } },
                required: ['access'],
                additionalProperties: false,
              },
            },
            maxTokens: { type: 'integer', minimum: 1 },
            timeoutSeconds: { type: 'number', exclusiveMinimum: 0 },
          },
          required: ['assignment', 'mode'],
          additionalProperties: false,
        },
      },
      run: (input, call) => deps.delegate(input as unknown as DelegateInput, call),
    },
    defineAgentTool('send_message', 'Send a message to one of your subagents (steering); it arrives between its turns.', {
      to: { type: 'string' },
      body: { type: 'string', minLength: 1 },
    }, ['to', 'body'], async (input, call) => {
      const to = String(input.to);
      if (!deps.subagents().includes(to)) throw new CoworkError('not_found', `no subagent ${to}; yours are: ${deps.subagents().join(', ') || 'none'}`);
      const posted = await deps.inbox.post({ messageId: `msg:${call.idempotencyKey}`, taskId: deps.taskId, recipient: to, sender: 'main', kind: 'message', body: String(input.body) });
      return { sent: true, messageId: posted.messageId };
    }),
    defineAgentTool('accept_candidate', 'Accept a candidate change (commits it with the revision check; give baseRevision to accept it onto a newer revision).', {
      candidateId: { type: 'string' },
      baseRevision: { type: 'integer', minimum: 0 },
    }, ['candidateId'], async (input) => {
      const result = await deps.resources.acceptCandidate(String(input.candidateId), {
        operator,
        baseRevision: typeof input.baseRevision === 'number' ? input.baseRevision : undefined,
      });
      return { accepted: true, revision: result.revision };
    }),
    defineAgentTool('reject_candidate', 'Reject a candidate change.', { candidateId: { type: 'string' } }, ['candidateId'], async (input) => {
      const candidate = await deps.resources.rejectCandidate(String(input.candidateId), operator);
      return { rejected: true, candidateId: candidate.id };
    }),
    sleepUntilTool(deps),
    {
      spec: {
        name: 'clear_context',
        description: 'Compact your context after this turn: older messages become a summary (the full log stays on disk).',
        inputSchema: { type: 'object', properties: {}, required: [], additionalProperties: false },
      },
      run: async () => ({ content: { compacting: 'after this turn' }, control: { type: 'compact' } }),
    },
    updateMemoryTool(deps.paths),
    publishTool(deps),
    {
      spec: {
        name: 'finish',
        description: 'End the task with a summary for the person. Refused, with the list, while subagents, jobs, messages or requests are still open.',
        inputSchema: { type: 'object', properties: { summary: { type: 'string', minLength: 1 } }, required: ['summary'], additionalProperties: false },
      },
      // It reads the gate and returns a control: the task's end is the runtime's own write, after the turn's.
      readOnly: true,
      run: async (input): Promise<ToolOutcome> => {
        const blockers = await deps.gate();
        if (blockers.length > 0) {
          return { isError: true, content: { refused: true, reason: 'completion_gate', blockers: asJson(blockers) } };
        }
        return { content: { finished: true }, control: { type: 'finish', summary: String((input as { summary: string }).summary) } };
      },
    },
  ];
}

/**
 * `publish`: copies what the task delivers (a resource's export at a revision, or a file of `work/`)
 * into the task's `published/` folder with a manifest. Its impact is `publish`: like a plugin tool
 * declared so, the call first waits for the approval the workspace's policy asks for (by default a
 * person's), runs once approved, and answers `denied` without writing anything when it is not. Only
 * Main has it. The call's idempotency key makes a resumed call answer the same publication.
 */
function publishTool(deps: MainToolDeps): AgentTool {
  return {
    spec: {
      name: 'publish',
      description: [
        "Publish a result of the task for people: a resource's export at a revision ({resourceId, format, revision}), or a file of your task's work folder ({file}, relative to it).",
        'The bytes are copied into the task\'s published folder with a manifest (source, revision, SHA-256, time); a published item never changes.',
        'It waits for a person to approve it (the workspace\'s policy) and answers denied if they do not.',
      ].join(' '),
      inputSchema: {
        type: 'object',
        properties: {
          resourceId: { type: 'string', description: 'The resource to export (with format).' },
          format: { type: 'string', description: "One of the resource kind's export formats." },
          revision: { type: 'integer', minimum: 0, description: 'The revision to export (default the newest); it is recorded in the manifest.' },
          file: { type: 'string', description: "A file of your task's work folder, relative to it (instead of resourceId and format)." },
          name: { type: 'string', description: 'The published file name (default the export\'s or the file\'s own).' },
        },
        additionalProperties: false,
      },
    },
    run: async (input, call): Promise<ToolOutcome> => {
      const given = input as { resourceId?: string; format?: string; revision?: number; file?: string; name?: string };
      const byFile = given.file !== undefined;
      if (byFile === (given.resourceId !== undefined) || (!byFile && given.format === undefined) || (byFile && (given.format !== undefined || given.revision !== undefined))) {
        throw new CoworkError('invalid_input', 'publish takes either {file} or {resourceId, format, revision?}', { field: 'source' });
      }
      const refused = await awaitApproval(deps.approvalGate, { taskId: call.taskId, agentId: call.agentId, callKey: call.idempotencyKey, tool: 'publish', impact: 'publish', input }, call.signal);
      if (refused) return refused;
      const source: PublishSource = byFile ? { file: given.file! } : { resourceId: given.resourceId!, format: given.format!, revision: given.revision };
      const publication = await deps.publications.publish(
        { taskId: deps.taskId, source, name: given.name, operator: `agent:${call.agentId}` as Operator, idempotencyKey: call.idempotencyKey },
        call.signal,
      );
      return { content: { published: true, ...(manifestOf(publication) as unknown as Record<string, Json>) } };
    },
  };
}
