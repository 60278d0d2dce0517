/**
 * Invariant: a person signed in with their own token sees a task's high-impact call waiting for
 * approval (the tool, why it needs one, its arguments), and approves or denies it from the page;
 * the decision is recorded as that person, and the call runs only when approved. Their edits on the
 * page are theirs too.
 */
import { OpenAiCompatibleProvider } from '../../src/models/openai-provider';
import type { WireChatRequest } from '../../src/models/wire';
import { definePlugin, defineTool } from '../../src/plugins/define-plugin';
import { reply, startScriptedModelServer, type ScriptStep, type ScriptedModelServer } from '../../src/testkit/scripted-model-server';
import { body, startTestServer, type TestServer } from '../server/harness';
import { launchChromium, openSignedIn, screenshot, type TestBrowser } from './browser';

const launched: number[] = [];
const probe = definePlugin({
  name: 'probe',
  version: '1.0.0',
  tools: [
    defineTool<{ n: number }>({
      name: 'launch',
      description: 'Launches rocket n.',
      inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      permissions: [],
      impact: 'high_impact',
      handler: async ({ n }) => (launched.push(n), { content: `launched ${n}` }),
    }),
  ],
});

/** Main launches rocket 1, then rocket 2, then finishes with what the calls answered. */
function script(request: WireChatRequest): ScriptStep {
  const results = request.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
  if (results.length < 2) return reply.toolCalls([{ name: 'launch', arguments: { n: results.length + 1 } }]);
  return reply.toolCalls([{ name: 'finish', arguments: { summary: results.join(' / ') } }]);
}

let browser: TestBrowser;
let model: ScriptedModelServer;
let t: TestServer;
let baseUrl: string;
let annToken: string;
beforeAll(async () => {
  browser = await launchChromium();
  model = await startScriptedModelServer(script);
  const provider = new OpenAiCompatibleProvider({ baseUrl: model.baseUrl, model: 'scripted', maxRetries: 0 });
  t = await startTestServer({ port: 0, provider, runtime: { maxOutputTokens: 500 } }, { plugins: [probe] });
  baseUrl = await t.listenHttp();
  annToken = body<{ token: string }>(await t.request({ method: 'POST', url: '/api/users', payload: { name: 'ann' } })).token;
}, 60_000);
afterAll(async () => {
  await t?.dispose();
  await model?.close();
  await browser?.close();
});

it('shows a waiting call and records the approval and the denial as the signed-in person', async () => {
  const { page, problems } = await openSignedIn(browser.context, baseUrl, undefined, annToken);
  await page.fill('#task-request', 'launch the rockets');
  await page.click('#new-task button[type=submit]');

  const first = page.locator('#approvals .approval');
  await first.waitFor({ timeout: 20_000 });
  expect(await first.textContent()).toContain('launch');
  expect(await first.textContent()).toContain('a tool its plugin marks high-impact');
  expect(await first.locator('.approval-input').textContent()).toContain('"n": 1');
  expect(launched).toEqual([]);
  await screenshot(page, 'approvals-1-waiting');
  await first.getByRole('button', { name: 'Approve' }).click();
  await first.locator('.approval-status', { hasText: 'Approved as human:ann' }).waitFor();

  // The second call waits in turn; deny it with a reason.
  const second = page.locator('#approvals .approval', { hasText: '"n": 2' });
  await second.waitFor({ timeout: 20_000 });
  await second.getByLabel('Reason').fill('one is enough');
  await second.getByRole('button', { name: 'Deny' }).click();
  await second.locator('.approval-status', { hasText: 'Denied as human:ann' }).waitFor();

  await page.locator('#task-state', { hasText: 'done' }).waitFor({ timeout: 20_000 });
  expect(launched).toEqual([1]);
  const decided = await t.host.approvals.list();
  expect(decided.map((a) => [a.status, a.decidedBy, a.reason])).toEqual([
    ['approved', 'human:ann', null],
    ['denied', 'human:ann', 'one is enough'],
  ]);
  expect(problems).toEqual([]);
});

it("a person signed in with their own token edits as themselves: the name field shows who, and can't be changed", async () => {
  const id = (await t.host.resources.create({ kind: 'text', content: { text: 'draft' }, operator: 'human:owner' })).id;
  const { page, problems } = await openSignedIn(browser.context, baseUrl, undefined, annToken);
  expect(await page.inputValue('#operator-name')).toBe('ann');
  expect(await page.locator('#operator-name').evaluate((el) => (el as unknown as { readOnly: boolean }).readOnly)).toBe(true);
  await page.click(`button[data-resource-id="${id}"]`);
  await page.locator('#editor-text').waitFor();
  await page.fill('#editor-text', 'draft, edited by Ann');
  await page.click('#save');
  await page.locator('#editor-status', { hasText: 'Saved as revision 1' }).waitFor();
  expect((await t.host.resources.history(id)).map((r) => r.operator)).toEqual(['human:owner', 'human:ann']);
  expect(problems).toEqual([]);
});
