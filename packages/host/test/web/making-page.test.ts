/**
 * Invariants of making and finding resources in the page, in real Chromium: a person creates a
 * resource of a loaded kind with a title, and it opens; the list shows each resource by title and
 * kind with who changed it last, and filters by text and kind; a file the kind reads is imported as
 * a new resource, and one it cannot read shows the host's error and creates nothing.
 */
import { openSignedIn, problemsAtSizes, screenshot } from '../../src/testkit/page';
import { boardPlugin } from '../support/board-kind';
import { ARTIFACTS, usePageServer } from './browser';

const t = usePageServer({ plugins: [boardPlugin] });

it('creates a resource with a title from the page, lists it by title with who changed it, and filters the list', async () => {
  const notes = await t.server.host.resources.create({ kind: 'text', title: 'Meeting notes', operator: 'human:ann' });
  await t.server.host.resources.commit(notes.id, { baseRevision: 0, op: { type: 'append', text: 'hi' }, operator: 'agent:a1' });
  const { page, problems } = await openSignedIn(t.browser.context, t.server.baseUrl);
  try {
    const item = (id: string) => page.locator(`li[data-resource-item="${id}"]`);
    await item(notes.id).waitFor();
    expect(await item(notes.id).locator('button').textContent()).toBe('Meeting notes');
    expect(await item(notes.id).locator('.resource-meta').textContent()).toMatch(/^text · revision 1 · changed by agent:a1, /);

    await page.selectOption('#new-kind', 'test.board');
    await page.fill('#new-title', 'Q3 roadmap');
    await page.click('#new-submit');
    await page.locator('#editor-title', { hasText: 'Q3 roadmap' }).waitFor();
    const created = (await t.server.host.resources.list()).find((r) => r.title === 'Q3 roadmap');
    expect(created).toMatchObject({ kind: 'test.board', revision: 0 });
    expect((await t.server.host.resources.history(created!.id))[0]!.operator).toBe('human:web');
    await item(created!.id).waitFor();
    await page.locator('#editor-view [data-field="Title"]').waitFor();
    await screenshot(page, 'making-1-created', ARTIFACTS);

    await page.fill('#resource-filter', 'roadmap');
    await item(notes.id).waitFor({ state: 'detached' });
    expect(await page.locator('#resource-list li').count()).toBe(1);
    await page.fill('#resource-filter', '');
    await page.selectOption('#resource-filter-kind', 'text');
    await item(created!.id).waitFor({ state: 'detached' });
    await item(notes.id).waitFor();
    expect(await page.locator('#resource-count').textContent()).toBe('1 of 2 resources');

    // A blank title is refused in the page; nothing is created.
    await page.fill('#new-title', '  ');
    await page.click('#new-submit');
    await page.locator('#new-status.error', { hasText: 'Give it a title' }).waitFor();
    expect(await t.server.host.resources.list()).toHaveLength(2);
    expect(problems).toEqual([]);
  } finally {
    await page.close();
  }
});

it("imports a file the kind reads, and shows the host's error for one it cannot read, creating nothing", async () => {
  const { page, problems } = await openSignedIn(t.browser.context, t.server.baseUrl);
  try {
    const before = (await t.server.host.resources.list()).length;
    await page.selectOption('#import-kind', 'test.board');
    expect(await page.locator('#import-file').getAttribute('accept')).toBe('.board');
    await page.setInputFiles('#import-file', { name: 'broken.board', mimeType: 'application/octet-stream', buffer: Buffer.from('not json at all') });
    await page.click('#import-submit');
    await page.locator('#import-status.error', { hasText: 'this is not a board file' }).waitFor();
    expect(await page.locator('#import-status').textContent()).toMatch(/^Not imported: \w+: /);
    expect(await t.server.host.resources.list()).toHaveLength(before);
    await screenshot(page, 'making-2-import-refused', ARTIFACTS);

    const board = { title: 'Imported', width: 30, sizes: [1], cards: [{ id: 'c1', title: 'From the file', points: [] }] };
    await page.setInputFiles('#import-file', { name: 'q4 plan.board', mimeType: 'application/octet-stream', buffer: Buffer.from(JSON.stringify(board)) });
    await page.click('#import-submit');
    await page.locator('#editor-title', { hasText: 'q4 plan' }).waitFor();
    await page.locator('section.group[data-group="Card 1: From the file"]').waitFor();
    const imported = (await t.server.host.resources.list()).find((r) => r.title === 'q4 plan');
    expect(imported?.content).toEqual(board);
    expect(await problemsAtSizes(page, 'making-3-imported', ARTIFACTS)).toEqual([]);
    expect(problems).toEqual([]);
  } finally {
    await page.close();
  }
});
