import type { ModelResponse } from '../models/types';
import type { StoreTx } from '../store/store';

/** Records one model call's token usage, inside the caller's transaction. */
export async function recordModelCall(
  tx: StoreTx,
  call: { taskId: string; agentId: string; turn: number; at: string },
  response: ModelResponse,
): Promise<void> {
  await tx.modelCalls.insert({
    taskId: call.taskId,
    agentId: call.agentId,
    turn: call.turn,
    model: response.model,
    inputTokens: response.usage.inputTokens,
    outputTokens: response.usage.outputTokens,
    finishReason: response.finishReason,
    latencyMs: response.latencyMs,
    attempts: response.attempts,
    createdAt: call.at,
  });
}
