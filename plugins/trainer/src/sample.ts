import { hashJson } from './hash';
import type { LoadedRun } from './run-record';

/** A tool call as the OpenAI chat format writes it (the format fine-tuning tools read). */
export interface SampleToolCall {
  readonly id: string;
  readonly name: string;
  /** The raw text the model wrote: it may not parse, which the validity filter reports. */
  readonly arguments: string;
}

export type SampleMessage =
  | { readonly role: 'system' | 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string | null; readonly tool_calls?: readonly SampleToolCall[] }
  | { readonly role: 'tool'; readonly tool_call_id: string; readonly content: string };

/**
 * One training trajectory: one agent's conversation in one trial. The loss falls on the assistant
 * messages only (see chat-template.ts); the rest is context.
 */
export interface ChatSample {
  /** SHA-256 of the canonical JSON of `messages`: equal conversations get equal hashes, wherever they came from. */
  readonly hash: string;
  readonly source: string;
  readonly suite: string;
  readonly task: string;
  readonly trial: number;
  readonly agent: string;
  readonly split: 'dev' | 'heldout' | 'unknown';
  /** The sampling group whose multiplier applies (`new`, `old`, a family name). */
  readonly group: string;
  /** The trial's request: what the held-out similarity filter compares. */
  readonly request: string;
  /** The run's rubric outcome: null for an invalid trial. */
  readonly rubric: { readonly passed: boolean; readonly earned: number; readonly points: number } | null;
  readonly messages: readonly SampleMessage[];
}

/** Calls whose result ends the conversation: the trailing tool message answering them is not part of the sample. */
const TERMINAL_TOOLS = new Set(['finish']);

/**
 * The samples of a run record: one per agent, in the order the agents first spoke. The runtime
 * stores messages as `{role, content, toolCalls, toolCallId}`; they become OpenAI-style messages.
 * A trailing result of `finish` is dropped, so a Main that finished ends on its assistant turn.
 */
export function samplesOf(run: LoadedRun, group: string): ChatSample[] {
  const { record } = run;
  const byAgent = new Map<string, SampleMessage[]>();
  for (const entry of record.entries) {
    const message = toSampleMessage(entry.message);
    if (message === undefined) continue;
    const list = byAgent.get(entry.agentId) ?? [];
    list.push(message);
    byAgent.set(entry.agentId, list);
  }
  const rubric = record.status === 'invalid'
    ? null
    : {
        passed: record.items.length > 0 && record.items.every((i) => i.pass),
        earned: record.items.reduce((s, i) => s + i.earned, 0),
        points: record.items.reduce((s, i) => s + i.points, 0),
      };
  return [...byAgent.entries()].map(([agent, messages]) => {
    const trimmed = trimTerminalResult(messages);
    return {
      hash: hashJson(trimmed),
      source: run.source,
      suite: record.suite,
      task: record.task,
      trial: record.trial,
      agent,
      split: run.split,
      group,
      request: record.request,
      rubric,
      messages: trimmed,
    };
  });
}

function toSampleMessage(raw: unknown): SampleMessage | undefined {
  const m = raw as { role?: string; content?: unknown; toolCalls?: unknown; toolCallId?: unknown };
  const text = typeof m.content === 'string' ? m.content : '';
  switch (m.role) {
    case 'system':
    case 'user':
      return { role: m.role, content: text };
    case 'assistant': {
      const calls = Array.isArray(m.toolCalls)
        ? (m.toolCalls as { id?: unknown; name?: unknown; arguments?: unknown }[]).map((c) => ({
            id: String(c.id ?? ''),
            name: String(c.name ?? ''),
            arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? null),
          }))
        : [];
      return calls.length > 0
        ? { role: 'assistant', content: typeof m.content === 'string' ? m.content : null, tool_calls: calls }
        : { role: 'assistant', content: typeof m.content === 'string' ? m.content : null };
    }
    case 'tool':
      return { role: 'tool', tool_call_id: String(m.toolCallId ?? ''), content: text };
    default:
      return undefined;
  }
}

function trimTerminalResult(messages: SampleMessage[]): SampleMessage[] {
  const last = messages[messages.length - 1];
  const before = messages[messages.length - 2];
  if (last?.role !== 'tool' || before?.role !== 'assistant') return messages;
  const call = before.tool_calls?.find((c) => c.id === last.tool_call_id);
  return call !== undefined && TERMINAL_TOOLS.has(call.name) && before.tool_calls?.length === 1 ? messages.slice(0, -1) : messages;
}
