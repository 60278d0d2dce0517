// Invariant, in real Chromium on the host's page over a real Blender: a person moves an object by
// typing its location in the object's group, which is one set_transform commit that Blender
// performs, and the page shows the new revision's preview. The editor, shot at 1280x800 and 390x844
// (kept in the temp folder, not the repo), has no text cut off or overlapping and no serious or
// critical axe violations.
import { judgeEditor, usePageServer, type SignedInPage } from '@cowork/host/testkit/page';
import { closeHostAndStopBlender, plugin } from '../src';
import type { Scene } from '../src/content';
import { CAR_OPS } from './scenes';

// Blender outlives a host on purpose: disposing stops it before the workspace is removed.
const t = usePageServer({ plugins: [plugin], externalPollMs: 0, closeHost: closeHostAndStopBlender });

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
  const { id } = await t.server.host.resources.create({ kind: 'blender.scene', title: 'Car', operator: 'human:ann' });
  let revision = 0;
  for (const op of CAR_OPS) revision = (await t.server.host.resources.commit(id, { baseRevision: revision, op, operator: 'agent:builder' })).revision;
  const { page, problems } = await t.signIn(id);
  try {
    const location = page.locator('[data-field="Wheel location"]');
    await location.fill('1, 0.6, 0.3');
    await location.press('Enter');
    await page.locator('[data-field-status="Wheel location"]', { hasText: `Saved Wheel location as revision ${revision + 1}` }).waitFor();
    const wheel = ((await t.server.host.resources.get(id)).content as Scene).objects.find((o) => o.name === 'Wheel');
    expect(wheel?.location).toEqual([1, 0.6, 0.3]);
    expect(await preview(page, revision + 1)).toBe(320);

    expect(await judgeEditor(page, 'scene-editor')).toEqual([]);
    expect(problems).toEqual([]);
  } finally {
    await page.close();
  }
}, 180_000);
