import type { RegisteredTool } from '../plugins/registry';
import { callPlugin } from '../plugins/registry';
import type { ToolHostApi } from '../plugins/types';
import type { Json, Operator } from '../store/records';
import type { AgentTool } from './agent-tool';
import { awaitApproval, impactOf, type ApprovalGateDeps } from './approval-gate';

/**
 * A plugin's tool as the agent loop runs it, acting for `operator` with `host` scoped to its grants.
 * A high-impact call (see `ToolDefinition.impact`) first waits for the approval the policy asks for.
 */
export function pluginAgentTool(registered: RegisteredTool, operator: Operator, host: ToolHostApi, gate?: ApprovalGateDeps): AgentTool {
  const { tool, plugin } = registered;
  return {
    spec: { name: tool.name, description: tool.description, inputSchema: tool.inputSchema },
    readOnly: tool.readOnly === true,
    run: async (input, call) => {
      const impact = gate && impactOf(tool, input);
      if (gate && impact !== undefined) {
        const refused = await awaitApproval(gate, { taskId: call.taskId, agentId: call.agentId, callKey: call.idempotencyKey, tool: tool.name, impact, input }, call.signal);
        if (refused) return refused;
      }
      const context = { operator, idempotencyKey: call.idempotencyKey, taskId: call.taskId, agentId: call.agentId, signal: call.signal, host };
      const result = await callPlugin(plugin, `tool ${tool.name}`, () => tool.handler(input, context));
      return { content: result.content as Json, isError: result.isError };
    },
  };
}
