/**
 * Sampling: with `"sampling": true` and a model lent to the host's servers, server-everything's
 * `trigger-sampling-request` gets its completion from the (scripted) model, recorded in the task's
 * events; enabled without a model, it is refused saying so. Resource updates: a subscribed resource's
 * `notifications/resources/updated` becomes a new external revision.
 */
import { OpenAiCompatibleProvider } from '../../src/models/openai-provider';
import type { WireChatRequest } from '../../src/models/wire';
import { reply } from '../../src/testkit/scripted-model-server';
import { EVERYTHING, lastToolResult, startMcpHarness, type McpHarness } from './mcp-harness';

let h: McpHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const SERVER_SYSTEM = 'You are a helpful test server.';
const isSampling = (body: WireChatRequest): boolean => body.messages[0]?.role === 'system' && body.messages[0].content === SERVER_SYSTEM;

it('lends the model to a server with sampling enabled, and refuses when no model is lent', async () => {
  const seen: string[] = [];
  const sampled: WireChatRequest[] = [];
  let mainTurn = 0;
  h = await startMcpHarness(
    () => ({ everything: { command: EVERYTHING, sampling: true } }),
    async (body) => {
      if (isSampling(body)) {
        sampled.push(body);
        return reply.text('a haiku from the lent model');
      }
      if (mainTurn++ > 0) seen.push(JSON.stringify(lastToolResult(body)));
      if (mainTurn === 1) return reply.toolCalls([{ name: 'everything__trigger_sampling_request', arguments: { prompt: 'write a haiku', maxTokens: 50 } }]);
      return reply.toolCalls([{ name: 'finish', arguments: { summary: 'ok' } }]);
    },
  );
  // Enabled, no model lent yet: refused, saying why.
  const tool = h.host.registry.tool('everything__trigger_sampling_request')!;
  const refused = await tool.tool.handler({ prompt: 'x' }, { operator: 'human:ann', signal: new AbortController().signal, host: undefined as never });
  expect(JSON.stringify(refused)).toContain('no model to lend');

  h.host.mcp.lendModel(new OpenAiCompatibleProvider({ baseUrl: h.server.baseUrl, model: 'scripted', maxRetries: 0, maxContextTokens: 32_000 }));
  const taskId = await h.runtime.startTask('sample');
  expect(await h.runtime.runTask(taskId)).toEqual({ status: 'done', summary: 'ok' });
  expect(seen[0]).toContain('a haiku from the lent model');
  expect(seen[0]).toContain('endTurn');
  expect(sampled).toHaveLength(1);
  expect(sampled[0]!.messages).toEqual([
    { role: 'system', content: SERVER_SYSTEM },
    { role: 'user', content: expect.stringContaining('write a haiku') },
  ]);
  expect(sampled[0]!.tools ?? []).toEqual([]);
  expect(h.progress.filter((e) => e.type === 'mcp_sampling')).toEqual([
    expect.objectContaining({ type: 'mcp_sampling', taskId, server: 'everything', tool: 'everything__trigger_sampling_request', outcome: 'answered', maxTokens: 50 }),
  ]);
}, 60_000);

it("records a new external revision when the server sends notifications/resources/updated", async () => {
  h = await startMcpHarness(() => ({ everything: { command: EVERYTHING } }), () => reply.toolCalls([{ name: 'finish', arguments: { summary: 'ok' } }]));
  const { host } = h;
  // The dynamic text resource says when it was read (to the second); the server subscribes it.
  const created = await host.resources.create({ kind: 'mcp-resource.everything', content: { uri: 'demo://resource/dynamic/text/1', contents: [] }, operator: 'human:ann' });
  await host.resources.syncExternal(created.id);
  const first = await host.resources.get(created.id);
  expect(JSON.stringify(first.content)).toContain('Resource 1');
  // server-everything sends updates for subscribed resources every 5 s once this tool turns them on.
  const toggle = host.registry.tool('everything__toggle_subscriber_updates')!;
  await toggle.tool.handler({}, { operator: 'human:ann', signal: new AbortController().signal, host: undefined as never });
  // The external poll is off in the harness (externalPollMs: 0): only the notification can do this.
  const deadline = Date.now() + 15_000;
  let latest = first;
  while (latest.revision === first.revision && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    latest = await host.resources.get(created.id);
  }
  expect(latest.revision).toBeGreaterThan(first.revision);
  expect(JSON.stringify(latest.content)).not.toEqual(JSON.stringify(first.content));
  const history = await host.resources.history(created.id);
  expect(JSON.stringify(history.at(-1))).toContain('mcp.everything');
}, 60_000);
