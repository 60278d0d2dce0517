/**
 * The SDK's own figures for one MCP tool call, the baselines the host's MCP paths are read against:
 * a `Client` and an `McpServer` joined in memory (the protocol's cost alone), and a `Client` over
 * stdio to the reference server-everything (the cost of a process boundary).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export type CallOnce = () => Promise<unknown>;

/** An echo tool served by the SDK in memory; `call` echoes once, `close` ends both sides. */
export async function sdkInMemory(): Promise<{ call: CallOnce; close: () => Promise<void> }> {
  const server = new McpServer({ name: 'bench-echo', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes its message', inputSchema: { message: z.string() } }, async ({ message }) => ({
    content: [{ type: 'text', text: `Echo: ${message}` }],
  }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    call: () => client.callTool({ name: 'echo', arguments: { message: 'hi' } }),
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** server-everything's echo over stdio, one process for every call. */
export async function sdkStdio(command: string): Promise<{ call: CallOnce; close: () => Promise<void> }> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args: [], stderr: 'ignore' }));
  return {
    call: () => client.callTool({ name: 'echo', arguments: { message: 'hi' } }),
    close: () => client.close(),
  };
}
