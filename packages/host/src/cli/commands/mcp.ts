import { CoworkError } from '../../errors';
import { Approvals } from '../../mcp-client/approvals';
import { addServer, readConfig, redacted, removeServer, type McpServerConfig } from '../../mcp-client/config';
import type { McpServerStatus } from '../../mcp-client/servers';
import { group, leaf } from '../command';
import { parseJsonOption } from '../values';
import { mcpServeCommand } from './mcp-serve';

/**
 * `cowork mcp ...`: the MCP servers mounted in the workspace (`<workspace>/mcp.json`). Adding and
 * removing edit the file (checked first; a bad entry writes nothing); a running `cowork serve` or
 * `cowork run` watches it and mounts or unmounts at once; `approve` reviews a running server's tools.
 */

const add = leaf({
  summary: 'mount an MCP server: `add NAME -- COMMAND ARGS...` (stdio) or `add NAME --url URL` (Streamable HTTP)',
  details: [
    'Examples:',
    '  cowork mcp add everything -- npx -y @modelcontextprotocol/server-everything',
    '  cowork mcp add files -- npx -y @modelcontextprotocol/server-filesystem /srv/shared',
    '  cowork mcp add remote --url https://example.com/mcp --header "Authorization: Bearer T"',
  ],
  positionals: ['NAME'],
  rest: 'COMMAND ARGS...',
  options: {
    url: { value: 'URL', description: 'the server\'s Streamable HTTP endpoint (instead of a command)' },
    header: { value: 'K:V', description: 'one HTTP header to send (with --url)' },
    headers: { value: 'JSON', description: 'HTTP headers as a JSON object (with --url)' },
    env: { value: 'JSON', description: 'environment variables for the command, as a JSON object' },
    sampling: { description: 'let this server ask the host\'s model for completions (refused otherwise)' },
    'timeout-ms': { value: 'MS', description: 'per-call time limit (default 60000)' },
  },
  async run(args, { out, workspaceDir }) {
    const name = args.positional('NAME');
    const server = serverFromArgs(args.rest(), {
      url: args.option('url'),
      header: args.option('header'),
      headers: args.option('headers'),
      env: args.option('env'),
      sampling: args.flag('sampling'),
      timeoutMs: args.option('timeout-ms'),
    });
    addServer(workspaceDir, name, server);
    new Approvals(workspaceDir).forget(name);
    out.result({ added: name, server: redacted(server) }, () => [`mounted MCP server ${name}; its tools load as ${name.replace(/-/g, '_')}__<tool> (at once in a running cowork serve or cowork run)`]);
  },
});

const list = leaf({
  summary: 'list the mounted MCP servers; with a host that runs them, their state, tools and held tools',
  positionals: [],
  options: {},
  async run(_args, { out, workspaceDir }) {
    const config = readConfig(workspaceDir);
    const approvals = new Approvals(workspaceDir);
    const servers = Object.entries(config.mcpServers).map(([name, server]) => ({
      name,
      transport: 'url' in server ? ('http' as const) : ('stdio' as const),
      config: redacted(server),
      approvedAt: approvals.get(name)?.approvedAt ?? null,
      approvedTools: Object.keys(approvals.get(name)?.tools ?? {}),
    }));
    out.result({ servers }, ({ servers }) =>
      servers.length === 0
        ? ['no MCP servers mounted (cowork mcp add NAME -- COMMAND ARGS...)']
        : servers.map((s) => `${s.name} (${s.transport}) ${describe(s.config)}${s.approvedAt ? `, approved ${s.approvedAt}` : ', not yet approved'}`),
    );
  },
});

const remove = leaf({
  summary: 'unmount an MCP server (and forget its approvals)',
  positionals: ['NAME'],
  options: {},
  async run(args, { out, workspaceDir }) {
    const name = args.positional('NAME');
    removeServer(workspaceDir, name);
    new Approvals(workspaceDir).forget(name);
    out.result({ removed: name }, () => [`removed MCP server ${name}`]);
  },
});

const approve = leaf({
  summary: "start the server, and approve its tools as they are now (releases tools held because they changed)",
  positionals: ['NAME'],
  options: {},
  async run(args, { out, withHost }) {
    const name = args.positional('NAME');
    const status: McpServerStatus = await withHost(async (host) => {
      await host.mcp.server(name)?.connection.connect().catch(() => undefined);
      return host.mcp.approve(name);
    }, { pollMonitors: true });
    out.result(status, (s) => [`approved ${s.tools.length} tool(s) of ${s.name}: ${s.tools.join(', ') || 'none'}`]);
  },
});

export const mcpCommand = group({
  summary: 'MCP servers mounted in the workspace: add, list, remove, approve; and serve: the workspace as an MCP server',
  children: { add, list, remove, approve, serve: mcpServeCommand },
});

/** The config entry `cowork mcp add` writes (checked again, with the file's rules, before writing). */
export function serverFromArgs(
  rest: readonly string[],
  options: { url?: string; header?: string; headers?: string; env?: string; sampling: boolean; timeoutMs?: string },
): McpServerConfig {
  const common = {
    ...(options.sampling ? { sampling: true } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: Number(options.timeoutMs) } : {}),
  };
  if (options.url !== undefined) {
    if (rest.length > 0) throw new CoworkError('invalid_input', 'give either --url URL or -- COMMAND ARGS..., not both');
    const headers: Record<string, string> = { ...(options.headers !== undefined ? (parseJsonOption('headers', options.headers) as Record<string, string>) : {}) };
    if (options.header !== undefined) {
      const at = options.header.indexOf(':');
      if (at <= 0) throw new CoworkError('invalid_input', `--header must look like "Name: value", not ${JSON.stringify(options.header)}`);
      headers[options.header.slice(0, at).trim()] = options.header.slice(at + 1).trim();
    }
    return { url: options.url, ...(Object.keys(headers).length > 0 ? { headers } : {}), ...common };
  }
  if (options.header !== undefined || options.headers !== undefined) throw new CoworkError('invalid_input', '--header and --headers go with --url');
  const [command, ...args] = rest;
  if (command === undefined) throw new CoworkError('invalid_input', 'give the server: -- COMMAND ARGS... (stdio) or --url URL (Streamable HTTP)');
  const env = options.env !== undefined ? (parseJsonOption('env', options.env) as Record<string, string>) : undefined;
  return { command, args, ...(env !== undefined ? { env } : {}), ...common };
}

function describe(config: Record<string, unknown>): string {
  if (typeof config.url === 'string') return config.url;
  return [config.command, ...((config.args as string[] | undefined) ?? [])].map(String).join(' ');
}
