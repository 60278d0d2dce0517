import type { Host } from '../host';
import { callPluginAsync, type RegisteredTool } from '../plugins/registry';
import type { ToolResult } from '../plugins/types';
import { MCP_OPERATOR } from './operator';
import type { McpTool, ToolOutput } from './tool';

/**
 * A loaded plugin's tool, offered as it is offered to agents: its own name, description and input
 * schema, run with the MCP operator. Read from the registry at each listing, so plugins loaded
 * later (mounted MCP servers) appear too.
 */
export function pluginTool(host: Host, registered: RegisteredTool): McpTool {
  const { tool, plugin } = registered;
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    async run(args, call) {
      const context = { operator: MCP_OPERATOR, signal: call.signal, host: { workspaceDir: host.workspaceDir, resources: host.resources } };
      return toOutput(await callPluginAsync(plugin, `tool ${tool.name}`, () => tool.handler(args as ToolResult['content'], context)));
    },
  };
}

function toOutput(result: ToolResult): ToolOutput {
  const { content } = result;
  const text = typeof content === 'string' ? content : JSON.stringify(content, null, 2);
  const structured = typeof content === 'object' && content !== null && !Array.isArray(content) ? { structuredContent: content as Record<string, unknown> } : {};
  return { content: [{ type: 'text', text }], ...structured, ...(result.isError ? { isError: true } : {}) };
}
