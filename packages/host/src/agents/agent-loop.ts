import type { ValidateFunction } from 'ajv';
import { isCoworkError } from '../errors';
import { schemaProblems } from '../util/json-schema';
import type { ChatMessage, ModelProvider, ModelResponse, ToolCall, ToolSpec } from '../models/types';
import { tokenizerFor } from '../models/tokenizer';
import type { ConversationRecord, InboxRecord } from '../store/agent-records';
import type { Json } from '../store/records';
import type { Store, StoreTx } from '../store/store';
import { errorOutcome, type AgentTool, type LoopControl, type ToolOutcome } from './agent-tool';
import { buildContext } from './context-builder';
import { loadRecentContext, PAGE, RecentContextCache } from './context-loader';
import { asJson } from '../util/json';
import { toChatMessage, unansweredToolCalls } from './conversation';
import { compactConversation } from './compaction';
import type { Inbox } from './inbox';
import { recordModelCall } from './model-calls';
import type { TurnFileHooks } from './work-history';

/** Progress a loop reports as it goes (the CLI and live clients show it). */
export type LoopEvent =
  | { type: 'turn'; agentId: string; turn: number; contextTokens: number; droppedMessages: number }
  | { type: 'model'; agentId: string; turn: number; inputTokens: number; outputTokens: number; finishReason: string }
  | { type: 'tool'; agentId: string; turn: number; name: string; isError: boolean }
  | { type: 'delivered'; agentId: string; turn: number; messageIds: string[] }
  | { type: 'compacted'; agentId: string; summarisedToSeq: number }
  | { type: 'compaction_failed'; agentId: string; error: string }
  | { type: 'work_history_failed'; agentId: string; turn: number; error: string };

export type LoopEnd =
  | { reason: 'finished'; summary: string }
  | { reason: 'submitted'; result: Json }
  | { reason: 'replied'; text: string }
  | { reason: 'budget_exhausted'; usedTokens: number; maxTokens: number }
  | { reason: 'aborted' };

export interface LoopSetup {
  readonly store: Store;
  readonly inbox: Inbox;
  readonly provider: ModelProvider;
  readonly taskId: string;
  readonly agentId: string;
  readonly tools: readonly AgentTool[];
  /** Tools that exist but were not granted: calling one is `permission_denied`, not "unknown". */
  readonly deniedTools?: ReadonlySet<string>;
  readonly compile: (schema: object) => ValidateFunction;
  readonly instructions: string;
  readonly memory: () => string | null;
  readonly projection: () => Promise<string | null>;
  /** Token budget of this agent (for Main: of the whole task). */
  readonly maxTokens?: number;
  readonly usedTokens: () => Promise<number>;
  readonly maxOutputTokens?: number;
  readonly signal: AbortSignal;
  readonly now: () => Date;
  /** Waits until a parked loop may continue (a timer, a resource change, an Inbox message). */
  readonly waitForWake: (control: Extract<LoopControl, { type: 'park' }>, signal: AbortSignal) => Promise<void>;
  readonly onEvent?: (event: LoopEvent) => void;
  /** Called when a denied tool was attempted, so that the runtime records it. */
  readonly onDenied?: (tool: string, turn: number) => Promise<void>;
  /** Compact on its own once the context passes this share of the budget. */
  readonly autoCompactAt?: number;
  /** The task's `work/` under git: others' changes committed before a turn, the turn's own after it. */
  readonly files?: TurnFileHooks;
}

/**
 * A tool as the loop keeps it. Tools come from many modules as objects of different shapes (with
 * and without `readOnly`); one shape here keeps the turn's optimised code from being thrown away
 * when a call meets a tool of a shape it had not seen (the first `finish`, a new task's tools).
 */
interface LoopTool {
  readonly tool: AgentTool;
  readonly readOnly: boolean;
  /** The input schema's validator, compiled at the tool's first call. */
  validate: ValidateFunction | undefined;
}

/** A tool call that threw because the loop was stopped (a cancel, the host closing). */
const INTERRUPTED = Symbol('interrupted');
/** Records read first when looking for the newest assistant entry (then pages of `PAGE`). */
const TAIL_FIRST_PAGE = 16;

/**
 * One agent's loop: model turn, its tool calls, the next turn. The boundary between turns is the
 * only place Inbox messages enter the conversation. Everything is saved as it happens, so a loop
 * started again after a crash continues where the log ends: an assistant turn whose tool calls have
 * no results yet is finished by running those calls (with their idempotency keys), not by asking
 * the model again.
 */
export class AgentLoop {
  private compactRequested = false;
  /** The parsed tail of this agent's log, so each turn reads only what was logged since the last. */
  private readonly recent = new RecentContextCache();
  /** What `readTail` answered last: the newest assistant entry and the records after it. */
  private tail: ConversationRecord[] | undefined;
  /** One array for the loop's life: the tokenizer caches the tools' count by this array. */
  private readonly toolSpecs: ToolSpec[];
  /** The tools by name: each call looks its tool up. */
  private readonly toolsByName: ReadonlyMap<string, LoopTool>;

  constructor(private readonly setup: LoopSetup) {
    this.toolSpecs = setup.tools.map((t) => t.spec);
    this.toolsByName = new Map(setup.tools.map((t) => [t.spec.name, { tool: t, readOnly: t.readOnly === true, validate: undefined }]));
  }

  async run(): Promise<LoopEnd> {
    const s = this.setup;
    for (;;) {
      if (s.signal.aborted) return { reason: 'aborted' };
      const records = await this.readTail();
      const unanswered = unansweredToolCalls(records);
      if (unanswered) {
        const end = await this.runToolCalls(unanswered.calls, unanswered.turn);
        if (end) return end;
        continue;
      }
      const turn = (records[records.length - 1]?.turn ?? 0) + 1;
      await this.deliverInbox(turn);
      if (this.compactRequested) await this.compact();
      // Summing the task's model calls grows with the log: only a loop with a budget pays for it.
      if (s.maxTokens !== undefined) {
        const used = await s.usedTokens();
        if (used >= s.maxTokens) return { reason: 'budget_exhausted', usedTokens: used, maxTokens: s.maxTokens };
      }
      const byOthers = (await s.files?.beforeTurn(turn)) ?? [];
      if (byOthers.length > 0) await this.note(turn, othersNote(byOthers));
      const response = await this.modelTurn(turn);
      if (response === 'aborted') return { reason: 'aborted' };
      const calls = response.message.toolCalls;
      if (calls.length > 0 && this.allReadOnly(calls)) {
        const end = await this.readOnlyTurn(response, turn);
        if (end) return end;
        continue;
      }
      await this.saveAnswer(response, turn);
      if (calls.length === 0) {
        if (response.finishReason === 'length') {
          await this.note(turn, 'Your reply was cut off at the output limit. Continue, more briefly, or call a tool.');
          continue;
        }
        return { reason: 'replied', text: response.message.content ?? '' };
      }
      const end = await this.runToolCalls(calls, turn);
      if (end) return end;
    }
  }

  /** Ask for compaction after the current turn (the `clear_context` tool). */
  requestCompaction(): void {
    this.compactRequested = true;
  }

  private async modelTurn(turn: number): Promise<ModelResponse | 'aborted'> {
    const s = this.setup;
    const budgetTokens = s.provider.maxContextTokens - (s.maxOutputTokens ?? 4096);
    const tokenizer = tokenizerFor(s.provider.model);
    const tools = this.toolSpecs;
    const { messages, summary, omitted } = await loadRecentContext(s.store, s.taskId, s.agentId, budgetTokens, tokenizer, this.recent);
    const context = buildContext({
      instructions: s.instructions,
      memory: s.memory(),
      projection: await s.projection(),
      summary,
      messages,
      omittedBefore: omitted,
      budgetTokens,
      tools,
      tokenizer,
    });
    s.onEvent?.({ type: 'turn', agentId: s.agentId, turn, contextTokens: context.tokens, droppedMessages: context.droppedMessages });
    if (context.tokens > budgetTokens * (s.autoCompactAt ?? 0.75)) this.compactRequested = true;
    let response: ModelResponse;
    try {
      response = await s.provider.complete({
        messages: context.messages,
        tools,
        maxOutputTokens: s.maxOutputTokens,
        signal: s.signal,
      });
    } catch (error) {
      if (s.signal.aborted) return 'aborted';
      throw error;
    }
    return response;
  }

  /** Saves the model's answer (and its call's usage) before any of its tools run, so a resumed loop runs them instead of asking again. */
  private async saveAnswer(response: ModelResponse, turn: number): Promise<void> {
    await this.setup.store.transaction((tx) => this.writeAnswer(tx, response, turn));
    this.answerSaved(response, turn);
  }

  private async writeAnswer(tx: StoreTx, response: ModelResponse, turn: number): Promise<void> {
    const s = this.setup;
    const assistant: ChatMessage = {
      role: 'assistant',
      content: response.message.content,
      ...(response.message.toolCalls.length > 0 ? { toolCalls: response.message.toolCalls } : {}),
    };
    const at = s.now().toISOString();
    await recordModelCall(tx, { taskId: s.taskId, agentId: s.agentId, turn, at }, response);
    await this.logEntry(tx, turn, assistant, at);
  }

  /** Appends one message to this agent's conversation log. */
  private logEntry(tx: StoreTx, turn: number, message: ChatMessage, at = this.setup.now().toISOString()): Promise<number> {
    const s = this.setup;
    return tx.conversation.append({ taskId: s.taskId, agentId: s.agentId, turn, message: asJson(message), sourceMessageId: null, createdAt: at });
  }

  private answerSaved(response: ModelResponse, turn: number): void {
    this.setup.onEvent?.({
      type: 'model',
      agentId: this.setup.agentId,
      turn,
      inputTokens: response.usage.inputTokens,
      outputTokens: response.usage.outputTokens,
      finishReason: response.finishReason,
    });
  }

  /** Whether every call names a tool that changes nothing (`AgentTool.readOnly`). */
  private allReadOnly(calls: readonly ToolCall[]): boolean {
    return calls.every((call) => this.toolsByName.get(call.name)?.readOnly === true);
  }

  /**
   * A turn whose calls all change nothing: they run first, and the answer and their results are
   * saved in one write. A crash before that write is flushed loses only an answer nothing acted on,
   * and the resumed loop asks the model again; so the write does not wait for its flush
   * (`flush: 'later'`): the next turn that changes something, or the next WAL checkpoint, flushes it.
   * A crash of the process loses nothing; a power loss can lose such turns, never a later one.
   * Interrupted, the answer is saved alone, as on the ordinary path, and the resumed loop runs the calls.
   */
  private async readOnlyTurn(response: ModelResponse, turn: number): Promise<LoopEnd | undefined> {
    const s = this.setup;
    const calls = response.message.toolCalls;
    const results: { call: ToolCall; message: ChatMessage; isError: boolean }[] = [];
    const controls: LoopControl[] = [];
    for (const call of calls) {
      const outcome = await this.runTool(call, turn);
      if (outcome === INTERRUPTED) {
        await this.saveAnswer(response, turn);
        return { reason: 'aborted' };
      }
      if (outcome.control) controls.push(outcome.control);
      results.push({ call, message: toolMessage(call, outcome), isError: outcome.isError === true });
    }
    await s.store.transaction(
      async (tx) => {
        await this.writeAnswer(tx, response, turn);
        for (const { message } of results) await this.logEntry(tx, turn, message);
      },
      { flush: 'later' },
    );
    this.answerSaved(response, turn);
    for (const { call, isError } of results) s.onEvent?.({ type: 'tool', agentId: s.agentId, turn, name: call.name, isError });
    if (controls.length === 0) {
      // No snapshot of work/ after the turn: its calls changed no file, so whatever changed meanwhile
      // is someone else's, and the next turn's snapshot records it as theirs.
      return undefined;
    }
    // A turn that may end the loop (finish, submit_result) has no next turn to record work/: it
    // takes its snapshot as the ordinary path does.
    await s.files?.afterTurn(turn, calls.map((c) => c.name));
    return this.applyControls(controls);
  }

  /** Runs a turn's tool calls in order, saving each result; then applies what they asked for. */
  private async runToolCalls(calls: readonly ToolCall[], turn: number): Promise<LoopEnd | undefined> {
    const s = this.setup;
    const controls: LoopControl[] = [];
    for (const call of calls) {
      const outcome = await this.runTool(call, turn);
      // Interrupted, not failed: left unanswered, so the resumed loop runs it again under its key.
      if (outcome === INTERRUPTED) return { reason: 'aborted' };
      if (outcome.control) controls.push(outcome.control);
      const message = toolMessage(call, outcome);
      await s.store.transaction((tx) => this.logEntry(tx, turn, message));
      s.onEvent?.({ type: 'tool', agentId: s.agentId, turn, name: call.name, isError: outcome.isError === true });
    }
    // The turn's snapshot, before parking or finishing: what changed in work/ now is this agent's.
    await s.files?.afterTurn(turn, calls.map((c) => c.name));
    return this.applyControls(controls);
  }

  /** What a turn's calls asked of the loop, once their results are saved: end it, compact after it, or park. */
  private async applyControls(controls: readonly LoopControl[]): Promise<LoopEnd | undefined> {
    for (const control of controls) {
      if (control.type === 'finish') return { reason: 'finished', summary: control.summary };
      if (control.type === 'submit') return { reason: 'submitted', result: control.result };
      if (control.type === 'compact') this.compactRequested = true;
    }
    const park = controls.find((c): c is Extract<LoopControl, { type: 'park' }> => c.type === 'park');
    if (park) await this.setup.waitForWake(park, this.setup.signal);
    return undefined;
  }

  private async runTool(call: ToolCall, turn: number): Promise<ToolOutcome | typeof INTERRUPTED> {
    const s = this.setup;
    const entry = this.toolsByName.get(call.name);
    if (!entry) {
      if (s.deniedTools?.has(call.name)) {
        await s.onDenied?.(call.name, turn);
        return errorOutcome('permission_denied', `you were not granted the tool ${call.name}; ask Main for it or work with what you have`);
      }
      return errorOutcome('unknown_tool', `there is no tool named ${JSON.stringify(call.name)}; use one of: ${s.tools.map((t) => t.spec.name).join(', ')}`);
    }
    let input: unknown;
    try {
      input = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
    } catch (error) {
      return errorOutcome('invalid_json', `the arguments of ${call.name} are not valid JSON (${(error as Error).message}); send one JSON object matching the tool's schema`);
    }
    const validate = (entry.validate ??= s.compile(entry.tool.spec.inputSchema));
    if (!validate(input)) {
      return errorOutcome('invalid_input', `the arguments of ${call.name} do not match its schema: ${schemaProblems(validate).join('; ')}`);
    }
    try {
      return await entry.tool.run(input as Json, {
        taskId: s.taskId,
        agentId: s.agentId,
        turn,
        callId: call.id,
        idempotencyKey: `${s.taskId}/${s.agentId}/${turn}/${call.id}`,
        signal: s.signal,
      });
    } catch (error) {
      if (s.signal.aborted) return INTERRUPTED;
      if (isCoworkError(error)) return { isError: true, content: asJson(error.toJSON()) };
      return errorOutcome('tool_failed', `${call.name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async deliverInbox(turn: number): Promise<void> {
    const s = this.setup;
    const delivered = await s.inbox.deliver(s.taskId, s.agentId, `${s.agentId}@${process.pid}`, turn, (m) => asJson(inboxEntry(m)));
    if (delivered.length > 0) s.onEvent?.({ type: 'delivered', agentId: s.agentId, turn, messageIds: delivered.map((m) => m.messageId) });
  }

  private async note(turn: number, text: string): Promise<void> {
    const s = this.setup;
    const message: ChatMessage = { role: 'user', content: `[runtime] ${text}` };
    await s.store.transaction((tx) => this.logEntry(tx, turn, message));
  }

  /**
   * The newest assistant entry and everything after it: enough to find the turn and unanswered
   * calls. The first read (a start, a resume after a crash) pages back from the end of the log;
   * later ones read only the records logged since, as the log is append-only.
   */
  private async readTail(): Promise<ConversationRecord[]> {
    const s = this.setup;
    return s.store.read(async (tx) => {
      const known = this.tail;
      if (known) {
        const fresh = await tx.conversation.list(s.taskId, s.agentId, known.length > 0 ? known[known.length - 1]!.seq : 0);
        return fresh.length === 0 ? known : (this.tail = fromNewestAssistant(known.concat(fresh)));
      }
      const newestFirst: ConversationRecord[] = [];
      // The newest assistant entry is nearly always within the last few records (its call and
      // results): a small first page spares parsing a full page every turn.
      for (let beforeSeq: number | undefined, limit = TAIL_FIRST_PAGE; ; limit = PAGE) {
        const page = await tx.conversation.recent(s.taskId, s.agentId, { afterSeq: 0, beforeSeq, limit });
        newestFirst.push(...page);
        if (page.length < limit || page.some(isAssistant)) break;
        beforeSeq = page[page.length - 1]!.seq;
      }
      // The first page may reach past the newest assistant entry.
      return (this.tail = fromNewestAssistant(newestFirst.reverse()));
    });
  }

  private async compact(): Promise<void> {
    const s = this.setup;
    this.compactRequested = false;
    try {
      const result = await compactConversation({
        store: s.store,
        provider: s.provider,
        taskId: s.taskId,
        agentId: s.agentId,
        now: s.now,
        signal: s.signal,
      });
      if (result) s.onEvent?.({ type: 'compacted', agentId: s.agentId, summarisedToSeq: result.summarisedToSeq });
    } catch (error) {
      // The old context stays: nothing was written.
      s.onEvent?.({ type: 'compaction_failed', agentId: s.agentId, error: error instanceof Error ? error.message : String(error) });
    }
  }
}

function isAssistant(record: ConversationRecord): boolean {
  return toChatMessage(record).role === 'assistant';
}

/** The records from the newest assistant entry on (all of them when there is none). */
function fromNewestAssistant(records: ConversationRecord[]): ConversationRecord[] {
  const newest = records.findLastIndex(isAssistant);
  return newest > 0 ? records.slice(newest) : records;
}

/** A tool call's result as the conversation logs it. */
function toolMessage(call: ToolCall, outcome: ToolOutcome): ChatMessage {
  const content = typeof outcome.content === 'string' ? outcome.content : JSON.stringify(outcome.content);
  return { role: 'tool', toolCallId: call.id, content };
}

/** The runtime note that tells an agent which files of work/ others changed since its last turn. */
export function othersNote(paths: readonly string[]): string {
  const shown = paths.slice(0, 20).join(', ');
  const more = paths.length > 20 ? ` and ${paths.length - 20} more` : '';
  return `changed by others since your last turn (in work/): ${shown}${more}`;
}

/** How an Inbox message reads in the recipient's conversation. */
export function inboxEntry(message: InboxRecord): ChatMessage {
  const body = typeof message.body === 'string' ? message.body : JSON.stringify(message.body);
  if (message.kind === 'user') return { role: 'user', content: body };
  const label = message.kind === 'result' ? `result from ${message.sender}` : `message from ${message.sender}`;
  return { role: 'user', content: `[${label} · ${message.messageId}]\n${body}` };
}
