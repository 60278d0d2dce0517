/**
 * Invariant: the page test kit finds what it claims to: overlapping and cut-off text, a page wider
 * than the window, and controls without a name; and finds nothing on the signed-in page as built.
 */
import { axeViolations, launchChromium, layoutProblems, openSignedIn, startPageServer, type PageBrowser, type PageServer } from '../../src/testkit/page';

let browser: PageBrowser;
let server: PageServer;

beforeAll(async () => {
  browser = await launchChromium();
  server = await startPageServer();
});
afterAll(async () => {
  await server?.dispose();
  await browser?.close();
});

it('signs in over a fresh host, and judges layout and accessibility', async () => {
  const created = await server.api<{ id: string }>('POST', '/api/resources', { kind: 'text', content: { text: 'hello' } });
  const { page, problems } = await openSignedIn(browser.context, server.baseUrl);
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
