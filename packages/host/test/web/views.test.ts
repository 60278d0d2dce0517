/**
 * Invariants of the view contract: a kind's view blocks are checked (a malformed block or an
 * off-site URL is the plugin's failure, never markup in the page); a kind without a view answers
 * `blocks: null`; and in real Chromium the page renders the blocks as text, with a picture served
 * from the kind's own export, never runs markup that a content carries, and lets a person edit any
 * kind through its ops (refused ops are explained and write nothing). A live app framed by its view
 * loads its own script and styles in the sandbox, and its script cannot call the API as the person.
 * A person edits a kind's `editable` texts in the page: a save commits the kind's op; an agent's
 * commit to another text meanwhile is merged at once; an agent's change to the same text is never
 * overwritten unseen: the person's text is kept, they are told, and their next save goes on top.
 */
import { definePlugin } from '../../src/plugins/define-plugin';
import type { Json } from '../../src/store/records';
import { body, errorCode, startTestServer, type TestServer } from '../server/harness';
import { launchChromium, openSignedIn, screenshot, type TestBrowser } from './browser';

// A 1x1 PNG, so the page has a real picture to load from the export route.
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

type Card = { title: string; points: string[]; bad?: boolean };

const cardPlugin = definePlugin({
  name: 'cards',
  version: '1.0.0',
  kinds: [
    {
      name: 'demo.card',
      description: 'A titled list of points.',
      revisionSemantics: 'host',
      contentSchema: { type: 'object', properties: { title: { type: 'string' }, points: { type: 'array', items: { type: 'string' } }, bad: { type: 'boolean' } }, required: ['title', 'points'] },
      opSchema: { type: 'object', properties: { add: { type: 'string', minLength: 1 } }, required: ['add'], additionalProperties: false },
      initialContent: () => ({ title: 'Untitled', points: [] }),
      applyOp: (content: Json, op: Json) => ({ ...(content as Card), points: [...(content as Card).points, (op as { add: string }).add] }),
      summarize: (content: Json) => (content as Card).title,
      diff: () => '',
      view: (content: Json, context) => {
        const card = content as Card;
        if (card.bad) return [{ type: 'image', url: 'https://elsewhere.example/x.png', alt: 'off-site' }];
        return [
          { type: 'heading', text: card.title },
          { type: 'list', items: card.points },
          { type: 'image', url: context.exportUrl('png'), alt: 'card preview' },
        ];
      },
      exports: { png: { mediaType: 'image/png', extension: 'png', export: async () => new Uint8Array(PIXEL) } },
    },
  ],
});

/** A live app whose script, loaded by a relative URL, reports what it could do. */
const APP_FILES: Record<string, string> = {
  'index.html': '<!doctype html><html><head><link rel="stylesheet" href="style.css"></head><body><p id="out">static</p><script src="js/app.js"></script></body></html>',
  'style.css': '#out { color: rgb(1, 2, 3); }',
  'js/app.js': `document.getElementById('out').textContent = 'script ran';
fetch('/api/resources', { credentials: 'include' }).then((r) => r.status, () => 'blocked').then((s) => { document.getElementById('out').dataset.api = String(s); });`,
};

const appPlugin = definePlugin({
  name: 'mini-app',
  version: '1.0.0',
  kinds: [
    {
      name: 'demo.app',
      description: 'A fixed live app.',
      revisionSemantics: 'host',
      contentSchema: { type: 'object' },
      opSchema: { type: 'object' },
      initialContent: () => ({}),
      applyOp: (content: Json) => content,
      summarize: () => 'an app',
      diff: () => '',
      view: (_content: Json, context) => [{ type: 'frame', url: `/apps/${context.resourceId}/r/${context.revision}/`, title: 'the app' }],
      app: {
        file: (_content: Json, path: string) =>
          APP_FILES[path] === undefined ? undefined : { data: APP_FILES[path]!, mediaType: path.endsWith('.js') ? 'text/javascript' : path.endsWith('.css') ? 'text/css' : 'text/html' },
      },
    },
  ],
});

type Files = { files: Record<string, string> };

/** Named texts, each editable in the page through the `put` op. */
const filesPlugin = definePlugin({
  name: 'files',
  version: '1.0.0',
  kinds: [
    {
      name: 'demo.files',
      description: 'Named texts.',
      revisionSemantics: 'host',
      contentSchema: { type: 'object', properties: { files: { type: 'object', additionalProperties: { type: 'string' } } }, required: ['files'] },
      opSchema: { type: 'object', properties: { type: { const: 'put' }, path: { type: 'string' }, text: { type: 'string' } }, required: ['type', 'path', 'text'], additionalProperties: false },
      initialContent: () => ({ files: {} }),
      applyOp: (content: Json, op: Json) => {
        const { path, text } = op as { path: string; text: string };
        return { files: { ...(content as Files).files, [path]: text } };
      },
      summarize: () => 'files',
      diff: () => '',
      view: (content: Json) =>
        Object.entries((content as Files).files).map(([path, text]) => ({ type: 'editable' as const, label: path, text, op: { type: 'put', path }, field: 'text' })),
    },
  ],
});

let t: TestServer;
afterEach(() => t.dispose());

it('checks view blocks, and answers null for a kind without a view', async () => {
  t = await startTestServer({}, { plugins: [cardPlugin] });
  const card = await t.host.resources.create({ kind: 'demo.card', content: { title: 'Plan', points: ['one'] }, operator: 'human:ann' });
  const view = body<{ blocks: { type: string }[] }>(await t.request({ method: 'GET', url: `/api/resources/${card.id}/view` }));
  expect(view.blocks.map((b) => b.type)).toEqual(['heading', 'list', 'image']);
  const bad = await t.host.resources.create({ kind: 'demo.card', content: { title: 'x', points: [], bad: true }, operator: 'human:ann' });
  const refused = await t.request({ method: 'GET', url: `/api/resources/${bad.id}/view` });
  expect(refused.statusCode).toBe(500);
  expect(errorCode(refused)).toBe('plugin_failed');
  const text = await t.host.resources.create({ kind: 'text', operator: 'human:ann' });
  expect(body(await t.request({ method: 'GET', url: `/api/resources/${text.id}/view` }))).toEqual({ kind: 'text', revision: 0, blocks: null });
});

describe('in Chromium', () => {
  let browser: TestBrowser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('renders a kind view as text, with its exported picture', async () => {
    t = await startTestServer({ port: 0 }, { plugins: [cardPlugin] });
    const baseUrl = await t.listenHttp();
    const card = await t.host.resources.create({
      kind: 'demo.card',
      content: { title: 'Launch <script>window.pwned = 1</script>', points: ['book the room', '<b>not bold</b>'] },
      operator: 'human:ann',
    });
    const { page, problems } = await openSignedIn(browser.context, baseUrl);
    await page.click(`button[data-resource-id="${card.id}"]`);
    await page.locator('#editor-view').waitFor();
    expect(await page.locator('#editor-view h4').textContent()).toBe('Launch <script>window.pwned = 1</script>');
    expect(await page.locator('#editor-view li').allTextContents()).toEqual(['book the room', '<b>not bold</b>']);
    expect(await page.locator('#editor-view b').count()).toBe(0);
    // Expressions as strings: the test's own TypeScript has no DOM types.
    await page.waitForFunction("(() => { const img = document.querySelector('#editor-view img'); return img !== null && img.complete && img.naturalWidth === 1; })()");
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    await screenshot(page, 'views-1-card');

    // The person edits the kind through its ops (folded away under the view); a bad op gets the kind's complaint.
    await page.click('.op-form summary');
    await page.fill('#op-json', '{"add": "third point"}');
    await page.click('#op-commit');
    await page.locator('#editor-view li', { hasText: 'third point' }).waitFor();
    expect((await t.host.resources.get(card.id)).revision).toBe(1);
    expect((await t.host.resources.history(card.id))[1]).toMatchObject({ operator: 'human:web', op: { add: 'third point' } });
    await page.fill('#op-json', '{"remove": 1}');
    await page.click('#op-commit');
    await page.locator('#op-status', { hasText: 'op schema' }).waitFor();
    await screenshot(page, 'views-2-bad-op');
    expect((await t.host.resources.get(card.id)).revision).toBe(1);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('frames a live app that loads its own files in the sandbox and cannot call the API as the person', async () => {
    t = await startTestServer({ port: 0 }, { plugins: [appPlugin] });
    const baseUrl = await t.listenHttp();
    const app = await t.host.resources.create({ kind: 'demo.app', operator: 'human:ann' });
    const { page, problems } = await openSignedIn(browser.context, baseUrl);
    await page.click(`button[data-resource-id="${app.id}"]`);
    const frame = page.frameLocator('#editor-view iframe');
    await frame.locator('#out[data-api]').waitFor();
    expect(await frame.locator('#out').textContent()).toBe('script ran');
    const styled = (el: unknown): string => (globalThis as unknown as { getComputedStyle(e: unknown): { color: string } }).getComputedStyle(el).color;
    expect(await frame.locator('#out').evaluate(styled)).toBe('rgb(1, 2, 3)');
    // The app's origin is opaque: the API answers without the person's session, or not at all.
    expect(['401', 'blocked']).toContain(await frame.locator('#out').getAttribute('data-api'));
    await screenshot(page, 'views-3-live-app');
    // The only problem the page saw is the app's refused API call.
    expect(problems.every((p) => /api\/resources|CORS|ERR_FAILED/.test(p))).toBe(true);
    await page.close();
  });

  it("edits a kind's texts in the page, merges an agent's change to another text, and never overwrites one to the same text unseen", async () => {
    t = await startTestServer({ port: 0 }, { plugins: [filesPlugin] });
    const baseUrl = await t.listenHttp();
    const { id } = await t.host.resources.create({ kind: 'demo.files', content: { files: { 'a.html': '<p>a</p>', 'b.css': 'p {}' } }, operator: 'human:ann' });
    const files = async () => ((await t.host.resources.get(id)).content as Files).files;
    const agentPut = async (path: string, text: string) => {
      const { revision } = await t.host.resources.get(id);
      await t.host.resources.commit(id, { baseRevision: revision, op: { type: 'put', path, text }, operator: 'agent:a1' });
    };
    const { page, problems } = await openSignedIn(browser.context, baseUrl);
    await page.click(`button[data-resource-id="${id}"]`);
    const area = (label: string) => page.locator(`textarea[data-editable="${label}"]`);
    const status = (label: string) => page.locator(`[data-editable-status="${label}"]`);

    // A plain save commits the kind's op as the person.
    await area('a.html').fill('<p>a, by ann</p>');
    await page.click('button[data-editable-save="a.html"]');
    await status('a.html').filter({ hasText: 'Saved a.html as revision 1' }).waitFor();
    expect(await files()).toEqual({ 'a.html': '<p>a, by ann</p>', 'b.css': 'p {}' });
    expect((await t.host.resources.history(id))[1]).toMatchObject({ operator: 'human:web', op: { type: 'put', path: 'a.html' } });

    // Ann edits b.css while the agent changes a.html: the save lands on top, keeping both.
    await page.locator('#editor-revision', { hasText: '1' }).waitFor();
    await area('b.css').fill('p { color: red }');
    await agentPut('a.html', '<p>a, by the agent</p>');
    await page.locator('#editor-revision', { hasText: '2' }).waitFor();
    expect(await area('b.css').inputValue()).toBe('p { color: red }');
    await page.click('button[data-editable-save="b.css"]');
    await status('b.css').filter({ hasText: 'Saved b.css as revision 3' }).waitFor();
    expect(await files()).toEqual({ 'a.html': '<p>a, by the agent</p>', 'b.css': 'p { color: red }' });

    // Ann edits a.html while the agent changes a.html too: hers is kept, she is told, nothing is overwritten.
    await page.locator('#editor-revision', { hasText: '3' }).waitFor();
    await area('a.html').fill('<p>a, ann again</p>');
    await agentPut('a.html', '<p>a, agent again</p>');
    await page.locator('#editor-revision', { hasText: '4' }).waitFor();
    await page.click('button[data-editable-save="a.html"]');
    await status('a.html').filter({ hasText: 'Someone else changed a.html' }).waitFor();
    expect((await files())['a.html']).toBe('<p>a, agent again</p>');
    expect(await area('a.html').inputValue()).toBe('<p>a, ann again</p>');
    await screenshot(page, 'views-4-edit-conflict');
    // Having been told, her next save goes on top.
    await page.click('button[data-editable-save="a.html"]');
    await status('a.html').filter({ hasText: 'Saved a.html as revision 5' }).waitFor();
    expect((await files())['a.html']).toBe('<p>a, ann again</p>');
    expect(problems.filter((p) => !/409|revision_conflict/.test(p))).toEqual([]);
    await page.close();
  });
});
