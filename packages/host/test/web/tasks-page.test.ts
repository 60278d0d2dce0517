/**
 * Invariant: with a model configured, the web page starts a task, shows Main's conversation and
 * the task's live state (subagents, gate) as agents work, and the person's message sent from the
 * composer reaches Main and lets the task finish; the page follows it without a reload.
 */
import { OpenAiCompatibleProvider } from '../../src/models/openai-provider';
import type { WireChatRequest } from '../../src/models/wire';
import { reply, startScriptedModelServer, type ScriptStep, type ScriptedModelServer } from '../../src/testkit/scripted-model-server';
import { caller, texts } from '../agents/runtime-harness';
import { startTestServer, type TestServer } from '../server/harness';
import { launchChromium, openSignedIn, screenshot, type TestBrowser } from './browser';

/** Main delegates to a subagent, asks the person, and finishes once the person says it looks good. */
async function script(request: WireChatRequest): Promise<ScriptStep> {
  const who = caller(request);
  if (who !== 'main') return reply.toolCalls([{ name: 'submit_result', arguments: { result: `outline from ${who}` } }]);
  const all = texts(request).join('\n');
  if (!request.messages.some((m) => m.role === 'tool')) return reply.toolCalls([{ name: 'delegate', arguments: { assignment: 'outline the deck', mode: 'sync', agent: 'alpha' } }]);
  if (!all.includes('looks good')) return reply.text('Here is the outline. Shall I finish?');
  return reply.toolCalls([{ name: 'finish', arguments: { summary: 'deck planned' } }]);
}

let browser: TestBrowser;
let model: ScriptedModelServer;
let t: TestServer;
let baseUrl: string;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());
beforeEach(async () => {
  model = await startScriptedModelServer(script);
  const provider = new OpenAiCompatibleProvider({ baseUrl: model.baseUrl, model: 'scripted', maxRetries: 0 });
  t = await startTestServer({ port: 0, provider, runtime: { maxOutputTokens: 500 } });
  baseUrl = await t.listenHttp();
});
afterEach(async () => {
  await t.dispose();
  await model.close();
});

it('starts a task, shows the conversation and subagents live, and sends the composer message to Main', async () => {
  const { page, problems } = await openSignedIn(browser.context, baseUrl);
  expect(await page.locator('#model-hint').isHidden()).toBe(true);
  await page.fill('#task-request', 'plan the deck');
  await page.click('#new-task button[type=submit]');
  await page.locator('#conversation', { hasText: 'Shall I finish?' }).waitFor();
  await page.locator('#task-state', { hasText: 'alpha' }).waitFor();
  await page.locator('#task-state strong', { hasText: 'waiting' }).waitFor();
  expect(await page.locator('#task-activity li').count()).toBeGreaterThan(0);
  await screenshot(page, 'tasks-1-waiting');

  await page.fill('#message-text', 'looks good');
  await page.click('#composer button[type=submit]');
  await page.locator('#task-state strong', { hasText: 'done' }).waitFor();
  await page.locator('#conversation', { hasText: 'looks good' }).waitFor();
  await screenshot(page, 'tasks-2-done');
  expect(problems).toEqual([]);
  await page.close();
});
