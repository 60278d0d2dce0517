import { CoworkError, isCoworkError } from '../errors';
import type { HostServices } from './host-services';
import type { Operator } from '../store/records';
import type { AssignmentState, TaskState } from '../coordinator/state';
import { TERMINAL } from '../coordinator/state';
import { newId } from '../util/ids';
import { AgentLoop, type LoopEnd } from './agent-loop';
import type { AgentTool } from './agent-tool';
import { taskGate, type GateBlocker, type GateContributor, type GateSources } from './completion-gate';
import { readProjectionInputs } from './projection-inputs';
import { Delegation } from './delegation';
import { Inbox } from './inbox';
import { mainTools } from './main-tools';
import { MemoryReader } from './memory';
import { waitForWake, type WakeDeps } from './parking';
import { pluginAgentTool } from './plugin-tools';
import { MAIN_INSTRUCTIONS } from './prompts';
import { resourceTools } from './resource-tools';
import { LastSeen } from './last-seen';
import { runsDigest } from './run-digest';
import { tokenizerFor } from '../models/tokenizer';
import { scopedResources, type AccessDenial } from './scoped-resources';
import type { ApprovalGateDeps } from './approval-gate';
import type { Grants } from './grants';
import type { ToolHostApi } from '../plugins/types';
import { taskRunsApi } from './task-runs-api';
import type { RuntimeEvent, RuntimeOptions, SubagentResult, TaskRunResult } from './runtime-types';
import { ensureTaskFolders, taskPaths } from './task-files';
import { taskLeaseKey, taskLeaseLostError } from './task-lease';
import { taskLeasedError } from '../store/leases/lease-errors';
import { RunningTokenTotals } from './token-totals';

export type { RuntimeEvent, RuntimeOptions, SubagentResult, TaskRunResult };

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
  private readonly closing = new AbortController();
  private readonly delegation: Delegation;
  /** Tasks whose Main loop runs in this process: a second `runTask` joins the first. */
  private readonly runs = new Map<string, { promise: Promise<TaskRunResult>; controller: AbortController }>();
  private readonly runningTotals = new Map<string, RunningTokenTotals>();
  private readonly stopMonitorEvents: () => void;

  constructor(private readonly options: RuntimeOptions) {
    this.now = options.now ?? (() => new Date());
    // Other hosts' posts wake agents parked here too (PostgreSQL: the host's Inbox feed).
    this.inbox = new Inbox(options.host.store, this.now, undefined, options.host.inboxFeed);
    // A monitor stores its event in the Inbox itself; parked agents learn of it here.
    this.stopMonitorEvents = options.host.monitors.onEvent((event) => this.inbox.notifyPosted(event.message));
    this.delegation = new Delegation({
      host: options.host,
      options,
      inbox: this.inbox,
      now: this.now,
      closing: this.closing.signal,
      emit: (event) => this.emit(event),
      taskAssignments: (taskId) => this.taskAssignments(taskId),
      toolHost: (taskId, agentId, grants) => this.toolHost(taskId, agentId, grants),
      approvalGate: () => this.approvalGate(),
      wakeDeps: () => this.wakeDeps(),
    });
  }

  private get host(): HostServices {
    return this.options.host;
  }

  /**
   * Records a new task with the person's request in Main's Inbox (sent by `from`, their operator;
   * `user` when the caller does not know who). Run it with `runTask`.
   */
  async startTask(request: string, options: { maxTokens?: number; from?: Operator } = {}): Promise<string> {
    if (typeof request !== 'string' || request.trim() === '') {
      throw new CoworkError('invalid_input', 'a task needs a non-empty request');
    }
    const taskId = newId('task');
    ensureTaskFolders(taskPaths(this.host.workspaceDir, taskId));
    // work/ under git from the start; a failure here is retried at the first turn's snapshot.
    await this.host.workHistory?.init(taskId).catch((error: unknown) => this.emit({ type: 'work_history_failed', taskId, agentId: MAIN, turn: 0, error: error instanceof Error ? error.message : String(error) }));
    await this.host.coordinator.record({
      type: 'task.created',
      data: { taskId, request, ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}) },
    });
    await this.inbox.post({ messageId: `request:${taskId}`, taskId, recipient: MAIN, sender: options.from ?? 'user', kind: 'user', body: request });
    return taskId;
  }

  /** A person's message to a running task: queued in Main's Inbox, delivered at the next boundary. */
  async postUserMessage(taskId: string, text: string, messageId?: string, from?: Operator): Promise<string> {
    await this.host.coordinator.refresh();
    this.requireTask(taskId);
    if (typeof text !== 'string' || text.trim() === '') throw new CoworkError('invalid_input', 'a message needs text');
    const posted = await this.inbox.post({ messageId, taskId, recipient: MAIN, sender: from ?? 'user', kind: 'user', body: text });
    return posted.messageId;
  }

  /**
   * Runs Main until the task finishes, waits for the person, or is aborted. Safe to call again
   * after a crash: subagents that were running are resumed, results already in the Inbox are not
   * asked for again, and Main's half-finished turn is completed from its log. Runs only while this
   * host holds the task's lease: `task_leased` when another live host process runs it.
   */
  runTask(taskId: string, signal?: AbortSignal): Promise<TaskRunResult> {
    const existing = this.runs.get(taskId);
    if (existing) return existing.promise;
    const controller = new AbortController();
    const abort = (): void => controller.abort();
    this.closing.signal.addEventListener('abort', abort, { once: true });
    signal?.addEventListener('abort', abort, { once: true });
    const promise = this.leasedRun(taskId, controller).finally(() => {
      this.runs.delete(taskId);
      // A later run reads the task's total afresh: a long-lived server keeps none per finished task.
      this.runningTotals.delete(taskId);
      this.closing.signal.removeEventListener('abort', abort);
      signal?.removeEventListener('abort', abort);
    });
    this.runs.set(taskId, { promise, controller });
    return promise;
  }

  /**
   * Runs the task as `runTask` does, and runs it again when a person's message landed just as the
   * run was ending to wait for the person (it would otherwise wait for the next message). What a
   * server does for each task it starts or messages.
   */
  async runUntilSettled(taskId: string, signal?: AbortSignal): Promise<TaskRunResult> {
    for (;;) {
      const result = await this.runTask(taskId, signal);
      if (result.status !== 'waiting' || result.reason !== 'awaiting_user' || this.closing.signal.aborted || signal?.aborted) return result;
      const pending = await this.inbox.pending(taskId, MAIN);
      if (!pending.some((m) => m.kind === 'user')) return result;
    }
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
    this.delegation.cancelTask(taskId);
    await this.runs.get(taskId)?.promise.catch(() => undefined);
    for (const monitor of await this.host.monitors.list({ taskId, status: 'active' })) await this.host.monitors.cancel(monitor.id);
    await this.host.coordinator.record({ type: 'task.finished', data: { taskId, outcome: 'cancelled', summary: 'cancelled by a person' } });
    this.emit({ type: 'task_state', taskId, status: 'cancelled' });
  }

  /**
   * Main's run under the task's lease, so that no two hosts run one task. A lease lost meanwhile
   * (another host took it after this one could not renew it) stops the run with `task_leased`.
   * The lease is kept until the task's subagents in this process have stopped too.
   */
  private async leasedRun(taskId: string, controller: AbortController): Promise<TaskRunResult> {
    let lost: CoworkError | undefined;
    const taken = await this.host.leases.hold(taskLeaseKey(taskId), () => {
      lost = taskLeaseLostError(taskId);
      controller.abort(lost);
      this.delegation.cancelRunning(taskId);
    });
    if ('other' in taken) throw taskLeasedError(taskId, taken.other);
    try {
      const result = await this.runMain(taskId, controller.signal);
      if (lost) throw lost;
      return result;
    } finally {
      void this.delegation.taskSettled(taskId).then(() => taken.held.release());
    }
  }

  private async runMain(taskId: string, signal: AbortSignal): Promise<TaskRunResult> {
    await this.host.coordinator.refresh();
    const task = this.requireTask(taskId);
    if (TERMINAL.has(task.status)) throw new CoworkError('invalid_transition', `task ${taskId} is already ${task.status}`, { taskId, status: task.status });
    if (task.status === 'queued') await this.host.coordinator.record({ type: 'task.started', data: { taskId } });
    if (task.status === 'waiting') await this.host.coordinator.record({ type: 'task.resumed', data: { taskId } });
    this.emit({ type: 'task_state', taskId, status: 'running' });
    await this.delegation.resume(taskId);
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

  /** The completion gate of a task: empty when `finish` would be accepted. `sources`: what the caller has read for it already. */
  async gate(taskId: string, sources?: GateSources): Promise<GateBlocker[]> {
    return taskGate(this.host, taskId, this.gateContributors, sources);
  }

  /** What the caller added to the gate beyond the host's running jobs and active monitors. */
  get gateContributors(): readonly GateContributor[] {
    return this.options.gateContributors ?? [];
  }

  /** Waits for every subagent this runtime started, then stops. Abort first to stop them. */
  async close(): Promise<void> {
    this.closing.abort(new CoworkError('invalid_transition', 'the runtime is closing'));
    this.stopMonitorEvents();
    await this.delegation.settled();
  }

  /** Cancels a subagent: its loop stops and Main gets a `cancelled` result. */
  cancelSubagent(assignmentId: string): boolean {
    return this.delegation.cancel(assignmentId);
  }

  private async mainLoop(taskId: string, signal: AbortSignal): Promise<AgentLoop> {
    const paths = taskPaths(this.host.workspaceDir, taskId);
    const memory = new MemoryReader(paths);
    const operator: Operator = 'agent:main';
    const tools: AgentTool[] = [
      ...mainTools({
        taskId,
        resources: this.host.resources,
        inbox: this.inbox,
        paths,
        now: this.now,
        delegate: (input, call) => this.delegation.delegate(taskId, input, call),
        gate: () => this.gate(taskId),
        subagents: () => this.taskAssignments(taskId).map((a) => a.agentId),
        monitorActive: async (monitorId) => {
          const monitor = (await this.host.monitors.list({ taskId, status: 'active' })).find((m) => m.id === monitorId);
          return monitor?.agentId === MAIN;
        },
        publications: this.host.publications,
        approvalGate: this.approvalGate(),
      }),
      ...resourceTools(this.host.resources, operator, 'all', new LastSeen(this.host.store, this.now)),
      ...this.host.registry.tools().map((t) => pluginAgentTool(t, operator, this.toolHost(taskId, MAIN, 'all'), this.approvalGate())),
    ];
    const maxTokens = this.requireTask(taskId).maxTokens ?? this.options.taskMaxTokens;
    const tokens = this.tokenTotals(taskId);
    return new AgentLoop({
      store: this.host.store,
      inbox: this.inbox,
      provider: this.options.provider,
      taskId,
      agentId: MAIN,
      tools,
      compile: (schema) => this.host.registry.compile(schema),
      instructions: this.options.mainInstructions ? `${MAIN_INSTRUCTIONS}\n\n${this.options.mainInstructions}` : MAIN_INSTRUCTIONS,
      memory: () => memory.read(),
      projection: () => this.projection(taskId),
      maxTokens,
      usedTokens: async () => (await tokens.read(this.host.store)).total,
      maxOutputTokens: this.options.maxOutputTokens,
      signal,
      now: this.now,
      waitForWake: async (control, s) => {
        await this.host.coordinator.record({ type: 'task.waiting', data: { taskId, reason: `parked: ${JSON.stringify(control.wake)}` } });
        await waitForWake(this.wakeDeps(), { taskId, agentId: MAIN }, control.wake, s);
        await this.host.coordinator.record({ type: 'task.resumed', data: { taskId } });
      },
      onEvent: (event) => this.emit({ taskId, ...event }),
      files: this.host.workHistory?.turnHooks(taskId, MAIN, (error, turn) => this.emit({ type: 'work_history_failed', taskId, agentId: MAIN, turn, error })),
    });
  }

  /** One running total per task, shared by its budget check and its projection. */
  private tokenTotals(taskId: string): RunningTokenTotals {
    let totals = this.runningTotals.get(taskId);
    if (!totals) this.runningTotals.set(taskId, (totals = new RunningTokenTotals(taskId)));
    return totals;
  }

  private async projection(taskId: string): Promise<string> {
    const assignments = this.taskAssignments(taskId);
    const lines = assignments.map((a) => `- ${a.agentId} (${a.id}, ${a.mode}): ${a.status}${a.lastUpdate ? ` — ${a.lastUpdate}` : ''}`);
    // The gate and the digest list the same running jobs and active monitors: read once, with the rest.
    const inputs = await readProjectionInputs(this.host, taskId, this.tokenTotals(taskId));
    const blockers = await this.gate(taskId, inputs);
    // Runs, running jobs and active monitors, bounded and rebuilt from the store each turn.
    const digest = await runsDigest({ runs: inputs.runs, ...inputs.listers }, taskId, { tokenizer: tokenizerFor(this.options.provider.model) });
    // Paragraphs: the token total changes every turn, and the tokenizer counts a long head by
    // paragraph, so only that line is counted again (see PARAGRAPH_BREAK in tokenizer.ts).
    return [
      `Task ${taskId}.`,
      `Tokens used so far: ${inputs.tokensUsed}.`,
      assignments.length > 0 ? `Subagents:\n${lines.join('\n')}` : 'No subagents yet.',
      blockers.length > 0 ? `Open before finish: ${blockers.map((b) => `${b.kind} ${b.id}`).join(', ')}` : 'Nothing open: finish is allowed.',
      ...(digest ? [digest] : []),
    ].join('\n\n');
  }

  private requireTask(taskId: string): TaskState {
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

  /** Where high-impact calls wait for a person (the workspace's policy and approvals). */
  private approvalGate(): ApprovalGateDeps {
    return { workspaceDir: this.host.workspaceDir, approvals: this.host.approvals };
  }

  /** What a tool handler acting for an agent gets: the resource API scoped to the agent's grants. */
  private toolHost(taskId: string, agentId: string, grants: Grants | 'all'): ToolHostApi {
    const operator = `agent:${agentId}` as Operator;
    const onDenied = async (denial: AccessDenial): Promise<void> => {
      await this.host.coordinator.record({ type: 'access.denied', data: { taskId, agentId, ...denial } });
    };
    return {
      workspaceDir: this.host.workspaceDir,
      resources: scopedResources(this.host.resources, { operator, grants, onDenied }),
      runs: taskRunsApi(this.host.runs, { taskId, operator }),
    };
  }

  private wakeDeps(): WakeDeps {
    return { inbox: this.inbox, resources: this.host.resources, now: this.now, commits: (listener) => this.host.store.watchCommits(listener) };
  }

  private emit(event: RuntimeEvent): void {
    try {
      this.options.onEvent?.(event);
    } catch {
      // Progress display must never break a run.
    }
  }
}
