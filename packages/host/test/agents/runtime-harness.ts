import { AgentRuntime, type RuntimeEvent, type RuntimeOptions } from '../../src/agents/runtime';
import type { Host } from '../../src/host';
import { OpenAiCompatibleProvider } from '../../src/models/openai-provider';
import type { WireChatRequest } from '../../src/models/wire';
import type { PluginDefinition } from '../../src/plugins/types';
import { reply, startScriptedModelServer, type ScriptStep, type ScriptedModelServer } from '../../src/testkit/scripted-model-server';
import type { ApprovalRecord } from '../../src/store/approval-records';
import { openTempHost } from '../support/temp-host';

/** Who sent a request to the scripted model: `main` or a subagent's id (from its instructions). */
export function caller(body: WireChatRequest): string {
  const system = body.messages[0];
  const text = typeof system?.content === 'string' ? system.content : '';
  if (text.startsWith('You are Main')) return 'main';
  return /^You are ([\w-]+),/.exec(text)?.[1] ?? (text.startsWith('You compact') ? 'compactor' : 'unknown');
}

/** The text of every message of a request, for assertions on what the model saw. */
export function texts(body: WireChatRequest): string[] {
  return body.messages.map((m) => (typeof m.content === 'string' ? m.content : ''));
}

export interface RuntimeHarness {
  host: Host & { dispose: () => Promise<void> };
  server: ScriptedModelServer;
  runtime: AgentRuntime;
  events: RuntimeEvent[];
  dispose(): Promise<void>;
}

/** A host on a temp workspace, a scripted model server, and a runtime talking to it over HTTP. */
export async function startRuntime(
  script: (body: WireChatRequest, index: number) => ScriptStep | Promise<ScriptStep>,
  options: { plugins?: PluginDefinition[]; runtime?: Partial<RuntimeOptions>; maxContextTokens?: number; maxRetries?: number } = {},
): Promise<RuntimeHarness> {
  const host = await openTempHost({ plugins: options.plugins ?? [] });
  const server = await startScriptedModelServer(script);
  const provider = new OpenAiCompatibleProvider({
    baseUrl: server.baseUrl,
    model: 'scripted',
    maxRetries: options.maxRetries ?? 2,
    retryBaseDelayMs: 5,
    maxRetryDelayMs: 20,
    maxContextTokens: options.maxContextTokens ?? 32_000,
  });
  const events: RuntimeEvent[] = [];
  const runtime = new AgentRuntime({ host, provider, maxOutputTokens: 1000, onEvent: (e) => events.push(e), ...options.runtime });
  return {
    host,
    server,
    runtime,
    events,
    dispose: async () => {
      await runtime.close();
      await server.close();
      await host.dispose();
    },
  };
}

/** A script where Main calls `calls` one per turn (each a [name, args]), then finishes with what each answered. */
export function mainCalls(calls: [string, Record<string, unknown>][]): (body: WireChatRequest) => ScriptStep {
  return (body) => {
    if (caller(body) !== 'main') return reply.text('?');
    const answered = body.messages.filter((m) => m.role === 'tool').length;
    if (answered < calls.length) {
      const [name, args] = calls[answered]!;
      return reply.toolCalls([{ id: `c${answered}`, name, arguments: args }]);
    }
    const results = body.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    return reply.toolCalls([{ name: 'finish', arguments: { summary: results.join(' | ') } }]);
  };
}

/** Resolves with the next approval of `host` that becomes pending. */
export function nextPendingApproval(host: Host): Promise<ApprovalRecord> {
  return new Promise((resolve) => {
    const stop = host.approvals.onChange((a) => {
      if (a.status === 'pending') {
        stop();
        resolve(a);
      }
    });
  });
}

/**
 * Main delegates parts alpha and beta (async) and calls the long `hold` tool (run-child.ts), then
 * finishes once both results are in; the subagents answer once `state.releaseSubagents`, and Main
 * hangs on the results while `state.hangMain`. For the resume-after-kill tests.
 */
export function twoPartsScript(state: { releaseSubagents: boolean; hangMain?: boolean }): (body: WireChatRequest) => Promise<ScriptStep> {
  return async (body) => {
    const who = caller(body);
    if (who !== 'main') {
      while (!state.releaseSubagents) await new Promise((r) => setTimeout(r, 10));
      return reply.toolCalls([{ name: 'submit_result', arguments: { result: `RESULT-${who.split('-')[0]}` } }]);
    }
    const seen = texts(body).join('\n');
    if (seen.includes('RESULT-alpha') && seen.includes('RESULT-beta')) {
      if (state.hangMain) return reply.hang();
      return reply.toolCalls([{ name: 'finish', arguments: { summary: 'both parts in' } }]);
    }
    if (seen.includes('acknowledged')) return reply.text('waiting for the parts');
    return reply.toolCalls([
      { id: 'd1', name: 'delegate', arguments: { assignment: 'part alpha', mode: 'async', agent: 'alpha' } },
      { id: 'd2', name: 'delegate', arguments: { assignment: 'part beta', mode: 'async', agent: 'beta' } },
      { id: 'h1', name: 'hold', arguments: {} },
    ]);
  };
}
