import type { ModelCallRecord } from '../agent-records';
import type { Param } from './table';

export const MODEL_CALL_COLUMNS = ['task_id', 'agent_id', 'turn', 'model', 'input_tokens', 'output_tokens', 'finish_reason', 'latency_ms', 'attempts', 'created_at'] as const;

export function modelCallValues(r: ModelCallRecord): Param[] {
  return [r.taskId, r.agentId, r.turn, r.model, r.inputTokens, r.outputTokens, r.finishReason, Math.round(r.latencyMs), r.attempts, r.createdAt];
}
