import { leaf } from '../command';

/**
 * `cowork mcp serve`: the workspace over MCP on stdin and stdout, for an MCP client that starts it
 * (Claude Code, Codex, VS Code). stdout carries the protocol only; messages go to stderr. It ends
 * when the client closes stdin, or on SIGINT or SIGTERM, closing running tasks (they stay
 * resumable) and the host.
 */
export const mcpServeCommand = leaf({
  summary: 'serve the workspace over MCP on stdin/stdout: resources, tools, tasks and prompts for MCP clients',
  details: [
    '',
    'For an MCP client that starts the server itself, like Claude Code:',
    '  claude mcp add cowork -- node /path/to/packages/host/bin/cowork.js mcp serve --workspace DIR',
    'Tasks need a model (COWORK_MODEL_BASE_URL and COWORK_MODEL, or COWORK_REPLAY); without one, the task tools',
    'are listed but answer model_not_configured. Over HTTP, `cowork serve` offers the same at /mcp.',
  ],
  positionals: [],
  options: {},
  async run(_args, { io, withHost }) {
    // The MCP server and the task runner load when this command runs, not when the CLI starts.
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { McpHostServer, serveStdio } = require('../../mcp-server') as typeof import('../../mcp-server');
    const { mcpTaskPort } = require('../../server/mcp-task-port') as typeof import('../../server/mcp-task-port');
    const { hostVersion } = require('../../server/routes/meta') as typeof import('../../server/routes/meta');
    const { modelFrom } = require('../../server/serve') as typeof import('../../server/serve');
    const { TaskEvents } = require('../../server/task-events') as typeof import('../../server/task-events');
    const { TaskRunner } = require('../../server/task-runner') as typeof import('../../server/task-runner');
    /* eslint-enable @typescript-eslint/no-require-imports */
    await withHost(
      async (host) => {
        const onError = (error: unknown): void => io.stderr(`cowork mcp serve: ${error instanceof Error ? error.message : String(error)}\n`);
        const model = modelFrom(io.env);
        const runner = new TaskRunner(host, new TaskEvents(), {
          provider: model.provider,
          providerError: model.problem ?? undefined,
          runtime: model.maxOutputTokens === undefined ? {} : { maxOutputTokens: model.maxOutputTokens },
          onBackgroundError: onError,
        });
        const mcp = new McpHostServer(host, { tasks: mcpTaskPort(host, runner), version: hostVersion(), onError });
        const stop = new AbortController();
        const onSignal = (): void => stop.abort();
        process.once('SIGINT', onSignal);
        process.once('SIGTERM', onSignal);
        try {
          await serveStdio(mcp, { signal: stop.signal });
        } finally {
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
          mcp.close();
          await runner.close();
        }
      },
      { pollMonitors: true },
    );
  },
});
