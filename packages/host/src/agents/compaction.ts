import { CoworkError } from '../errors';
import type { ChatMessage, ModelProvider } from '../models/types';
import type { ConversationRecord } from '../store/agent-records';
import type { Store } from '../store/store';
import { toChatMessage } from './conversation';
import { recordModelCall } from './model-calls';

export interface CompactionRequest {
  readonly store: Store;
  readonly provider: ModelProvider;
  readonly taskId: string;
  readonly agentId: string;
  readonly now: () => Date;
  readonly signal?: AbortSignal;
  /** How many of the newest units (a message, or a tool call with its results) stay verbatim. */
  readonly keepUnits?: number;
}

const INSTRUCTIONS = `You compact the working context of an agent that is in the middle of a long task.
Write a summary that lets the agent continue without the messages below: the user's requirements,
decisions and conclusions, what was produced (ids, files, revisions), what is unfinished, and the
next steps. Be specific and brief. Do not invent anything.`;

/**
 * Summarises the older part of a conversation with the model and records a compaction. The cut is
 * always between units, so a tool call is never separated from its result. Nothing is written when
 * the model fails: the old context stays. Returns undefined when there is too little to compact.
 */
export async function compactConversation(request: CompactionRequest): Promise<{ summarisedToSeq: number } | undefined> {
  const { store, taskId, agentId } = request;
  const { previous, records } = await store.read(async (tx) => {
    const previous = await tx.compactions.latest(taskId, agentId);
    return { previous, records: await tx.conversation.list(taskId, agentId, previous?.summarisedToSeq ?? 0) };
  });
  const units = recordUnits(records);
  const keep = request.keepUnits ?? 4;
  if (units.length <= keep) return undefined;
  const summarised = units.slice(0, units.length - keep).flat();
  const transcript = summarised.map((r) => render(toChatMessage(r))).join('\n');
  const response = await request.provider.complete({
    messages: [
      { role: 'system', content: INSTRUCTIONS },
      {
        role: 'user',
        content: `${previous ? `Summary so far:\n${previous.summary}\n\n` : ''}Messages to summarise:\n${transcript}`,
      },
    ],
    tools: [],
    signal: request.signal,
  });
  const summary = response.message.content?.trim();
  if (!summary) throw new CoworkError('model_unavailable', 'the model returned an empty summary; the context was not compacted');
  const last = summarised[summarised.length - 1]!;
  const messages = summarised.map(toChatMessage);
  await store.transaction(async (tx) => {
    const at = request.now().toISOString();
    await recordModelCall(tx, { taskId, agentId, turn: last.turn, at }, response);
    await tx.compactions.insert({
      taskId,
      agentId,
      summarisedToSeq: last.seq,
      summary,
      dropped: {
        fromSeq: summarised[0]!.seq,
        toSeq: last.seq,
        messages: summarised.length,
        userMessages: messages.filter((m) => m.role === 'user').length,
        toolCalls: messages.reduce((n, m) => n + (m.role === 'assistant' ? (m.toolCalls?.length ?? 0) : 0), 0),
      },
      createdAt: at,
    });
  });
  return { summarisedToSeq: last.seq };
}

/** Groups log records like the context builder groups messages: a call travels with its results. */
export function recordUnits(records: readonly ConversationRecord[]): ConversationRecord[][] {
  const units: ConversationRecord[][] = [];
  for (const record of records) {
    if (toChatMessage(record).role === 'tool' && units.length > 0) units[units.length - 1]!.push(record);
    else units.push([record]);
  }
  return units;
}

function render(message: ChatMessage): string {
  switch (message.role) {
    case 'assistant': {
      const calls = (message.toolCalls ?? []).map((c) => `  call ${c.name}(${c.arguments.slice(0, 500)})`).join('\n');
      return `assistant: ${message.content ?? ''}${calls ? `\n${calls}` : ''}`;
    }
    case 'tool':
      return `  result: ${message.content.slice(0, 1000)}`;
    default:
      return `${message.role}: ${message.content}`;
  }
}
