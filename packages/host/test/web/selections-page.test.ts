/**
 * Invariant: in a real browser, a person's selection in the text editor is saved (debounced) as
 * theirs, shown in the page with everyone else's, and is in an agent's view of the resource.
 */
import { startTestServer, type TestServer } from '../server/harness';
import { launchChromium, openSignedIn, screenshot, type TestBrowser } from './browser';

let browser: TestBrowser;
let t: TestServer;
let baseUrl: string;

beforeAll(async () => {
  browser = await launchChromium();
  t = await startTestServer({ port: 0 });
  baseUrl = await t.listenHttp();
});
afterAll(async () => {
  await t?.dispose();
  await browser?.close();
});

it("saves the person's text selection, shows it, and the agent's view has it", async () => {
  const id = (await t.host.resources.create({ kind: 'text', content: { text: 'Title\nfirst paragraph\n' }, operator: 'human:ann' })).id;
  await t.host.resources.setSelection(id, 'human:ann', { range: [6, 11], revision: 0 });
  const { page, problems } = await openSignedIn(browser.context, baseUrl);
  try {
    await page.fill('#operator-name', 'pat');
    await page.click(`button[data-resource-id="${id}"]`);
    await page.locator('#editor-text').waitFor();
    await page.locator('#selections', { hasText: 'human:ann: 6–11' }).waitFor();
    // The person selects characters 0 to 5 (as a drag would).
    await page.locator('#editor-text').evaluate((el) => {
      const textarea = el as unknown as { focus(): void; setSelectionRange(start: number, end: number): void; dispatchEvent(event: unknown): void };
      textarea.focus();
      textarea.setSelectionRange(0, 5);
      textarea.dispatchEvent(new (globalThis as unknown as { Event: new (type: string) => unknown }).Event('select'));
    });
    await page.locator('#selections', { hasText: 'human:pat: 0–5' }).waitFor();
    const view = await t.host.resources.viewFor(id, { operator: 'agent:main', sinceRevision: 0 });
    expect(view.selections.map((s) => [s.person, s.selection])).toEqual([
      ['human:ann', { range: [6, 11], revision: 0 }],
      ['human:pat', { range: [0, 5], revision: 0 }],
    ]);
    await screenshot(page, 'selections');
    expect(problems).toEqual([]);
  } finally {
    await page.close();
  }
});
