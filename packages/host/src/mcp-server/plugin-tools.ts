import type { Host } from '../host';
import { callPluginAsync, type RegisteredTool } from '../plugins/registry';
import type { ToolResult } from '../plugins/types';
import { scopedResources, READ_ONLY } from '../agents/scoped-resources';
import { CoworkError } from '../errors';
import { writingOperator } from '../identity/principal';
import { MCP_OPERATOR, readerOf } from './operator';
import type { McpTool, ToolOutput } from './tool';

/**
 * A loaded plugin's tool, offered as it is offered to agents: its own name, description and input
 * schema, run as the caller's operator (the MCP operator for the owner's client, `human:<name>`
 * for a person's token) with the resource API scoped to it. A viewer may call only tools that
 * declare nothing but reads, and even those get a read-only API. Read from the registry at each
 * listing, so plugins loaded later (mounted MCP servers) appear too.
 */
export function pluginTool(host: Host, registered: RegisteredTool): McpTool {
  const { tool, plugin } = registered;
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    async run(args, call) {
      const reads = tool.permissions.length > 0 && tool.permissions.every((p) => p.access === 'read');
      const { principal } = call;
      const viewer = principal.kind === 'person' && principal.role === 'viewer';
      if (viewer && !reads) throw new CoworkError('forbidden', `human:${principal.name} is a viewer and ${tool.name} may change things`, { tool: tool.name, role: 'viewer' });
      const operator = viewer ? await readerOf({}, call) : await writingOperator(principal, undefined, MCP_OPERATOR, call.people);
      const resources = scopedResources(host.resources, { operator, grants: viewer ? READ_ONLY : 'all' });
      const context = { operator, signal: call.signal, host: { workspaceDir: host.workspaceDir, resources } };
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
