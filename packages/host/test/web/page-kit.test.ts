/**
 * Invariant: the page test kit finds what it claims to: overlapping and cut-off text, a page wider
 * than the window, controls without a name, and an editor's picture that did not load (with a
 * screenshot at each size); and finds nothing on the signed-in page as built.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { axeViolations, judgeEditor, layoutProblems, openSignedIn, usePageServer } from '../../src/testkit/page';

const t = usePageServer();

it('signs in over a fresh host, and judges layout and accessibility', async () => {
  const created = await t.server.api<{ id: string }>('POST', '/api/resources', { kind: 'text', content: { text: 'hello' } });
  const { page, problems } = await openSignedIn(t.browser.context, t.server.baseUrl);
  try {
    await page.locator(`button[data-resource-id="${created.id}"]`).waitFor();
    expect(await layoutProblems(page)).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    // Two texts on top of each other, a word wider than its box, and a button with no name.
    await page.evaluate(`(() => {
      const box = document.createElement('div');
      box.innerHTML = '<p style="position:absolute;top:0;left:0;margin:0">first words</p><p style="position:absolute;top:0;left:0;margin:0">second words</p>' +
        '<div style="width:40px;overflow:hidden">Supercalifragilistic</div><button type="button"></button>';
      document.body.append(box);
    })()`);
    const layout = await layoutProblems(page);
    expect(layout.some((p) => p.startsWith('overlap: ') && p.includes('first words') && p.includes('second words'))).toBe(true);
    expect(layout.some((p) => p.startsWith('cut off') && p.includes('Supercalifragilistic'))).toBe(true);
    expect((await axeViolations(page)).some((v) => v.startsWith('button-name (critical)'))).toBe(true);
    await page.setViewportSize({ width: 200, height: 400 });
    await page.evaluate(`document.body.append(Object.assign(document.createElement('div'), { style: 'width: 900px', textContent: 'wide' }))`);
    expect((await layoutProblems(page)).some((p) => p.startsWith('the page is wider than the window'))).toBe(true);
    expect(problems).toEqual([]);
  } finally {
    await page.close();
  }
});

it("opens a resource for a test, and judges an editor: a picture that did not load is a problem at each size, with a screenshot of each", async () => {
  const created = await t.server.api<{ id: string }>('POST', '/api/resources', { kind: 'text', content: { text: 'hello' } });
  const { page, problems } = await t.signIn(created.id);
  const shots = mkdtempSync(join(tmpdir(), 'cowork-kit-shots-'));
  try {
    expect(await page.locator('#editor-text').inputValue()).toBe('hello');
    // An editor view holding a picture the host does not have.
    await page.evaluate(`(() => {
      const view = Object.assign(document.createElement('div'), { id: 'editor-view' });
      view.append(Object.assign(document.createElement('img'), { src: '/no-such-picture.png', alt: 'missing slide' }));
      document.querySelector('#editor').append(view);
    })()`);
    expect(await judgeEditor(page, 'broken', shots)).toEqual(['1280x800: picture 1 ("missing slide") did not load', '390x844: picture 1 ("missing slide") did not load']);
    expect(['broken-1280x800.png', 'broken-390x844.png'].map((name) => existsSync(join(shots, name)))).toEqual([true, true]);
    expect(problems.filter((p) => !/404/.test(p))).toEqual([]);
  } finally {
    await page.close();
    rmSync(shots, { recursive: true, force: true });
  }
});
