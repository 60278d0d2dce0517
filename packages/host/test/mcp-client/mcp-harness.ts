import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AgentRuntime, type RuntimeEvent } from '../../src/agents/runtime';
import { Host } from '../../src/host';
import type { McpProgressEvent } from '../../src/mcp-client/servers';
import { OpenAiCompatibleProvider } from '../../src/models/openai-provider';
import type { WireChatRequest } from '../../src/models/wire';
import { startScriptedModelServer, type ScriptStep, type ScriptedModelServer } from '../../src/testkit/scripted-model-server';
import { tempDir } from '../../src/testkit/temp-host';

export const BIN = resolve(__dirname, '..', '..', '..', '..', 'node_modules', '.bin');
export const EVERYTHING = join(BIN, 'mcp-server-everything');
export const FILESYSTEM = join(BIN, 'mcp-server-filesystem');

export interface McpHarness {
  readonly dir: string;
  readonly host: Host;
  readonly runtime: AgentRuntime;
  readonly server: ScriptedModelServer;
  readonly events: RuntimeEvent[];
  readonly progress: McpProgressEvent[];
  dispose(): Promise<void>;
}

/** A workspace whose mcp.json mounts `servers`, a long-lived host on it, and a scripted Main. */
export async function startMcpHarness(
  servers: (dir: string) => Record<string, unknown>,
  script: (body: WireChatRequest, index: number) => ScriptStep | Promise<ScriptStep>,
): Promise<McpHarness> {
  const dir = tempDir('cowork-mcp-');
  mkdirSync(dir.path, { recursive: true });
  writeFileSync(join(dir.path, 'mcp.json'), JSON.stringify({ mcpServers: servers(dir.path) }));
  const host = await Host.open({ workspaceDir: dir.path, pollMonitors: true, externalPollMs: 0 });
  const server = await startScriptedModelServer(script);
  const provider = new OpenAiCompatibleProvider({ baseUrl: server.baseUrl, model: 'scripted', maxRetries: 0, maxContextTokens: 32_000 });
  const events: RuntimeEvent[] = [];
  const runtime = new AgentRuntime({ host, provider, maxOutputTokens: 1000, onEvent: (e) => events.push(e) });
  const progress: McpProgressEvent[] = [];
  host.mcp.onProgress((e) => progress.push(e));
  return {
    dir: dir.path,
    host,
    runtime,
    server,
    events,
    progress,
    dispose: async () => {
      await runtime.close();
      await server.close();
      await host.close();
      dir.cleanup();
    },
  };
}

/** The tool results Main saw, by tool call id order, parsed. */
export function toolResults(body: WireChatRequest): { name?: string; content: unknown }[] {
  return body.messages
    .filter((m) => m.role === 'tool')
    .map((m) => ({ content: typeof m.content === 'string' ? safeParse(m.content) : m.content }));
}

export function lastToolResult(body: WireChatRequest): unknown {
  const results = toolResults(body);
  return results[results.length - 1]?.content;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function until(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}
