import { CoworkError } from '../errors';
import type { ResourceApi } from '../plugins/resource-api';
import type { Json } from '../store/records';
import { errorOutcome, type AgentTool, type AgentToolCall, type ToolOutcome } from './agent-tool';
import type { GateBlocker } from './completion-gate';
import type { Inbox } from './inbox';
import { defineAgentTool } from './resource-tools';
import { writeMemory, type TaskPaths } from './task-files';

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
}

/** Main's own tools: delegation, messages, acceptance, parking, context and memory, and finish. */
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
    {
      spec: {
        name: 'sleep_until',
        description:
          'Park until a wake condition: a time (until, ISO 8601, or seconds), a resource moving past a revision, a message in your Inbox, ' +
          "or the next message of one of your active monitors (monitorId, from create_monitor). For the goal's next review, park until " +
          'its time, or create an interval or cron monitor and park on it. Without a condition you are not parked.',
        inputSchema: {
          type: 'object',
          properties: {
            until: { type: 'string', description: 'An ISO 8601 time.' },
            seconds: { type: 'number', exclusiveMinimum: 0 },
            resourceId: { type: 'string' },
            afterRevision: { type: 'integer', minimum: 0 },
            inbox: { type: 'boolean' },
            monitorId: { type: 'string', description: 'Wake on the next event of this active monitor.' },
          },
          additionalProperties: false,
        },
      },
      run: async (input) => sleepUntil(input as Record<string, unknown>, deps),
    },
    {
      spec: {
        name: 'clear_context',
        description: 'Compact your context after this turn: older messages become a summary (the full log stays on disk).',
        inputSchema: { type: 'object', properties: {}, required: [], additionalProperties: false },
      },
      run: async () => ({ content: { compacting: 'after this turn' }, control: { type: 'compact' } }),
    },
    defineAgentTool('update_memory', 'Replace memory.md: requirements, conclusions, unfinished work, next steps. It is always in your context.', {
      content: { type: 'string' },
    }, ['content'], async (input) => {
      writeMemory(deps.paths, String(input.content));
      return { saved: true, bytes: Buffer.byteLength(String(input.content)) };
    }),
    {
      spec: {
        name: 'finish',
        description: 'End the task with a summary for the person. Refused, with the list, while subagents, jobs, messages or requests are still open.',
        inputSchema: { type: 'object', properties: { summary: { type: 'string', minLength: 1 } }, required: ['summary'], additionalProperties: false },
      },
      run: async (input): Promise<ToolOutcome> => {
        const blockers = await deps.gate();
        if (blockers.length > 0) {
          return { isError: true, content: { refused: true, reason: 'completion_gate', blockers: blockers as unknown as Json } };
        }
        return { content: { finished: true }, control: { type: 'finish', summary: String((input as { summary: string }).summary) } };
      },
    },
  ];
}

async function sleepUntil(input: Record<string, unknown>, deps: Pick<MainToolDeps, 'now' | 'monitorActive'>): Promise<ToolOutcome> {
  const at =
    typeof input.until === 'string' ? Date.parse(input.until) : typeof input.seconds === 'number' ? deps.now().getTime() + input.seconds * 1000 : undefined;
  const resource =
    typeof input.resourceId === 'string' ? { resourceId: input.resourceId, afterRevision: typeof input.afterRevision === 'number' ? input.afterRevision : 0 } : undefined;
  const inbox = input.inbox === true;
  const monitorId = typeof input.monitorId === 'string' ? input.monitorId : undefined;
  if (at === undefined && !resource && !inbox && monitorId === undefined) return { content: { parked: false, reason: 'no_wake_condition' } };
  if (at !== undefined && Number.isNaN(at)) return errorOutcome('invalid_input', 'until must be an ISO 8601 time');
  // A cancelled (or someone else's) monitor would never wake Main: refuse rather than sleep forever.
  if (monitorId !== undefined && !(await deps.monitorActive(monitorId))) {
    return { content: { parked: false, reason: 'monitor_not_active', monitorId, hint: 'list_monitors shows your active monitors' } };
  }
  return {
    content: { parked: true, until: at === undefined ? null : new Date(at).toISOString(), resource: resource ?? null, inbox, monitorId: monitorId ?? null },
    control: { type: 'park', wake: { at, resource, inbox, monitorId } },
  };
}
