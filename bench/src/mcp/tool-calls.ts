/**
 * One MCP tool call through the host, next to the SDK's own figures measured in the same run:
 *
 * - through the host's MCP server (the SDK `Client` joined in memory to the session server `/mcp`
 *   and `cowork mcp serve` use, calling a plugin's echo tool), against an SDK `McpServer` with the
 *   same echo tool joined the same way: what the host's tool catalog, argument checks and logging add;
 * - through a mounted server (server-everything over stdio, mounted from the workspace's mcp.json,
 *   its echo called as an agent's call runs it), against the SDK `Client` calling the same server
 *   over stdio itself: what the host's connection, approvals and result mapping add. The spawns
 *   the calls made are counted (the aim is none: one persistent connection).
 *
 * BENCH_MCP_CALLS calls per row (default 2000 in memory, 500 over stdio), after 50 warm-up calls.
 * Asserts nothing; prints p50/p99 and the host's overhead at the median.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { definePlugin, defineTool } from '@cowork/host';
import { Host, McpHostServer } from '@cowork/host/embed';
import { openTempHost, tempDir } from '@cowork/host/testkit';
import { latencyLine, summarizeLatencies } from '../stats';
import { sdkInMemory, sdkStdio, type CallOnce } from './sdk-baselines';

const CALLS = Number(process.env.BENCH_MCP_CALLS ?? 0);
const WARM_UP = 50;
const EVERYTHING = resolve(__dirname, '..', '..', '..', 'node_modules', '.bin', 'mcp-server-everything');

const echoPlugin = definePlugin({
  name: 'bench-echo',
  version: '1.0.0',
  tools: [
    defineTool<{ message: string }>({
      name: 'bench_echo',
      description: 'Echoes its message',
      inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'], additionalProperties: false },
      permissions: [],
      handler: async ({ message }) => ({ content: `Echo: ${message}` }),
    }),
  ],
});

async function time(call: CallOnce, calls: number): Promise<number[]> {
  for (let i = 0; i < WARM_UP; i++) await call();
  const samples: number[] = [];
  for (let i = 0; i < calls; i++) {
    const start = performance.now();
    await call();
    samples.push(performance.now() - start);
  }
  return samples;
}

function overhead(ours: number[], baseline: number[]): string {
  const [a, b] = [summarizeLatencies(ours).p50Ms, summarizeLatencies(baseline).p50Ms];
  return `host adds ${(((a - b) / b) * 100).toFixed(0)}% at the median (${(a - b).toFixed(3)} ms)`;
}

async function inMemoryRows(calls: number): Promise<void> {
  const sdk = await sdkInMemory();
  const baseline = await time(sdk.call, calls);
  await sdk.close();

  const host = await openTempHost({ plugins: [echoPlugin] });
  const server = new McpHostServer(host, { version: 'bench', subscriptionPollMs: 0 });
  const session = server.session();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await session.connect(serverSide);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(clientSide);
  const ours = await time(() => client.callTool({ name: 'bench_echo', arguments: { message: 'hi' } }), calls);
  await client.close();
  await host.dispose();

  console.log(latencyLine('SDK McpServer, in memory (baseline)', baseline, 50));
  console.log(latencyLine("host's MCP server, in memory", ours, 50));
  console.log(`  ${overhead(ours, baseline)}`);
}

async function stdioRows(calls: number): Promise<void> {
  const sdk = await sdkStdio(EVERYTHING);
  const baseline = await time(sdk.call, calls);
  await sdk.close();

  const dir = tempDir('cowork-bench-mcp-');
  writeFileSync(join(dir.path, 'mcp.json'), JSON.stringify({ mcpServers: { everything: { command: EVERYTHING } } }));
  // A long-lived host (as `cowork serve` and `cowork run` open one) connects its mounted servers.
  const host = await Host.open({ workspaceDir: dir.path, pollMonitors: true, externalPollMs: 0 });
  try {
    const mounted = host.mcp.server('everything');
    if (!mounted) throw new Error(`server-everything did not mount: ${JSON.stringify(host.pluginProblems)}`);
    for (let waited = 0; mounted.connection.state !== 'ready'; waited += 25) {
      if (waited > 30_000) throw new Error(`server-everything is ${mounted.connection.state}`);
      await new Promise((done) => setTimeout(done, 25));
    }
    const registered = host.registry.tool('everything__echo');
    if (!registered) throw new Error('everything__echo is not among the host tools');
    const context = { operator: 'agent:bench' as const, signal: new AbortController().signal, host: { workspaceDir: host.workspaceDir, resources: host.resources } };
    const spawnsBefore = mounted.connection.spawnCount;
    const ours = await time(async () => {
      const result = await registered.tool.handler({ message: 'hi' }, context);
      if (result.isError) throw new Error(JSON.stringify(result.content));
    }, calls);
    const spawns = mounted.connection.spawnCount - spawnsBefore;

    console.log(latencyLine('SDK Client over stdio, server-everything (baseline)', baseline, 50));
    console.log(latencyLine('mounted server-everything, an agent tool call', ours, 50));
    console.log(`  ${overhead(ours, baseline)}; process spawns during ${calls + WARM_UP} calls: ${spawns}`);
  } finally {
    await host.close();
    dir.cleanup();
  }
}

async function main(): Promise<void> {
  console.log('MCP tool calls: the host against the SDK itself, measured in this run');
  await inMemoryRows(CALLS || 2000);
  await stdioRows(CALLS || 500);
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
