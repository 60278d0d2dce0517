import { createHash } from 'node:crypto';
import { CoworkError } from '../errors';
import type { HostServices } from './host-services';
import type { AssignmentState } from '../coordinator/state';
import { TERMINAL } from '../coordinator/state';
import type { Operator } from '../store/records';
import { AgentLoop, type LoopEnd } from './agent-loop';
import type { AgentTool, AgentToolCall, ToolOutcome } from './agent-tool';
import { asJson } from '../util/json';
import { encodeGrants, Grants } from './grants';
import type { Inbox } from './inbox';
import { MAIN_ONLY_TOOLS, type DelegateInput } from './main-tools';
import { waitForWake, type WakeDeps } from './parking';
import { pluginAgentTool } from './plugin-tools';
import { subagentInstructions } from './prompts';
import { RESOURCE_WRITE_TOOLS, resourceTools } from './resource-tools';
import { LastSeen } from './last-seen';
import type { RuntimeEvent, RuntimeOptions, SubagentResult } from './runtime-types';
import { skillCatalog } from './skills';
import { subagentTools } from './subagent-tools';
import type { ToolHostApi } from '../plugins/types';
import type { ApprovalGateDeps } from './approval-gate';
import { RunningTokenTotals } from './token-totals';

const DEFAULT_SUBAGENT_TIMEOUT_MS = 30 * 60_000;
const DEFAULT_BACKGROUND_CHARS = 4000;
const MAIN = 'main';

/** What delegation needs from the runtime that owns it. */
export interface DelegationDeps {
  readonly host: HostServices;
  readonly options: RuntimeOptions;
  readonly inbox: Inbox;
  readonly now: () => Date;
  /** Aborts when the runtime closes: running subagents stop and are resumed by the next run. */
  readonly closing: AbortSignal;
  emit(event: RuntimeEvent): void;
  taskAssignments(taskId: string): AssignmentState[];
  /** The host a tool handler gets when acting for this agent, scoped to its grants. */
  toolHost(taskId: string, agentId: string, grants: Grants | 'all'): ToolHostApi;
  /** Where a subagent's high-impact calls wait for a person. */
  approvalGate(): ApprovalGateDeps;
  wakeDeps(): WakeDeps;
}

/**
 * Subagents: Main's `delegate` records an assignment once per tool call and runs it (sync: Main's
 * call waits for the result; async: the result goes to Main's Inbox before the assignment is
 * closed). A subagent starts from its assignment, the background and the grants Main gave, under a
 * token budget and a time limit, with its own loop and conversation log; after a restart its loop
 * continues from that log, and a result that already reached the Inbox is not asked for again.
 */
export class Delegation {
  private readonly subagents = new Map<string, { promise: Promise<SubagentResult>; controller: AbortController }>();

  constructor(private readonly deps: DelegationDeps) {}

  /** The `delegate` tool: records the assignment once per tool call, then runs or starts it. */
  async delegate(taskId: string, input: DelegateInput, call: AgentToolCall): Promise<ToolOutcome> {
    const assignmentId = `asg_${createHash('sha256').update(call.idempotencyKey).digest('hex').slice(0, 16)}`;
    const agentId = `${input.agent ?? 'sub'}-${assignmentId.slice(4, 10)}`;
    const background = input.background?.slice(0, this.deps.options.maxBackgroundChars ?? DEFAULT_BACKGROUND_CHARS);
    const grants = encodeGrants(input.tools ?? [], (input.resources ?? []).map((r) => ({ ...r })));
    const unknownTools = (input.tools ?? []).filter((t) => !this.deps.host.registry.tool(t));
    if (unknownTools.length > 0) {
      throw new CoworkError('invalid_input', `no plugin tools named ${unknownTools.join(', ')}; known: ${this.deps.host.registry.tools().map((t) => t.tool.name).join(', ') || 'none'}`);
    }
    await this.deps.host.coordinator.recordOnce(
      {
        type: 'assignment.requested',
        data: {
          assignmentId,
          taskId,
          agentId,
          mode: input.mode,
          assignment: input.assignment,
          grants,
          ...(background ? { background } : {}),
          ...(input.maxTokens ? { maxTokens: input.maxTokens } : {}),
          ...(input.timeoutSeconds ? { timeoutMs: Math.ceil(input.timeoutSeconds * 1000) } : {}),
        },
      },
      call.idempotencyKey,
    );
    const assignment = this.deps.host.coordinator.current.assignments[assignmentId]!;
    if (input.mode === 'async') {
      if (!TERMINAL.has(assignment.status)) void this.runSubagent(assignment);
      return { content: { acknowledged: true, assignmentId, agentId, note: 'The result will arrive in your Inbox.' } };
    }
    const result = TERMINAL.has(assignment.status) ? recordedResult(assignment) : await this.runSubagent(assignment);
    return { content: asJson(result), isError: result.status !== 'done' };
  }

  /** Runs (or joins) a subagent's loop. Async results go to Main's Inbox before the assignment is closed. */
  private runSubagent(assignment: AssignmentState): Promise<SubagentResult> {
    const existing = this.subagents.get(assignment.id);
    if (existing) return existing.promise;
    const controller = new AbortController();
    const onClose = (): void => controller.abort('closing');
    this.deps.closing.addEventListener('abort', onClose, { once: true });
    const timeoutMs = assignment.timeoutMs ?? this.deps.options.subagentTimeoutMs ?? DEFAULT_SUBAGENT_TIMEOUT_MS;
    const timer = setTimeout(() => controller.abort('timeout'), timeoutMs);
    const promise = (async (): Promise<SubagentResult> => {
      try {
        if (assignment.status === 'queued') await this.deps.host.coordinator.record({ type: 'assignment.started', data: { assignmentId: assignment.id } });
        this.deps.emit({ type: 'subagent_started', taskId: assignment.taskId, assignmentId: assignment.id, agentId: assignment.agentId, mode: assignment.mode });
        const result = await this.subagentOutcome(assignment, controller.signal);
        if (controller.signal.reason === 'closing') return result; // the host stops: resume will pick it up
        if (assignment.mode === 'async') {
          await this.deps.inbox.post({
            messageId: `result:${assignment.id}`,
            taskId: assignment.taskId,
            recipient: MAIN,
            sender: assignment.agentId,
            kind: 'result',
            body: asJson(result),
          });
        }
        await this.deps.host.coordinator.record({
          type: 'assignment.finished',
          data: { assignmentId: assignment.id, outcome: outcomeOf(result.status), result: asJson(result) },
        });
        this.deps.emit({ type: 'subagent_finished', taskId: assignment.taskId, assignmentId: assignment.id, agentId: assignment.agentId, outcome: outcomeOf(result.status), status: result.status });
        return result;
      } finally {
        clearTimeout(timer);
        this.deps.closing.removeEventListener('abort', onClose);
        this.subagents.delete(assignment.id);
      }
    })();
    this.subagents.set(assignment.id, { promise, controller });
    return promise;
  }

  private async subagentOutcome(assignment: AssignmentState, signal: AbortSignal): Promise<SubagentResult> {
    const base = { assignmentId: assignment.id, agentId: assignment.agentId };
    let end: LoopEnd;
    try {
      end = await (await this.subagentLoop(assignment, signal)).run();
    } catch (error) {
      if (signal.aborted) end = { reason: 'aborted' };
      else return { ...base, status: 'error', result: { error: error instanceof Error ? error.message : String(error) } };
    }
    switch (end.reason) {
      case 'submitted':
        return { ...base, status: 'done', result: end.result };
      case 'replied':
        return { ...base, status: 'done', result: end.text };
      case 'finished':
        return { ...base, status: 'done', result: end.summary };
      case 'budget_exhausted':
        return { ...base, status: 'budget_exhausted', result: { message: `stopped: used ${end.usedTokens} of its ${end.maxTokens}-token budget`, usedTokens: end.usedTokens, maxTokens: end.maxTokens } };
      case 'aborted': {
        const why = signal.reason === 'timeout' ? 'timeout' : 'cancelled';
        const limit = assignment.timeoutMs ?? this.deps.options.subagentTimeoutMs ?? DEFAULT_SUBAGENT_TIMEOUT_MS;
        return { ...base, status: why, result: { message: why === 'timeout' ? `stopped after its time limit of ${limit} ms` : 'cancelled' } };
      }
    }
  }

  private async subagentLoop(assignment: AssignmentState, signal: AbortSignal): Promise<AgentLoop> {
    const { taskId, agentId } = assignment;
    const operator = `agent:${agentId}` as Operator;
    const grants = new Grants(assignment.grants);
    const toolHost = this.deps.toolHost(taskId, agentId, grants);
    const pluginTools = this.deps.host.registry.tools();
    const granted = pluginTools.filter((t) => {
      const kinds = this.deps.host.registry.plugins().find((p) => p.name === t.plugin)?.kinds.map((k) => k.name) ?? [];
      return grants.coversTool(t.tool.name, t.tool.permissions, kinds);
    });
    const tokens = new RunningTokenTotals(taskId, agentId);
    const tools: AgentTool[] = [
      ...subagentTools({ taskId, agentId, inbox: this.deps.inbox, workspaceDir: this.deps.host.workspaceDir, peers: () => this.deps.taskAssignments(taskId).map((a) => a.agentId).filter((id) => id !== agentId) }),
      ...resourceTools(toolHost.resources, operator, grants, new LastSeen(this.deps.host.store, this.deps.now)),
      ...granted.map((t) => pluginAgentTool(t, operator, toolHost, this.deps.approvalGate())),
    ];
    const denied = new Set(pluginTools.filter((t) => !granted.includes(t)).map((t) => t.tool.name));
    // Main's own tools and direct writes are never a subagent's: it proposes drafts instead.
    for (const name of [...MAIN_ONLY_TOOLS, ...RESOURCE_WRITE_TOOLS]) denied.add(name);
    // The subagent's first message; its instructions carry the assignment itself.
    const empty = (await this.deps.host.store.read((tx) => tx.conversation.last(taskId, agentId))) === undefined;
    if (empty) {
      await this.deps.host.store.transaction((tx) =>
        tx.conversation.append({ taskId, agentId, turn: 0, message: asJson({ role: 'user', content: 'Begin your assignment.' }), sourceMessageId: null, createdAt: this.deps.now().toISOString() }),
      );
    }
    return new AgentLoop({
      store: this.deps.host.store,
      inbox: this.deps.inbox,
      provider: this.deps.options.provider,
      taskId,
      agentId,
      tools,
      deniedTools: denied,
      compile: (schema) => this.deps.host.registry.compile(schema),
      instructions: subagentInstructions({
        agentId,
        assignment: assignment.assignment,
        background: assignment.background,
        skills: skillCatalog(this.deps.host.workspaceDir),
        resources: describeGrants(assignment.grants),
      }),
      memory: () => null,
      projection: async () => null,
      maxTokens: assignment.maxTokens ?? this.deps.options.subagentMaxTokens,
      usedTokens: async () => (await tokens.read(this.deps.host.store)).total,
      maxOutputTokens: this.deps.options.maxOutputTokens,
      signal,
      now: this.deps.now,
      waitForWake: async (control, s) => {
        await waitForWake(this.deps.wakeDeps(), { taskId, agentId }, control.wake, s);
      },
      onEvent: (event) => this.deps.emit({ taskId, ...event }),
      files: this.deps.host.workHistory?.turnHooks(taskId, agentId, (error, turn) => this.deps.emit({ type: 'work_history_failed', taskId, agentId, turn, error })),
      onDenied: async (tool) => {
        await this.deps.host.coordinator.record({ type: 'assignment.updated', data: { assignmentId: assignment.id, note: `permission_denied: ${tool}` } });
      },
    });
  }

  /**
   * After a restart: an async subagent whose result already reached the Inbox is closed without
   * running again; every other open assignment continues its loop from its log.
   */
  async resume(taskId: string): Promise<void> {
    for (const assignment of this.openAssignments(taskId)) {
      if (this.subagents.has(assignment.id)) continue;
      const result = await this.deps.host.store.read((tx) => tx.inbox.get(`result:${assignment.id}`));
      if (result) {
        const body = result.body as unknown as SubagentResult;
        await this.deps.host.coordinator.record({ type: 'assignment.finished', data: { assignmentId: assignment.id, outcome: outcomeOf(body.status), result: result.body } });
        continue;
      }
      if (assignment.mode === 'async') void this.runSubagent(assignment);
      // A sync assignment is resumed by Main's unanswered `delegate` call, which joins it.
    }
  }

  /** Cancels a subagent: its loop stops and Main gets a `cancelled` result. */
  cancel(assignmentId: string): boolean {
    const running = this.subagents.get(assignmentId);
    running?.controller.abort('cancelled');
    return running !== undefined;
  }

  /** Waits for every subagent this runtime started (the runtime aborts them first when it closes). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.subagents.values()].map((s) => s.promise));
  }

  /** Waits for the subagents of one task that run in this runtime. */
  async taskSettled(taskId: string): Promise<void> {
    const running = this.deps.taskAssignments(taskId).map((a) => this.subagents.get(a.id)?.promise);
    await Promise.allSettled(running);
  }

  /** Stops a task's subagents running here without recording anything: they resume where their log ends. */
  cancelRunning(taskId: string): void {
    for (const assignment of this.openAssignments(taskId)) this.subagents.get(assignment.id)?.controller.abort('closing'); // as when the host stops: nothing recorded
  }

  /** Stops the open subagents of a task (its cancellation). */
  cancelTask(taskId: string): void {
    for (const assignment of this.openAssignments(taskId)) this.cancel(assignment.id);
  }

  private openAssignments(taskId: string): AssignmentState[] {
    return this.deps.taskAssignments(taskId).filter((a) => !TERMINAL.has(a.status));
  }
}

function outcomeOf(status: SubagentResult['status']): 'done' | 'failed' | 'cancelled' {
  return status === 'done' ? 'done' : status === 'cancelled' ? 'cancelled' : 'failed';
}

function recordedResult(assignment: AssignmentState): SubagentResult {
  const recorded = assignment.result as unknown as SubagentResult | null;
  return recorded ?? { assignmentId: assignment.id, agentId: assignment.agentId, status: assignment.status === 'cancelled' ? 'cancelled' : 'error', result: null };
}

function describeGrants(grants: readonly string[]): string {
  const resources = grants.filter((g) => !g.startsWith('tool:'));
  return resources.length > 0 ? resources.map((g) => `- ${g}`).join('\n') : '(none)';
}
