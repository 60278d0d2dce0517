// Invariant, in real Chromium on the host's page: a web app's editor shows the live app in a frame
// and its text files editable, and saving a file is one put_file commit the frame then shows. The
// frame (70% of the window high) stands beside the files at 1280x800 and above them at 390x844
// (element boxes). Shot at both sizes (kept in the temp folder, not the repo), it has no text cut off
// or overlapping and no serious or critical axe violations. A zip imported from the page becomes an
// app; a file that is not a zip gets the host's error and creates nothing.
import { forgeZip } from '@cowork/host/testkit';
import { judgeEditor, usePageServer } from '@cowork/host/testkit/page';
import { plugin } from '../src';

const t = usePageServer({ plugins: [plugin] });

it('saves a file from the editor and the live app frame shows it, and the editor reads well at both sizes', async () => {
  const { id } = await t.server.host.resources.create({ kind: 'web.app', title: 'Planner', operator: 'human:ann' });
  const { page, problems } = await t.signIn(id);
  try {
    const entry = page.locator('[data-editable="index.html"]');
    await entry.fill('<!doctype html><html lang="en"><title>Planner</title><h1>Packing planner</h1></html>\n');
    await page.click('button[data-editable-save="index.html"]');
    await page.locator('[data-editable-status="index.html"]', { hasText: 'Saved index.html as revision 1' }).waitFor();
    const frame = page.frameLocator(`#editor-view iframe[src="/apps/${id}/r/1/"]`);
    await frame.locator('h1', { hasText: 'Packing planner' }).waitFor();
    expect((await t.server.host.resources.history(id)).map((r) => r.op && (r.op as { type: string }).type)).toEqual([null, 'put_file']);

    // The live app beside the files where the window is wide, at a size to use it; above them where it is narrow.
    type Box = { x: number; y: number; width: number; height: number };
    const boxes = async (width: number, height: number): Promise<[frame: Box, file: Box]> => {
      await page.setViewportSize({ width, height });
      await page.evaluate('window.scrollTo(0, 0)');
      return [(await page.locator('#editor-view iframe').boundingBox())!, (await entry.boundingBox())!];
    };
    const [wideFrame, wideFile] = await boxes(1280, 800);
    expect(wideFrame.x).toBeGreaterThanOrEqual(wideFile.x + wideFile.width);
    expect(wideFrame.y).toBeLessThan(wideFile.y + wideFile.height);
    expect(wideFile.y).toBeLessThan(wideFrame.y + wideFrame.height);
    expect(Math.abs(wideFrame.width - wideFile.width)).toBeLessThan(2); // two equal columns
    expect([wideFrame.width >= 300, Math.round(wideFrame.height)]).toEqual([true, 560]); // 70% of the window's height
    const [narrowFrame, narrowFile] = await boxes(390, 844);
    expect(narrowFile.y).toBeGreaterThanOrEqual(narrowFrame.y + narrowFrame.height);
    expect(Math.abs(narrowFrame.width - narrowFile.width)).toBeLessThan(2);
    expect(await judgeEditor(page, 'app-editor')).toEqual([]);
    expect(problems).toEqual([]);
  } finally {
    await page.close();
  }
});

it("imports an app's zip from the page, and shows the host's error for a file that is not a zip, creating nothing", async () => {
  const { page, problems } = await t.signIn();
  try {
    const before = (await t.server.host.resources.list()).length;
    await page.selectOption('#import-kind', 'web.app');
    await page.setInputFiles('#import-file', { name: 'notes.zip', mimeType: 'application/zip', buffer: Buffer.from('these are notes, not a zip') });
    await page.click('#import-submit');
    await page.locator('#import-status.error', { hasText: /^Not imported: invalid_file: / }).waitFor();
    // What to do comes with it: the error code's hint.
    expect(await page.locator('#import-status').textContent()).toContain('bring a file that opens in its own application');
    expect(await t.server.host.resources.list()).toHaveLength(before);

    const zip = forgeZip([{ name: 'index.html', data: '<!doctype html><html lang="en"><title>Quiz</title><h1>Capital cities</h1></html>\n' }]);
    await page.setInputFiles('#import-file', { name: 'quiz.zip', mimeType: 'application/zip', buffer: Buffer.from(zip) });
    await page.click('#import-submit');
    await page.locator('#editor-title', { hasText: 'quiz' }).waitFor();
    await page.frameLocator('#editor-view iframe').locator('h1', { hasText: 'Capital cities' }).waitFor();
    expect((await t.server.host.resources.list()).map((r) => [r.kind, r.title])).toContainEqual(['web.app', 'quiz']);
    expect(problems.filter((p) => !/422/.test(p))).toEqual([]);
  } finally {
    await page.close();
  }
});
