/**
 * Invariant: in a real browser, a person's edit made in the web page is never lost to an agent
 * working on the same `text` resource. An agent that commits from an older base gets
 * `revision_conflict`, re-reads, and its final commit keeps the person's edit; a revision that
 * arrives while the person is still typing leaves the typing alone and says the resource moved;
 * and a conflicting save shows the person's candidate beside the current revision, where Retry
 * puts it on top and Discard drops it. The page's history shows every revision by its operator.
 * The page signs in with the token in a POST body only, never in a URL.
 */
import type { Page } from 'playwright-core';
import { startTestServer, TOKEN, type TestServer } from '../server/harness';
import { launchChromium, openSignedIn, screenshot, textareaContains, type TestBrowser } from './browser';

let browser: TestBrowser;
let t: TestServer;
let baseUrl: string;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());
beforeEach(async () => {
  t = await startTestServer({ port: 0 });
  baseUrl = await t.listenHttp();
});
afterEach(() => t.dispose());

const ORIGINAL = 'Title\nfirst paragraph\n';
const PERSON = 'Title (edited by a person)\nfirst paragraph\n';
const AGENT_LINE = 'second paragraph, by the agent\n';

/** The scripted agent: plain HTTP calls with the bearer token, like any API client. */
async function agent(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> & { error?: Record<string, unknown> } }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function readText(id: string): Promise<{ revision: number; text: string }> {
  const { body } = await agent('GET', `/api/resources/${id}`);
  return { revision: body.revision as number, text: (body.content as { text: string }).text };
}

async function createText(text: string): Promise<string> {
  return (await t.host.resources.create({ kind: 'text', content: { text }, operator: 'human:ann' })).id;
}

async function openResource(page: Page, id: string): Promise<void> {
  await page.click(`button[data-resource-id="${id}"]`);
  await page.locator('#editor-text').waitFor();
}

async function historyOperators(page: Page): Promise<Record<string, string>> {
  const rows = page.locator('#history-table tbody tr');
  const out: Record<string, string> = {};
  for (let i = 0; i < (await rows.count()); i++) {
    const row = rows.nth(i);
    out[(await row.getAttribute('data-revision'))!] = (await row.getAttribute('data-operator'))!;
  }
  return out;
}

it("an agent that commits from an older base gets revision_conflict, re-reads, and keeps the person's edit", async () => {
  const id = await createText(ORIGINAL);
  const { page, urls, problems } = await openSignedIn(browser.context, baseUrl, 'page-1-sign-in');
  await openResource(page, id);

  // The agent reads revision 0 and starts working from it.
  const read = await readText(id);
  expect(read).toEqual({ revision: 0, text: ORIGINAL });

  // The person edits and saves in the page: revision 1.
  await page.fill('#editor-text', PERSON);
  await page.click('#save');
  await page.locator('#editor-status', { hasText: 'Saved as revision 1' }).waitFor();
  await screenshot(page, 'page-2-person-saved');

  // The agent commits from its stale base and is refused.
  const stale = await agent('POST', `/api/resources/${id}/commits`, { baseRevision: read.revision, op: { type: 'set', text: read.text + AGENT_LINE }, operator: 'agent:writer' });
  expect(stale.status).toBe(409);
  expect(stale.body.error).toMatchObject({ code: 'revision_conflict', currentRevision: 1, candidateId: expect.any(String) });

  // It re-reads, rebases its change onto what it finds, and commits on top.
  const again = await readText(id);
  expect(again).toEqual({ revision: 1, text: PERSON });
  const rebased = await agent('POST', `/api/resources/${id}/commits`, { baseRevision: again.revision, op: { type: 'set', text: again.text + AGENT_LINE }, operator: 'agent:writer' });
  expect(rebased.body).toEqual({ resourceId: id, revision: 2 });
  expect((await readText(id)).text).toBe(PERSON + AGENT_LINE);

  // The page follows live (the person had nothing unsaved) and its history shows both revisions.
  await textareaContains(page, '#editor-text', ['edited by a person', AGENT_LINE.trim()]);
  await page.locator('#editor-revision', { hasText: '2' }).waitFor();
  await page.locator('#history-table tr[data-revision="2"]').waitFor();
  expect(await historyOperators(page)).toEqual({ '0': 'human:ann', '1': 'human:web', '2': 'agent:writer' });
  expect(await page.locator('#moved-notice').isHidden()).toBe(true);

  // The agent's revision, diffed against the person's, in the history view.
  await page.click('#history-table tr[data-revision="1"] button');
  await page.locator('#revision-diff .add', { hasText: AGENT_LINE.trim() }).waitFor();
  await screenshot(page, 'page-3-history-both-revisions');

  expect(urls.filter((u) => u.includes(TOKEN))).toEqual([]);
  expect(problems).toEqual([]);
  await page.close();
});

it('a revision that arrives while the person types keeps their edit; the conflicting save shows their candidate, and Retry puts it on top', async () => {
  const id = await createText(ORIGINAL);
  const { page, problems } = await openSignedIn(browser.context, baseUrl);
  await openResource(page, id);
  await page.fill('#editor-text', PERSON);

  // An agent commits while the person has unsaved edits.
  const appended = await agent('POST', `/api/resources/${id}/commits`, { baseRevision: 0, op: { type: 'append', text: AGENT_LINE }, operator: 'agent:writer' });
  expect(appended.body).toEqual({ resourceId: id, revision: 1 });
  await page.locator('#moved-notice', { hasText: 'moved to revision 1' }).waitFor();
  expect(await page.inputValue('#editor-text')).toBe(PERSON);
  await screenshot(page, 'page-4-moved-while-editing');

  // Saving from the old base conflicts: the person's candidate beside the current revision.
  await page.click('#save');
  await page.locator('#conflict').waitFor({ state: 'visible' });
  expect(await page.textContent('#conflict-candidate')).toBe(PERSON);
  expect(await page.textContent('#conflict-current')).toBe(ORIGINAL + AGENT_LINE);
  await screenshot(page, 'page-5-conflict');

  await page.click('#conflict-retry');
  await page.locator('#editor-status', { hasText: 'Saved your version as revision 2' }).waitFor();
  expect(await page.locator('#conflict').isHidden()).toBe(true);
  expect(await readText(id)).toEqual({ revision: 2, text: PERSON });
  const { body } = await agent('GET', `/api/resources/${id}/candidates`);
  expect(body.candidates).toEqual([expect.objectContaining({ status: 'accepted', operator: 'human:web', acceptedRevision: 2 })]);
  await page.locator('#history-table tr[data-revision="2"]').waitFor();
  expect(await historyOperators(page)).toEqual({ '0': 'human:ann', '1': 'agent:writer', '2': 'human:web' });
  await screenshot(page, 'page-6-retried');
  expect(problems).toEqual([]);
  await page.close();
});

it("Discard drops the person's candidate and shows the current revision; Restore brings an old revision back", async () => {
  const id = await createText(ORIGINAL);
  const { page, problems } = await openSignedIn(browser.context, baseUrl);
  await page.fill('#operator-name', 'ann');
  await openResource(page, id);
  await page.fill('#editor-text', PERSON);
  await agent('POST', `/api/resources/${id}/commits`, { baseRevision: 0, op: { type: 'append', text: AGENT_LINE }, operator: 'agent:writer' });
  await page.locator('#moved-notice').waitFor({ state: 'visible' });
  await page.click('#save');
  await page.locator('#conflict').waitFor({ state: 'visible' });
  await page.click('#conflict-discard');
  await page.locator('#editor-status', { hasText: 'Discarded your version' }).waitFor();
  expect(await page.inputValue('#editor-text')).toBe(ORIGINAL + AGENT_LINE);
  const { body } = await agent('GET', `/api/resources/${id}/candidates`);
  expect(body.candidates).toEqual([expect.objectContaining({ status: 'rejected', resolvedBy: 'human:ann' })]);

  // Restore revision 0 from the history: a new revision 2 with the original text.
  await page.click('#history-table tr[data-revision="0"] button');
  await page.locator('#revision-diff .add', { hasText: AGENT_LINE.trim() }).waitFor();
  await page.click('#restore');
  await page.locator('#editor-revision', { hasText: '2' }).waitFor();
  expect(await page.inputValue('#editor-text')).toBe(ORIGINAL);
  expect(await readText(id)).toEqual({ revision: 2, text: ORIGINAL });
  await page.locator('#history-table tr[data-revision="2"][data-operator="human:ann"]').waitFor();
  expect(problems).toEqual([]);
  await page.close();
});

it('without a model, the tasks panel says how to point the host at one, starting a task says why it cannot, and the recorded demo runs', async () => {
  const { page, problems } = await openSignedIn(browser.context, baseUrl);
  await page.locator('#model-hint').waitFor({ state: 'visible' });
  expect(await page.textContent('#model-hint')).toContain('COWORK_MODEL_BASE_URL');
  await page.fill('#task-request', 'Write a summary');
  await page.click('#new-task button[type=submit]');
  await page.locator('#task-start-status', { hasText: 'model_not_configured' }).waitFor();
  await screenshot(page, 'page-7-no-model');
  // The recorded demo runs without a model, and opens its task and its resource.
  await page.click('#run-demo');
  await page.locator('#task-state strong', { hasText: 'done' }).waitFor();
  await page.locator('#editor-title', { hasText: 'text' }).waitFor();
  await page.locator('#editor-revision', { hasText: '2' }).waitFor();
  expect(await page.inputValue('#editor-text')).toContain('A person added this line');
  expect(problems).toEqual([]);
  await page.close();
});

it('a wrong token is refused in the page, and the assets carry the security headers', async () => {
  const page = await browser.context.newPage();
  await browser.context.clearCookies();
  await page.goto(baseUrl);
  await page.fill('#token', 'not-the-token');
  await page.click('#sign-in-form button[type=submit]');
  await page.locator('#sign-in-error', { hasText: 'not the server' }).waitFor();
  expect(await page.locator('#workspace').isHidden()).toBe(true);
  await page.close();

  const script = await fetch(`${baseUrl}/web/app.js`);
  expect(script.status).toBe(200);
  expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
  expect(script.headers.get('content-security-policy')).toContain("default-src 'self'");
  expect(script.headers.get('x-content-type-options')).toBe('nosniff');
  expect((await fetch(`${baseUrl}/web/app.css`)).headers.get('content-type')).toMatch(/^text\/css/);
  expect((await fetch(`${baseUrl}/web/..%2Fpage.ts`)).status).toBe(400);
  expect((await fetch(`${baseUrl}/web/missing.js`)).status).toBe(404);
});
