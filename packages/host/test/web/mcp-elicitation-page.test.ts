/**
 * Invariant: a mounted MCP server's work on a task shows in the page live: a progress line per call
 * (from `mcp_progress` over the WebSocket), and a server's question as a form built from its
 * requested schema, answered through POST /api/mcp/elicitations/:id; the tool result Main sees
 * carries the answer. Real server-everything over stdio; the model is the scripted server.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OpenAiCompatibleProvider } from '../../src/models/openai-provider';
import type { WireChatRequest } from '../../src/models/wire';
import { reply, startScriptedModelServer, type ScriptStep, type ScriptedModelServer } from '../../src/testkit/scripted-model-server';
import { tempDir } from '../../src/testkit/temp-host';
import { EVERYTHING } from '../mcp-client/mcp-harness';
import { startTestServer, type TestServer } from '../server/harness';
import { launchChromium, openSignedIn, screenshot, type TestBrowser } from './browser';

const seen: string[] = [];
function script(request: WireChatRequest): ScriptStep {
  const tools = request.messages.filter((m) => m.role === 'tool');
  const last = tools[tools.length - 1];
  if (last) seen.push(typeof last.content === 'string' ? last.content : JSON.stringify(last.content));
  if (tools.length === 0) return reply.toolCalls([{ name: 'everything__trigger_long_running_operation', arguments: { duration: 3, steps: 6 } }]);
  if (tools.length === 1) return reply.toolCalls([{ name: 'everything__trigger_elicitation_request', arguments: {} }]);
  return reply.toolCalls([{ name: 'finish', arguments: { summary: 'asked the person' } }]);
}

let browser: TestBrowser;
let model: ScriptedModelServer;
let t: TestServer;
let dir: ReturnType<typeof tempDir>;
let baseUrl: string;
beforeAll(async () => {
  browser = await launchChromium();
  dir = tempDir('cowork-mcp-page-');
  mkdirSync(dir.path, { recursive: true });
  writeFileSync(join(dir.path, 'mcp.json'), JSON.stringify({ mcpServers: { everything: { command: EVERYTHING } } }));
  model = await startScriptedModelServer(script);
  const provider = new OpenAiCompatibleProvider({ baseUrl: model.baseUrl, model: 'scripted', maxRetries: 0 });
  t = await startTestServer({ port: 0, provider, runtime: { maxOutputTokens: 500 } }, { workspaceDir: dir.path, pollMonitors: true, externalPollMs: 0 });
  baseUrl = await t.listenHttp();
}, 60_000);
afterAll(async () => {
  await t?.dispose();
  await model?.close();
  await browser?.close();
  dir?.cleanup();
});

it('shows live MCP progress and a form for the server question, and the answer reaches Main', async () => {
  const { page, problems } = await openSignedIn(browser.context, baseUrl);
  await page.fill('#task-request', 'run the long operation, then ask me');
  await page.click('#new-task button[type=submit]');
  // Progress: one line for the call, updated in place as reports arrive.
  const line = page.locator('#mcp-progress li', { hasText: 'everything__trigger_long_running_operation' });
  await line.waitFor();
  const first = (await line.textContent()) ?? '';
  // The next report changes that line (on a loaded machine it may first be seen at any step, so
  // the wait is for a change, not for a given step; the last step has no next one).
  if (!first.includes(': 6 of 6')) {
    await line.filter({ hasNotText: first }).waitFor();
    expect(await line.textContent()).not.toBe(first);
  }
  expect(await page.locator('#mcp-progress li').count()).toBe(1);

  // The question, as a form from the schema's simple fields.
  const form = page.locator('#elicitations form.elicitation');
  await form.waitFor({ timeout: 20_000 });
  expect(await form.locator('.elicitation-message').textContent()).toContain('Please provide');
  expect(await form.locator('input[name=name][type=text]').count()).toBe(1);
  expect(await form.locator('input[name=check][type=checkbox]').count()).toBe(1);
  expect(await form.locator('input[name=integer][type=number]').inputValue()).toBe('42');
  expect(await form.locator('select[name=untitledSingleSelectEnum] option').count()).toBeGreaterThanOrEqual(6);
  expect(await form.locator('select[name=titledSingleSelectEnum] option', { hasText: 'Wonder Woman' }).count()).toBe(1);
  await screenshot(page, 'mcp-elicitation-1-question');

  // A bad answer (past the browser's own check, max=100 from the schema) is refused with the route's code and the form stays.
  await form.locator('input[name=integer]').evaluate((el) => el.removeAttribute('max'));
  await form.locator('input[name=name]').fill('Grace Hopper');
  await form.locator('input[name=integer]').fill('1000');
  await form.locator('button[type=submit]').click();
  await form.locator('.elicitation-status', { hasText: 'invalid_input' }).waitFor();
  expect(await t.host.mcp.pendingElicitations()).toHaveLength(1);

  await form.locator('input[name=integer]').fill('7');
  await form.locator('input[name=check]').check();
  await form.locator('select[name=untitledSingleSelectEnum]').selectOption('Ross');
  await form.locator('button[type=submit]').click();
  await form.locator('.elicitation-status', { hasText: 'Answered' }).waitFor();
  await page.locator('#task-state strong', { hasText: 'done' }).waitFor({ timeout: 20_000 });
  await page.locator('#elicitations form').waitFor({ state: 'detached' });
  await screenshot(page, 'mcp-elicitation-2-done');
  const answer = seen.find((s) => s.includes('Grace Hopper'));
  expect(answer).toContain('Ross');
  expect(problems).toEqual([]);
  await page.close();
}, 90_000);
