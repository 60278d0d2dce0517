import Ajv, { type ValidateFunction } from 'ajv';
import type { JsonSchema } from '@cowork/host';
import { trainerError } from '../errors';
import type { ChatSample } from '../sample';
import { runFilter, type FilterOutcome } from './report';

/** A tool the trajectories may call, with its input schema (the plugin API gives no catalog: the caller brings it). */
export interface ToolSpec {
  readonly name: string;
  readonly inputSchema: JsonSchema;
}

/** Compiles a catalog's schemas once; a schema that does not compile refuses the catalog. */
export function compileCatalog(tools: readonly ToolSpec[]): Map<string, ValidateFunction> {
  const ajv = new Ajv({ strict: false, allErrors: false });
  const catalog = new Map<string, ValidateFunction>();
  for (const tool of tools) {
    try {
      catalog.set(tool.name, ajv.compile(tool.inputSchema));
    } catch (error) {
      throw trainerError('bad_tool_catalog', `the input schema of tool ${tool.name} does not compile: ${(error as Error).message}`, { tool: tool.name });
    }
  }
  return catalog;
}

/**
 * Validity: every call's arguments parse as JSON, name a tool of the catalog and match its input
 * schema; every call has a result before the next assistant turn; the trajectory has an assistant
 * turn and ends on one (after sample.ts dropped a trailing `finish` result).
 */
export function validityFilter(samples: readonly ChatSample[], tools: readonly ToolSpec[]): FilterOutcome {
  const catalog = compileCatalog(tools);
  return runFilter('validity', samples, (sample) => {
    const messages = sample.messages;
    if (!messages.some((m) => m.role === 'assistant')) return { reason: 'no_assistant_turn', detail: 'the trajectory has no assistant message' };
    const answered = new Set(messages.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : [])));
    for (const message of messages) {
      if (message.role !== 'assistant') continue;
      for (const call of message.tool_calls ?? []) {
        let args: unknown;
        try {
          args = JSON.parse(call.arguments) as unknown;
        } catch {
          return { reason: 'call_unparseable', detail: `the arguments of ${call.name} are not JSON: ${call.arguments.slice(0, 80)}` };
        }
        const validate = catalog.get(call.name);
        if (validate === undefined) return { reason: 'unknown_tool', detail: `${call.name} is not in the tool catalog` };
        if (!validate(args)) {
          const problem = (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`).join('; ');
          return { reason: 'args_mismatch', detail: `${call.name}: ${problem}` };
        }
        if (message !== messages[messages.length - 1] && !answered.has(call.id)) return { reason: 'call_unanswered', detail: `${call.name} (${call.id}) got no result` };
      }
    }
    const last = messages[messages.length - 1]!;
    if (last.role !== 'assistant') return { reason: 'ends_on_' + last.role, detail: `the trajectory ends on a ${last.role} message, not on the assistant's turn` };
    return undefined;
  });
}
