// Invariant, in real Chromium on the host's page: a web app's editor shows the live app in a frame
// and its text files editable, and saving a file is one put_file commit the frame then shows. Shot at
// 1280x800 and 390x844 (kept in the temp folder, not the repo), it has no text cut off or overlapping
// and no serious or critical axe violations.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { axeViolations, launchChromium, layoutProblems, openSignedIn, screenshot, startPageServer, type PageBrowser, type PageServer } from '@cowork/host/testkit/page';
import { plugin } from '../src';

const SHOTS = join(tmpdir(), 'cowork-editor-shots');

let browser: PageBrowser;
let server: PageServer;

beforeAll(async () => {
  browser = await launchChromium();
  server = await startPageServer({ plugins: [plugin] });
});

afterAll(async () => {
  await server?.dispose();
  await browser?.close();
});

it('saves a file from the editor and the live app frame shows it, and the editor reads well at both sizes', async () => {
  const { id } = await server.host.resources.create({ kind: 'web.app', title: 'Planner', operator: 'human:ann' });
  const { page, problems } = await openSignedIn(browser.context, server.baseUrl);
  try {
    await page.click(`button[data-resource-id="${id}"]`);
    const entry = page.locator('[data-editable="index.html"]');
    await entry.fill('<!doctype html><html lang="en"><title>Planner</title><h1>Packing planner</h1></html>\n');
    await page.click('button[data-editable-save="index.html"]');
    await page.locator('[data-editable-status="index.html"]', { hasText: 'Saved index.html as revision 1' }).waitFor();
    const frame = page.frameLocator(`#editor-view iframe[src="/apps/${id}/r/1/"]`);
    await frame.locator('h1', { hasText: 'Packing planner' }).waitFor();
    expect((await server.host.resources.history(id)).map((r) => r.op && (r.op as { type: string }).type)).toEqual([null, 'put_file']);

    const found: string[] = [];
    for (const [width, height] of [[1280, 800], [390, 844]] as const) {
      await page.setViewportSize({ width, height });
      await screenshot(page, `app-editor-${width}x${height}`, SHOTS);
      found.push(...(await layoutProblems(page)).map((p) => `${width}x${height} layout: ${p}`), ...(await axeViolations(page)).map((v) => `${width}x${height} axe: ${v}`));
    }
    expect(found).toEqual([]);
    expect(problems).toEqual([]);
  } finally {
    await page.close();
  }
});
