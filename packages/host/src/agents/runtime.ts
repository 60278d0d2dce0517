import { createHash } from 'node:crypto';
import { CoworkError, isCoworkError } from '../errors';
import type { Host } from '../host';
import type { ModelProvider } from '../models/types';
import type { Json, Operator } from '../store/records';
import type { AssignmentState } from '../coordinator/state';
import { TERMINAL } from '../coordinator/state';
import { newId } from '../util/ids';
import { AgentLoop, type LoopEnd, type LoopEvent } from './agent-loop';
import type { AgentTool, AgentToolCall, ToolOutcome } from './agent-tool';
import { gateBlockers, type GateBlocker, type GateContributor } from './completion-gate';
import { hostGateContributors } from './gate-contributors';
import { asJson } from './conversation';
import { encodeGrants, Grants } from './grants';
import { Inbox } from './inbox';
import { mainTools, type DelegateInput } from './main-tools';
import { pluginAgentTool } from './plugin-tools';
import { MAIN_INSTRUCTIONS, subagentInstructions } from './prompts';
import { resourceTools } from './resource-tools';
import { skillCatalog } from './skills';
import { subagentTools } from './subagent-tools';
import { ensureTaskFolders, readMemory, taskPaths } from './task-files';
import { waitForWake } from './wake';

export interface RuntimeOptions {
  readonly host: Host;
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

const DEFAULT_SUBAGENT_TIMEOUT_MS = 30 * 60_000;
const DEFAULT_BACKGROUND_CHARS = 4000;
const MAIN = 'main';

/**
 * The agent runtime: Main's loop, subagents (sync and async), the Inbox between them, the
 * completion gate, parking, budgets and time limits. Its durable state is the coordinator log, the
 * conversation logs and the Inbox; `runTask` on a task that was running when the host died picks up
 * where those records end, so nothing is lost or done twice.
 */
export class AgentRuntime {
  readonly inbox: Inbox;
  private readonly now: () => Date;
  private readonly subagents = new Map<string, { promise: Promise<SubagentResult>; controller: AbortController }>();
  private readonly closing = new AbortController();
  /** Tasks whose Main loop runs in this process: a second `runTask` joins the first. */
  private readonly runs = new Map<string, { promise: Promise<TaskRunResult>; controller: AbortController }>();
  private readonly gateContributors: readonly GateContributor[];
  private readonly stopMonitorEvents: () => void;

  constructor(private readonly options: RuntimeOptions) {
    this.now = options.now ?? (() => new Date());
    this.inbox = new Inbox(options.host.store, this.now);
    // A task's running jobs and active monitors hold its gate open, besides what the caller adds.
    this.gateContributors = [...(options.gateContributors ?? []), ...hostGateContributors(options.host)];
    // A monitor stores its event in the Inbox itself; parked agents learn of it here.
    this.stopMonitorEvents = options.host.monitors.onEvent((event) => this.inbox.notifyPosted(event.message));
  }

  private get host(): Host {
    return this.options.host;
  }

  /** Records a new task with the person's request in Main's Inbox. Run it with `runTask`. */
  async startTask(request: string, options: { maxTokens?: number } = {}): Promise<string> {
    if (typeof request !== 'string' || request.trim() === '') {
      throw new CoworkError('invalid_input', 'a task needs a non-empty request');
    }
    const taskId = newId('task');
    ensureTaskFolders(taskPaths(this.host.workspaceDir, taskId));
    await this.host.coordinator.record({
      type: 'task.created',
      data: { taskId, request, ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}) },
    });
    await this.inbox.post({ messageId: `request:${taskId}`, taskId, recipient: MAIN, sender: 'user', kind: 'user', body: request });
    return taskId;
  }

  /** A person's message to a running task: queued in Main's Inbox, delivered at the next boundary. */
  async postUserMessage(taskId: string, text: string, messageId?: string): Promise<string> {
    await this.host.coordinator.refresh();
    this.requireTask(taskId);
    if (typeof text !== 'string' || text.trim() === '') throw new CoworkError('invalid_input', 'a message needs text');
    const posted = await this.inbox.post({ messageId, taskId, recipient: MAIN, sender: 'user', kind: 'user', body: text });
    return posted.messageId;
  }

  /**
   * Runs Main until the task finishes, waits for the person, or is aborted. Safe to call again
   * after a crash: subagents that were running are resumed, results already in the Inbox are not
   * asked for again, and Main's half-finished turn is completed from its log.
   */
  runTask(taskId: string, signal?: AbortSignal): Promise<TaskRunResult> {
    const existing = this.runs.get(taskId);
    if (existing) return existing.promise;
    const controller = new AbortController();
    const abort = (): void => controller.abort();
    this.closing.signal.addEventListener('abort', abort, { once: true });
    signal?.addEventListener('abort', abort, { once: true });
    const promise = this.runMain(taskId, controller.signal).finally(() => {
      this.runs.delete(taskId);
      this.closing.signal.removeEventListener('abort', abort);
      signal?.removeEventListener('abort', abort);
    });
    this.runs.set(taskId, { promise, controller });
    return promise;
  }

  /** Whether this process is running the task's Main loop now. */
  isRunning(taskId: string): boolean {
    return this.runs.has(taskId);
  }

  /**
   * Cancels a task: its Main loop and subagents stop, its active monitors are cancelled, and the
   * task and its open assignments are recorded as cancelled. Finished work (committed revisions,
   * delivered results) stays; jobs keep running until cancelled themselves.
   */
  async cancelTask(taskId: string): Promise<void> {
    await this.host.coordinator.refresh();
    const task = this.requireTask(taskId);
    if (TERMINAL.has(task.status)) return;
    this.runs.get(taskId)?.controller.abort();
    for (const assignment of this.openAssignments(taskId)) this.subagents.get(assignment.id)?.controller.abort('cancelled');
    await this.runs.get(taskId)?.promise.catch(() => undefined);
    for (const monitor of await this.host.monitors.list({ taskId, status: 'active' })) await this.host.monitors.cancel(monitor.id);
    await this.host.coordinator.record({ type: 'task.finished', data: { taskId, outcome: 'cancelled', summary: 'cancelled by a person' } });
    this.emit({ type: 'task_state', taskId, status: 'cancelled' });
  }

  private async runMain(taskId: string, signal: AbortSignal): Promise<TaskRunResult> {
    await this.host.coordinator.refresh();
    const task = this.requireTask(taskId);
    if (TERMINAL.has(task.status)) throw new CoworkError('invalid_transition', `task ${taskId} is already ${task.status}`, { taskId, status: task.status });
    if (task.status === 'queued') await this.host.coordinator.record({ type: 'task.started', data: { taskId } });
    if (task.status === 'waiting') await this.host.coordinator.record({ type: 'task.resumed', data: { taskId } });
    this.emit({ type: 'task_state', taskId, status: 'running' });
    await this.resumeSubagents(taskId);
    const loop = await this.mainLoop(taskId, signal);
    for (;;) {
      let end: LoopEnd;
      try {
        end = await loop.run();
      } catch (error) {
        // The model (or the store) failed past its retries: the task waits, resumable, instead of crashing.
        if (!isCoworkError(error)) throw error;
        const reason = `model_failed: ${error.code}: ${error.message}`;
        await this.host.coordinator.record({ type: 'task.waiting', data: { taskId, reason } });
        this.emit({ type: 'task_state', taskId, status: 'waiting', detail: reason });
        return { status: 'waiting', reason: 'model_failed', error: error.code };
      }
      if (end.reason === 'finished') {
        await this.host.coordinator.record({ type: 'task.finished', data: { taskId, outcome: 'done', summary: end.summary } });
        this.emit({ type: 'task_state', taskId, status: 'done', detail: end.summary });
        return { status: 'done', summary: end.summary };
      }
      if (end.reason === 'aborted') return { status: 'aborted' };
      if (end.reason === 'budget_exhausted') {
        const reason = `budget_exhausted: used ${end.usedTokens} of ${end.maxTokens} tokens`;
        await this.host.coordinator.record({ type: 'task.waiting', data: { taskId, reason } });
        this.emit({ type: 'task_state', taskId, status: 'waiting', detail: reason });
        return { status: 'waiting', reason: 'budget_exhausted' };
      }
      // Main replied without a tool call: wait for open work to report back, else for the person.
      const reply = end.reason === 'replied' ? end.text : JSON.stringify(end.result);
      if ((await this.inbox.pending(taskId, MAIN)).length > 0) continue;
      if (this.openAssignments(taskId).length > 0) {
        if ((await waitForWake(this.wakeDeps(), { taskId, agentId: MAIN }, { inbox: true }, signal)) === 'aborted') return { status: 'aborted' };
        continue;
      }
      await this.host.coordinator.record({ type: 'task.waiting', data: { taskId, reason: 'awaiting_user' } });
      // A message that arrived while the task was going to wait must not be stranded.
      if ((await this.inbox.pending(taskId, MAIN)).length > 0) {
        await this.host.coordinator.record({ type: 'task.resumed', data: { taskId } });
        continue;
      }
      this.emit({ type: 'task_state', taskId, status: 'waiting', detail: reply });
      return { status: 'waiting', reason: 'awaiting_user', reply };
    }
  }

  /** The completion gate of a task: empty when `finish` would be accepted. */
  async gate(taskId: string): Promise<GateBlocker[]> {
    await this.host.coordinator.refresh();
    return gateBlockers(taskId, this.host.coordinator.current, await this.inbox.pending(taskId, MAIN), this.gateContributors);
  }

  /** Waits for every subagent this runtime started, then stops. Abort first to stop them. */
  async close(): Promise<void> {
    this.closing.abort(new CoworkError('invalid_transition', 'the runtime is closing'));
    this.stopMonitorEvents();
    await Promise.allSettled([...this.subagents.values()].map((s) => s.promise));
  }

  /** Cancels a subagent: its loop stops and Main gets a `cancelled` result. */
  cancelSubagent(assignmentId: string): boolean {
    const running = this.subagents.get(assignmentId);
    running?.controller.abort('cancelled');
    return running !== undefined;
  }

  private async mainLoop(taskId: string, signal: AbortSignal): Promise<AgentLoop> {
    const paths = taskPaths(this.host.workspaceDir, taskId);
    const operator: Operator = 'agent:main';
    const tools: AgentTool[] = [
      ...mainTools({
        taskId,
        resources: this.host.resources,
        inbox: this.inbox,
        paths,
        now: this.now,
        delegate: (input, call) => this.delegate(taskId, input, call),
        gate: () => this.gate(taskId),
        subagents: () => this.taskAssignments(taskId).map((a) => a.agentId),
        monitorActive: async (monitorId) => {
          const monitor = (await this.host.monitors.list({ taskId, status: 'active' })).find((m) => m.id === monitorId);
          return monitor?.agentId === MAIN;
        },
      }),
      ...resourceTools(this.host.resources, operator, 'all'),
      ...this.host.registry.tools().map((t) => pluginAgentTool(t, operator, this.toolHost())),
    ];
    const maxTokens = this.requireTask(taskId).maxTokens ?? this.options.taskMaxTokens;
    return new AgentLoop({
      store: this.host.store,
      inbox: this.inbox,
      provider: this.options.provider,
      taskId,
      agentId: MAIN,
      tools,
      compile: (schema) => this.host.registry.compile(schema),
      instructions: MAIN_INSTRUCTIONS,
      memory: () => readMemory(paths),
      projection: () => this.projection(taskId),
      maxTokens,
      usedTokens: async () => {
        const totals = await this.host.store.read((tx) => tx.modelCalls.totals(taskId));
        return totals.inputTokens + totals.outputTokens;
      },
      maxOutputTokens: this.options.maxOutputTokens,
      signal,
      now: this.now,
      waitForWake: async (control, s) => {
        await this.host.coordinator.record({ type: 'task.waiting', data: { taskId, reason: `parked: ${JSON.stringify(control.wake)}` } });
        await waitForWake(this.wakeDeps(), { taskId, agentId: MAIN }, control.wake, s);
        await this.host.coordinator.record({ type: 'task.resumed', data: { taskId } });
      },
      onEvent: (event) => this.emit({ taskId, ...event }),
    });
  }

  /** The `delegate` tool: records the assignment once per tool call, then runs or starts it. */
  private async delegate(taskId: string, input: DelegateInput, call: AgentToolCall): Promise<ToolOutcome> {
    const assignmentId = `asg_${createHash('sha256').update(call.idempotencyKey).digest('hex').slice(0, 16)}`;
    const agentId = `${input.agent ?? 'sub'}-${assignmentId.slice(4, 10)}`;
    const background = input.background?.slice(0, this.options.maxBackgroundChars ?? DEFAULT_BACKGROUND_CHARS);
    const grants = encodeGrants(input.tools ?? [], (input.resources ?? []).map((r) => ({ ...r })));
    const unknownTools = (input.tools ?? []).filter((t) => !this.host.registry.tool(t));
    if (unknownTools.length > 0) {
      throw new CoworkError('invalid_input', `no plugin tools named ${unknownTools.join(', ')}; known: ${this.host.registry.tools().map((t) => t.tool.name).join(', ') || 'none'}`);
    }
    await this.host.coordinator.recordOnce(
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
    const assignment = this.host.coordinator.current.assignments[assignmentId]!;
    if (input.mode === 'async') {
      if (!TERMINAL.has(assignment.status)) void this.runSubagent(assignment);
      return { content: { acknowledged: true, assignmentId, agentId, note: 'The result will arrive in your Inbox.' } };
    }
    const result = TERMINAL.has(assignment.status) ? recordedResult(assignment) : await this.runSubagent(assignment);
    return { content: result as unknown as Json, isError: result.status !== 'done' };
  }

  /** Runs (or joins) a subagent's loop. Async results go to Main's Inbox before the assignment is closed. */
  private runSubagent(assignment: AssignmentState): Promise<SubagentResult> {
    const existing = this.subagents.get(assignment.id);
    if (existing) return existing.promise;
    const controller = new AbortController();
    const onClose = (): void => controller.abort('closing');
    this.closing.signal.addEventListener('abort', onClose, { once: true });
    const timeoutMs = assignment.timeoutMs ?? this.options.subagentTimeoutMs ?? DEFAULT_SUBAGENT_TIMEOUT_MS;
    const timer = setTimeout(() => controller.abort('timeout'), timeoutMs);
    const promise = (async (): Promise<SubagentResult> => {
      try {
        if (assignment.status === 'queued') await this.host.coordinator.record({ type: 'assignment.started', data: { assignmentId: assignment.id } });
        this.emit({ type: 'subagent_started', taskId: assignment.taskId, assignmentId: assignment.id, agentId: assignment.agentId, mode: assignment.mode });
        const result = await this.subagentOutcome(assignment, controller.signal);
        if (controller.signal.reason === 'closing') return result; // the host stops: resume will pick it up
        if (assignment.mode === 'async') {
          await this.inbox.post({
            messageId: `result:${assignment.id}`,
            taskId: assignment.taskId,
            recipient: MAIN,
            sender: assignment.agentId,
            kind: 'result',
            body: result as unknown as Json,
          });
        }
        await this.host.coordinator.record({
          type: 'assignment.finished',
          data: { assignmentId: assignment.id, outcome: outcomeOf(result.status), result: result as unknown as Json },
        });
        this.emit({ type: 'subagent_finished', taskId: assignment.taskId, assignmentId: assignment.id, agentId: assignment.agentId, outcome: outcomeOf(result.status), status: result.status });
        return result;
      } finally {
        clearTimeout(timer);
        this.closing.signal.removeEventListener('abort', onClose);
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
        const limit = assignment.timeoutMs ?? this.options.subagentTimeoutMs ?? DEFAULT_SUBAGENT_TIMEOUT_MS;
        return { ...base, status: why, result: { message: why === 'timeout' ? `stopped after its time limit of ${limit} ms` : 'cancelled' } };
      }
    }
  }

  private async subagentLoop(assignment: AssignmentState, signal: AbortSignal): Promise<AgentLoop> {
    const { taskId, agentId } = assignment;
    const operator = `agent:${agentId}` as Operator;
    const grants = new Grants(assignment.grants);
    const pluginTools = this.host.registry.tools();
    const granted = pluginTools.filter((t) => {
      const kinds = this.host.registry.plugins().find((p) => p.name === t.plugin)?.kinds.map((k) => k.name) ?? [];
      return grants.coversTool(t.tool.name, t.tool.permissions, kinds);
    });
    const tools: AgentTool[] = [
      ...subagentTools({ taskId, agentId, inbox: this.inbox, workspaceDir: this.host.workspaceDir, peers: () => this.taskAssignments(taskId).map((a) => a.agentId).filter((id) => id !== agentId) }),
      ...resourceTools(this.host.resources, operator, grants),
      ...granted.map((t) => pluginAgentTool(t, operator, this.toolHost())),
    ];
    const denied = new Set(pluginTools.filter((t) => !granted.includes(t)).map((t) => t.tool.name));
    for (const name of ['delegate', 'commit_resource', 'accept_candidate', 'reject_candidate', 'finish', 'update_memory', 'create_resource']) denied.add(name);
    // The subagent's first message; its instructions carry the assignment itself.
    const empty = (await this.host.store.read((tx) => tx.conversation.last(taskId, agentId))) === undefined;
    if (empty) {
      await this.host.store.transaction((tx) =>
        tx.conversation.append({ taskId, agentId, turn: 0, message: asJson({ role: 'user', content: 'Begin your assignment.' }), sourceMessageId: null, createdAt: this.now().toISOString() }),
      );
    }
    return new AgentLoop({
      store: this.host.store,
      inbox: this.inbox,
      provider: this.options.provider,
      taskId,
      agentId,
      tools,
      deniedTools: denied,
      compile: (schema) => this.host.registry.compile(schema),
      instructions: subagentInstructions({
        agentId,
        assignment: assignment.assignment,
        background: assignment.background,
        skills: skillCatalog(this.host.workspaceDir),
        resources: describeGrants(assignment.grants),
      }),
      memory: () => null,
      projection: async () => null,
      maxTokens: assignment.maxTokens ?? this.options.subagentMaxTokens,
      usedTokens: async () => {
        const totals = await this.host.store.read((tx) => tx.modelCalls.totals(taskId, agentId));
        return totals.inputTokens + totals.outputTokens;
      },
      maxOutputTokens: this.options.maxOutputTokens,
      signal,
      now: this.now,
      waitForWake: async (control, s) => {
        await waitForWake(this.wakeDeps(), { taskId, agentId }, control.wake, s);
      },
      onEvent: (event) => this.emit({ taskId, ...event }),
      onDenied: async (tool) => {
        await this.host.coordinator.record({ type: 'assignment.updated', data: { assignmentId: assignment.id, note: `permission_denied: ${tool}` } });
      },
    });
  }

  /**
   * After a restart: an async subagent whose result already reached the Inbox is closed without
   * running again; every other open assignment continues its loop from its log.
   */
  private async resumeSubagents(taskId: string): Promise<void> {
    for (const assignment of this.openAssignments(taskId)) {
      if (this.subagents.has(assignment.id)) continue;
      const result = await this.host.store.read((tx) => tx.inbox.get(`result:${assignment.id}`));
      if (result) {
        const body = result.body as unknown as SubagentResult;
        await this.host.coordinator.record({ type: 'assignment.finished', data: { assignmentId: assignment.id, outcome: outcomeOf(body.status), result: result.body } });
        continue;
      }
      if (assignment.mode === 'async') void this.runSubagent(assignment);
      // A sync assignment is resumed by Main's unanswered `delegate` call, which joins it.
    }
  }

  private async projection(taskId: string): Promise<string> {
    const assignments = this.taskAssignments(taskId);
    const lines = assignments.map((a) => `- ${a.agentId} (${a.id}, ${a.mode}): ${a.status}${a.lastUpdate ? ` — ${a.lastUpdate}` : ''}`);
    const blockers = await this.gate(taskId);
    const totals = await this.host.store.read((tx) => tx.modelCalls.totals(taskId));
    return [
      `Task ${taskId}. Tokens used so far: ${totals.inputTokens + totals.outputTokens}.`,
      assignments.length > 0 ? `Subagents:\n${lines.join('\n')}` : 'No subagents yet.',
      blockers.length > 0 ? `Open before finish: ${blockers.map((b) => `${b.kind} ${b.id}`).join(', ')}` : 'Nothing open: finish is allowed.',
    ].join('\n');
  }

  private requireTask(taskId: string): NonNullable<Host['coordinator']['current']['tasks'][string]> {
    const task = this.host.coordinator.current.tasks[taskId];
    if (!task) throw new CoworkError('not_found', `no task ${JSON.stringify(taskId)}`, { taskId });
    return task;
  }

  private taskAssignments(taskId: string): AssignmentState[] {
    const state = this.host.coordinator.current;
    return (state.tasks[taskId]?.assignmentIds ?? []).map((id) => state.assignments[id]!);
  }

  private openAssignments(taskId: string): AssignmentState[] {
    return this.taskAssignments(taskId).filter((a) => !TERMINAL.has(a.status));
  }

  private toolHost(): { workspaceDir: string; resources: Host['resources'] } {
    return { workspaceDir: this.host.workspaceDir, resources: this.host.resources };
  }

  private wakeDeps(): Parameters<typeof waitForWake>[0] {
    return { inbox: this.inbox, resources: this.host.resources, now: this.now };
  }

  private emit(event: RuntimeEvent): void {
    try {
      this.options.onEvent?.(event);
    } catch {
      // Progress display must never break a run.
    }
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
