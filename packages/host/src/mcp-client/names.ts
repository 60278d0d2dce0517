/**
 * How a server's names become the host's: tools are snake_case and unique across plugins
 * (`everything__get_sum` for server everything's `get-sum`), kinds are dotted lower-case words.
 */

export function toolPrefix(server: string): string {
  return server.replace(/-/g, '_');
}

export function agentToolName(server: string, tool: string): string {
  const local = tool.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  return `${toolPrefix(server)}__${local}`.slice(0, 64);
}

export function pluginName(server: string): string {
  return `mcp.${server}`;
}

export function resourceKindName(server: string): string {
  return `mcp-resource.${server.replace(/_/g, '-')}`;
}
