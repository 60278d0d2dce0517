/**
 * Invariant: Streamable HTTP sessions are one SDK server each, dropped from the map when their
 * transport closes (the client's DELETE), closed when idle too long (the client then gets 404 and
 * must initialize again), and capped in number, the least recently used closed first.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpHostServer, McpHttpSessions } from '../../src/mcp-server';
import { openTempHost, type TempHost } from '../support/temp-host';
import { eventually } from './mcp-client-helpers';

let host: TempHost;
let mcp: McpHostServer;
let sessions: McpHttpSessions;
let server: Server;
let url: URL;
const clients: Client[] = [];

beforeAll(async () => {
  host = await openTempHost();
  mcp = new McpHostServer(host, { version: 'test', subscriptionPollMs: 0 });
  sessions = new McpHttpSessions(mcp, { idleMs: 300, maxSessions: 2 });
  // A bare HTTP server in front: the sessions need only the request, the response and the parsed body.
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => void sessions.handle(req, res, text === '' ? undefined : JSON.parse(text)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
});
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await sessions.close();
  mcp.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await host.dispose();
});

async function connect(): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'sessions-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(url);
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

it('drops a session its client ends, and closes idle ones', async () => {
  const first = await connect();
  expect(sessions.size).toBe(1);
  await first.transport.terminateSession();
  expect(sessions.size).toBe(0);

  const second = await connect();
  expect((await second.client.listTools()).tools.length).toBeGreaterThan(0);
  await eventually(async () => sessions.size, (n) => n === 0, 'the idle session to close', 5000);
  await expect(second.client.listTools()).rejects.toThrow(/404|not found/i);
});

it('keeps at most maxSessions, closing the least recently used', async () => {
  const a = await connect();
  const b = await connect();
  await b.client.ping();
  await connect();
  expect(sessions.size).toBe(2);
  await expect(a.client.ping()).rejects.toThrow(/404|not found/i);
  await b.client.ping();
});
