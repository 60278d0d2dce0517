import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { McpHostServer } from './host-server';

/**
 * Serves one session over this process's stdin and stdout (`cowork mcp serve`); resolves when the
 * client closes stdin or the transport closes. Nothing else may write to stdout meanwhile.
 */
export async function serveStdio(
  mcp: McpHostServer,
  options: { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream; signal?: AbortSignal } = {},
): Promise<void> {
  const stdin = options.stdin ?? process.stdin;
  const transport = new StdioServerTransport(stdin as typeof process.stdin, (options.stdout ?? process.stdout) as typeof process.stdout);
  const server = mcp.session();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    // The SDK's stdio transport does not notice the end of stdin: the client going away ends the session.
    stdin.once('end', () => void transport.close());
    stdin.once('close', () => void transport.close());
    options.signal?.addEventListener('abort', () => void transport.close(), { once: true });
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
