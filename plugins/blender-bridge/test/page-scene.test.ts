// Invariant, in real Chromium on the host's page over a real Blender: a person moves an object by
// typing its location in the object's group, which is one set_transform commit that Blender
// performs, and the page shows the new revision's preview. The editor, shot at 1280x800 and 390x844
// (kept in the temp folder, not the repo), has no text cut off or overlapping and no serious or
// critical axe violations.
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { axeViolations, launchChromium, layoutProblems, openSignedIn, screenshot, startPageServer, type PageBrowser, type PageServer, type SignedInPage } from '@cowork/host/testkit/page';
import { closeHostAndStopBlender, plugin } from '../src';
import type { Scene } from '../src/content';
import { CAR_OPS } from './scenes';

const SHOTS = join(tmpdir(), 'cowork-editor-shots');

let browser: PageBrowser;
let server: PageServer;

beforeAll(async () => {
  browser = await launchChromium();
  server = await startPageServer({ plugins: [plugin], externalPollMs: 0 });
});

afterAll(async () => {
  if (server) {
    // Blender outlives a host on purpose: stop it, then remove the workspace.
    await server.server.close();
    await closeHostAndStopBlender(server.host);
    rmSync(server.host.dir, { recursive: true, force: true, maxRetries: 10 });
  }
  await browser?.close();
});

type Page = SignedInPage['page'];

/** The preview picture of `revision`, once Cycles has rendered it and the page has loaded it: its width. */
async function preview(page: Page, revision: number): Promise<number> {
  const selector = `#editor-view img[src$="/export/png?revision=${revision}"]`;
  await page.locator(selector).waitFor();
  // A string: the tests compile without the DOM's types.
  return page.evaluate(`(() => { const img = document.querySelector(${JSON.stringify(selector)});
    return img.complete ? img.naturalWidth : new Promise((done) => { img.addEventListener('load', () => done(img.naturalWidth)); img.addEventListener('error', () => done(0)); }); })()`) as Promise<number>;
}

it('moves an object from its group: Blender performs it, and the editor reads well at both sizes', async () => {
  const { id } = await server.host.resources.create({ kind: 'blender.scene', title: 'Car', operator: 'human:ann' });
  let revision = 0;
  for (const op of CAR_OPS) revision = (await server.host.resources.commit(id, { baseRevision: revision, op, operator: 'agent:builder' })).revision;
  const { page, problems } = await openSignedIn(browser.context, server.baseUrl);
  try {
    await page.click(`button[data-resource-id="${id}"]`);
    const location = page.locator('[data-field="Wheel location"]');
    await location.fill('1, 0.6, 0.3');
    await location.press('Enter');
    await page.locator('[data-field-status="Wheel location"]', { hasText: `Saved Wheel location as revision ${revision + 1}` }).waitFor();
    const wheel = ((await server.host.resources.get(id)).content as Scene).objects.find((o) => o.name === 'Wheel');
    expect(wheel?.location).toEqual([1, 0.6, 0.3]);
    expect(await preview(page, revision + 1)).toBe(320);

    const found: string[] = [];
    for (const [width, height] of [[1280, 800], [390, 844]] as const) {
      await page.setViewportSize({ width, height });
      await screenshot(page, `scene-editor-${width}x${height}`, SHOTS);
      found.push(...(await layoutProblems(page)).map((p) => `${width}x${height} layout: ${p}`), ...(await axeViolations(page)).map((v) => `${width}x${height} axe: ${v}`));
    }
    expect(found).toEqual([]);
    expect(problems).toEqual([]);
  } finally {
    await page.close();
  }
}, 180_000);
