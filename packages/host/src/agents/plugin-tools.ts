import type { RegisteredTool } from '../plugins/registry';
import { callPlugin } from '../plugins/registry';
import type { ResourceApi } from '../resources/types';
import type { Json, Operator } from '../store/records';
import type { AgentTool } from './agent-tool';

/** A plugin's tool as the agent loop runs it, acting for `operator`. */
export function pluginAgentTool(registered: RegisteredTool, operator: Operator, host: { workspaceDir: string; resources: ResourceApi }): AgentTool {
  const { tool, plugin } = registered;
  return {
    spec: { name: tool.name, description: tool.description, inputSchema: tool.inputSchema },
    run: async (input, call) => {
      const result = await callPlugin(plugin, `tool ${tool.name}`, () =>
        tool.handler(input, { operator, idempotencyKey: call.idempotencyKey, signal: call.signal, host }),
      );
      return { content: result.content as Json, isError: result.isError };
    },
  };
}
