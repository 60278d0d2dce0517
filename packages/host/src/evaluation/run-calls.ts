import type { TrialRun } from '../plugins/suite';
import { isPlainObject, type Json } from '../util/json';

/** One tool call of a trial, with its input and the result the agent got back. */
export interface RunCall {
  readonly agentId: string;
  readonly turn: number;
  readonly name: string;
  /** The input as the model wrote it, parsed (undefined when it was not valid JSON). */
  readonly input: Json | undefined;
  /** The result as the agent read it, parsed when it is JSON; undefined when the call got none. */
  readonly result: Json | undefined;
  /** The result reports an error (`{"error": ...}`, or a refusal). */
  readonly failed: boolean;
}

/**
 * The tool calls of a trial's run record, in the order each agent made them (Main first, then each
 * subagent), paired with their results: what a check reads to see what the agents did.
 */
export function runCalls(run: TrialRun): RunCall[] {
  const results = new Map<string, Json | undefined>();
  for (const entry of run.entries) {
    const message = entry.message as { role?: string; toolCallId?: string; content?: string };
    if (message.role === 'tool' && typeof message.toolCallId === 'string') results.set(`${entry.agentId}#${message.toolCallId}`, parse(message.content ?? ''));
  }
  const calls: RunCall[] = [];
  for (const entry of run.entries) {
    const message = entry.message as { role?: string; toolCalls?: { id: string; name: string; arguments: string }[] };
    if (message.role !== 'assistant') continue;
    for (const call of message.toolCalls ?? []) {
      const result = results.get(`${entry.agentId}#${call.id}`);
      calls.push({ agentId: entry.agentId, turn: entry.turn, name: call.name, input: parse(call.arguments), result, failed: isFailure(result) });
    }
  }
  return calls;
}

function parse(text: string): Json | undefined {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return text === '' ? undefined : text;
  }
}

function isFailure(result: Json | undefined): boolean {
  // A coded error (`{"error": {"code", ...}}`) or the completion gate's refusal; a job's `error: null` is no failure.
  return isPlainObject(result) && ((isPlainObject(result.error) && typeof result.error.code === 'string') || result.refused === true);
}
