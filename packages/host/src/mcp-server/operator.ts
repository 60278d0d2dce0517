import type { Operator } from '../store/records';
import type { JsonSchema } from '../util/json-schema';

/**
 * Who an MCP call acts as. As over HTTP, the caller names the operator (`human:<name>` when a
 * person drives the client, `agent:<id>` for an agent); when it does not, this fixed one, so every
 * revision an MCP client makes is recognisable in history.
 */
export const MCP_OPERATOR: Operator = 'agent:mcp-client';

export const OPERATOR_ARG: JsonSchema = {
  type: 'string',
  pattern: '^(human|agent):[A-Za-z0-9][A-Za-z0-9._@-]{0,127}$',
  description: `Who acts: "human:<name>" or "agent:<id>" (default ${MCP_OPERATOR}).`,
};

export function operatorOf(args: Record<string, unknown>): Operator {
  return typeof args.operator === 'string' ? (args.operator as Operator) : MCP_OPERATOR;
}
