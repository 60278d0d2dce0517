// Invariant, in real Chromium on the host's page: a person creates a deck from the page, adds three
// slides with the deck's "Add slide" form, and edits a slide's title while an agent commits a new
// slide; the person's unsaved title survives the agent's revision arriving, and the final deck holds
// both changes. Each slide shows its own picture (the slide's PNG export). The deck and document
// editors, shot at 1280x800 and 390x844 (kept in the temp folder, not the repo), have no text cut
// off or overlapping and no serious or critical axe violations.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { axeViolations, launchChromium, layoutProblems, openSignedIn, screenshot, startPageServer, type PageBrowser, type PageServer, type SignedInPage } from '@cowork/host/testkit/page';
import { plugin, type Presentation } from '../src';
import { sampleDocument } from './document-fixtures';

const SHOTS = join(tmpdir(), 'cowork-editor-shots');
const SIZES = [
  [1280, 800],
  [390, 844],
] as const;

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

type Page = SignedInPage['page'];
const field = (page: Page, label: string) => page.locator(`[data-field="${label}"]`);
const group = (page: Page, title: string) => page.locator(`section.group[data-group="${title}"]`);

async function addSlide(page: Page, title: string, position: number): Promise<void> {
  const form = page.locator('form[data-action-form="Add slide"]');
  await form.getByLabel('New slide title').fill(title);
  await form.locator('button[data-action="Add slide"]').click();
  await group(page, `Slide ${position}: ${title}`).waitFor();
}

/**
 * The width of every picture in the editor once each has loaded, or 0 for one that failed or took
 * a minute (the slide pictures come from LibreOffice). Each is scrolled to first: they load lazily.
 */
async function pictureWidths(page: Page): Promise<number[]> {
  for (const img of await page.locator('#editor-view img').all()) await img.scrollIntoViewIfNeeded();
  // A string, run as the page's own code would be (its CSP allows no eval, which waitForFunction needs).
  return page.evaluate(`Promise.all([...document.querySelectorAll('#editor-view img')].map((img) => img.complete ? img.naturalWidth
    : new Promise((done) => { img.addEventListener('load', () => done(img.naturalWidth)); img.addEventListener('error', () => done(0)); setTimeout(() => done(0), 60000); })))`) as Promise<number[]>;
}

/** Shoots the editor at each size and returns what the layout and axe checks found there. */
async function judge(page: Page, name: string): Promise<string[]> {
  const found: string[] = [];
  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    found.push(...(await pictureWidths(page)).flatMap((w, i) => (w > 0 ? [] : [`picture ${i + 1} did not load`])));
    await screenshot(page, `${name}-${width}x${height}`, SHOTS);
    found.push(...(await layoutProblems(page)).map((p) => `${width}x${height} layout: ${p}`));
    found.push(...(await axeViolations(page)).map((v) => `${width}x${height} axe: ${v}`));
  }
  return found;
}

it('creates a deck, adds three slides, and keeps both a title edited while an agent adds a slide and the agent slide', async () => {
  const { page, problems } = await openSignedIn(browser.context, server.baseUrl);
  try {
    await page.selectOption('#new-kind', 'office.presentation');
    await page.fill('#new-title', 'Quarterly review');
    await page.click('#new-submit');
    await page.locator('#editor-title', { hasText: 'Quarterly review' }).waitFor();
    const id = (await server.host.resources.list()).find((r) => r.title === 'Quarterly review')!.id;

    await addSlide(page, 'Agenda', 1);
    await addSlide(page, 'The numbers', 2);
    await addSlide(page, 'Next steps', 3);

    await field(page, 'Slide 2 title').fill('Figures for Q3');
    const { revision } = await server.host.resources.get(id);
    await server.host.resources.commit(id, { baseRevision: revision, op: { type: 'new_slide', title: 'Risks' }, operator: 'agent:a1' });
    await group(page, 'Slide 4: Risks').waitFor();
    expect(await field(page, 'Slide 2 title').inputValue()).toBe('Figures for Q3');
    await field(page, 'Slide 2 title').press('Enter');
    await page.locator('[data-field-status="Slide 2 title"]', { hasText: 'Saved Slide 2 title' }).waitFor();
    await group(page, 'Slide 2: Figures for Q3').waitFor();

    const deck = (await server.host.resources.get(id)).content as Presentation;
    expect(deck.slides.map((s) => s.title)).toEqual(['Agenda', 'Figures for Q3', 'Next steps', 'Risks']);
    const operators = (await server.host.resources.history(id)).map((r) => r.operator);
    expect(operators).toContain('agent:a1');
    expect(operators.filter((o) => o === 'human:web')).toHaveLength(5); // the creation, three slides and the title
    expect(await group(page, 'Slide 4: Risks').locator('img').getAttribute('src')).toMatch(new RegExp(`/export/slide-4\\?revision=5$`));

    expect(await judge(page, 'deck-editor')).toEqual([]);
    expect(problems).toEqual([]);
  } finally {
    await page.close();
  }
}, 180_000);

it('shows a document editor without layout or accessibility problems', async () => {
  const { id } = await server.host.resources.create({ kind: 'office.document', title: 'Field report', content: sampleDocument(), operator: 'human:ann' });
  const { page, problems } = await openSignedIn(browser.context, server.baseUrl);
  try {
    await page.click(`button[data-resource-id="${id}"]`);
    await field(page, 'Block 2 paragraph').waitFor();
    expect(await judge(page, 'document-editor')).toEqual([]);
    expect(problems).toEqual([]);
  } finally {
    await page.close();
  }
}, 120_000);
