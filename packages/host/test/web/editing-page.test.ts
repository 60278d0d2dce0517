/**
 * Invariants of editing a kind in the page through its view (fields, actions, groups), in real
 * Chromium: a field's save is a commit of the kind's op on the revision shown, and an agent's
 * commit meanwhile lands too (the person's unsaved value survives its arrival); an action with
 * inputs commits its op with them; a save that meets someone else's change to the same value keeps
 * the person's value and tells them, overwriting nothing; a number out of range is refused in the
 * page and a value the kind refuses gets the host's error, and neither moves the revision;
 * choosing a group saves the person's selection, which an agent's view then has. An unsaved value
 * of a field with a `key` stays with its item (and keeps the focus) when the labels move. A person
 * does a whole edit and a selection with the keyboard alone, the focused control always outlined.
 */
import type { Page } from 'playwright-core';
import { focusOutline, openSignedIn, problemsAtSizes, screenshot, tabTo } from '../../src/testkit/page';
import { BOARD_TITLE_PROBLEM, boardPlugin, type Board } from '../support/board-kind';
import { ARTIFACTS, usePageServer } from './browser';

const t = usePageServer({ plugins: [boardPlugin] });

const board = async (id: string) => (await t.server.host.resources.get(id)).content as Board;
const revision = async (id: string) => (await t.server.host.resources.get(id)).revision;
const agentCommit = async (id: string, op: Record<string, unknown>) =>
  t.server.host.resources.commit(id, { baseRevision: await revision(id), op, operator: 'agent:a1' });

async function openBoard(content?: Partial<Board>): Promise<{ id: string; page: Page; problems: string[] }> {
  const { id } = await t.server.host.resources.create({ kind: 'test.board', content: content && { title: 'Plan', width: 100, sizes: [], cards: [], ...content }, operator: 'human:ann' });
  const { page, problems } = await openSignedIn(t.browser.context, t.server.baseUrl);
  await page.click(`button[data-resource-id="${id}"]`);
  await page.locator('#editor-view [data-field="Title"]').waitFor();
  return { id, page, problems };
}

const field = (page: Page, label: string) => page.locator(`[data-field="${label}"]`);
const status = (page: Page, label: string) => page.locator(`[data-field-status="${label}"]`);
const shownRevision = (page: Page, n: number) => page.locator('#editor-revision', { hasText: new RegExp(`^${n}$`) }).waitFor();

it("saves a field while an agent commits another change: both land, and the person's unsaved value survives the agent's revision", async () => {
  const { id, page, problems } = await openBoard();
  try {
    await field(page, 'Width').fill('240');
    const box = await field(page, 'Width').boundingBox();
    await agentCommit(id, { type: 'set_title', title: 'Plan, by the agent' });
    await page.locator('#editor-view h3', { hasText: 'Plan, by the agent' }).waitFor();
    await shownRevision(page, 1);
    expect(await field(page, 'Width').inputValue()).toBe('240');
    // The revision arrived in place: the control being typed in kept its place and the focus.
    expect(await field(page, 'Width').boundingBox()).toEqual(box);
    expect(await page.evaluate('document.activeElement.dataset.field')).toBe('Width');
    await expect(status(page, 'Width').textContent()).resolves.toContain('Unsaved');
    await field(page, 'Width').press('Enter');
    await status(page, 'Width').filter({ hasText: 'Saved Width as revision 2' }).waitFor();
    expect(await board(id)).toMatchObject({ title: 'Plan, by the agent', width: 240 });
    expect((await t.server.host.resources.history(id))[2]).toMatchObject({ operator: 'human:web', op: { type: 'set_width', width: 240 } });
    await page.locator('#editor-view td', { hasText: '240 mm' }).waitFor();
    // Sizes are typed comma-separated and committed as numbers.
    await field(page, 'Sizes').fill('3, 4.5,6');
    await page.click('button[data-field-save="Sizes"]');
    await status(page, 'Sizes').filter({ hasText: 'Saved Sizes' }).waitFor();
    expect((await board(id)).sizes).toEqual([3, 4.5, 6]);
    expect(problems).toEqual([]);
  } finally {
    await page.close();
  }
});

it('commits an action with its inputs, and each card becomes a group with its own fields', async () => {
  const { id, page, problems } = await openBoard();
  try {
    const form = page.locator('form[data-action-form="Add card"]');
    await form.getByLabel('New card title').fill('Kickoff');
    await form.getByLabel('New card points').fill('book the room\ninvite the team');
    await form.locator('button[data-action="Add card"]').click();
    await page.locator('section.group[data-group="Card 1: Kickoff"]').waitFor();
    expect((await board(id)).cards).toEqual([{ id: 'c1', title: 'Kickoff', points: ['book the room', 'invite the team'] }]);
    expect(await field(page, 'Card 1 points').inputValue()).toBe('book the room\ninvite the team');
    await page.click('button[data-action="Remove card 1"]');
    await page.locator('section.group').waitFor({ state: 'detached' });
    expect((await board(id)).cards).toEqual([]);
    expect(problems).toEqual([]);
  } finally {
    await page.close();
  }
});

it('keeps an unsaved value with its item by the field\'s key when an agent removes the item before it and the labels move', async () => {
  const { id, page, problems } = await openBoard({ cards: [{ id: 'c1', title: 'Kickoff', points: [] }, { id: 'c2', title: 'Retro', points: [] }] });
  try {
    await field(page, 'Card 2 title').fill('Retro, by ann');
    await agentCommit(id, { type: 'remove_card', id: 'c1' });
    await page.locator('section.group[data-group="Card 1: Retro"]').waitFor();
    expect(await field(page, 'Card 1 title').inputValue()).toBe('Retro, by ann');
    expect(await page.evaluate('document.activeElement.dataset.field')).toBe('Card 1 title');
    await page.keyboard.press('Enter');
    await status(page, 'Card 1 title').filter({ hasText: 'Saved Card 1 title as revision 2' }).waitFor();
    expect((await board(id)).cards).toEqual([{ id: 'c2', title: 'Retro, by ann', points: [] }]);
    expect(problems.filter((p) => !/409|revision_conflict/.test(p))).toEqual([]);
  } finally {
    await page.close();
  }
});

it("keeps the person's value when someone else changed the same one, and puts it on top once they save again", async () => {
  const { id, page, problems } = await openBoard({ cards: [{ id: 'c1', title: 'Kickoff', points: [] }] });
  try {
    await field(page, 'Card 1 title').fill('Kickoff, by ann');
    await agentCommit(id, { type: 'set_card', id: 'c1', title: 'Kickoff, by the agent' });
    await shownRevision(page, 1);
    expect(await field(page, 'Card 1 title').inputValue()).toBe('Kickoff, by ann');
    await page.click('button[data-field-save="Card 1 title"]');
    await status(page, 'Card 1 title').filter({ hasText: 'Someone else changed Card 1 title' }).waitFor();
    expect((await board(id)).cards[0]!.title).toBe('Kickoff, by the agent');
    expect(await revision(id)).toBe(1);
    expect(await field(page, 'Card 1 title').inputValue()).toBe('Kickoff, by ann');
    // The conflict's candidate was the person's own save, still in the control: it is not left for review.
    expect(await t.server.host.resources.listCandidates(id, 'open')).toEqual([]);
    await screenshot(page, 'editing-1-conflict', ARTIFACTS);
    await page.click('button[data-field-save="Card 1 title"]');
    await status(page, 'Card 1 title').filter({ hasText: 'Saved Card 1 title as revision 2' }).waitFor();
    expect((await board(id)).cards[0]!.title).toBe('Kickoff, by ann');
    expect(problems.filter((p) => !/409|revision_conflict/.test(p))).toEqual([]);
  } finally {
    await page.close();
  }
});

it("refuses a number out of range in the page, shows the host's error for a value the kind refuses, and writes nothing", async () => {
  const { id, page, problems } = await openBoard();
  try {
    const requests: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && requests.push(r.url()));
    await field(page, 'Width').fill('5000');
    await page.click('button[data-field-save="Width"]');
    await status(page, 'Width').filter({ hasText: 'out of range' }).waitFor();
    await field(page, 'Width').fill('wide');
    await page.click('button[data-field-save="Width"]');
    await status(page, 'Width').filter({ hasText: 'is not a number' }).waitFor();
    expect(await field(page, 'Width').getAttribute('aria-invalid')).toBe('true');
    expect(requests).toEqual([]);
    await field(page, 'Title').fill('   ');
    await page.click('button[data-field-save="Title"]');
    await status(page, 'Title').filter({ hasText: 'invalid_op' }).waitFor();
    expect(await status(page, 'Title').textContent()).toContain(BOARD_TITLE_PROBLEM);
    expect(await revision(id)).toBe(0);
    await screenshot(page, 'editing-2-refused', ARTIFACTS);
    expect(problems.filter((p) => !/422|400/.test(p))).toEqual([]);
  } finally {
    await page.close();
  }
});

it("saves the group a person chooses as their selection, marks it, and an agent's view has it", async () => {
  const { id, page, problems } = await openBoard({ cards: [{ id: 'c1', title: 'Kickoff', points: [] }, { id: 'c2', title: 'Review', points: ['read'] }] });
  try {
    await t.server.host.resources.setSelection(id, 'human:bob', { card: 'c1' });
    await page.locator('section.group[data-group="Card 1: Kickoff"] [data-group-marks]', { hasText: 'human:bob' }).waitFor();
    // Keyboard: focus the second card's Select button and press Enter.
    await page.locator('button[data-group-select="Card 2: Review"]').focus();
    await page.keyboard.press('Enter');
    await page.locator('section.group[data-group="Card 2: Review"] [data-group-marks]', { hasText: 'you' }).waitFor();
    expect(await page.locator('button[data-group-select="Card 2: Review"]').getAttribute('aria-pressed')).toBe('true');
    const view = await t.server.host.resources.viewFor(id, { operator: 'agent:main', sinceRevision: 0 });
    expect(view.selections.map((s) => [s.person, s.selection])).toEqual([
      ['human:bob', { card: 'c1' }],
      ['human:web', { card: 'c2' }],
    ]);
    // A click on the group's own text chooses it too.
    await page.locator('section.group[data-group="Card 1: Kickoff"] h4').click();
    await page.locator('section.group[data-group="Card 1: Kickoff"] [data-group-marks]', { hasText: 'you, human:bob' }).waitFor();
    expect((await t.server.host.resources.getSelection(id, 'human:web'))?.selection).toEqual({ card: 'c1' });
    expect(problems).toEqual([]);
  } finally {
    await page.close();
  }
});

it('does a whole edit and chooses a group with the keyboard alone, the focused control outlined', async () => {
  const { id, page, problems } = await openBoard({ cards: [{ id: 'c1', title: 'Kickoff', points: [] }] });
  try {
    // From the resource just opened (its button has the focus), Tab to the field, type, Tab to its Save, Enter.
    await tabTo(page, field(page, 'Width'));
    expect(await focusOutline(page)).toEqual({ style: 'solid', width: 2 });
    await page.keyboard.press('Control+A');
    await page.keyboard.type('320');
    await tabTo(page, page.locator('button[data-field-save="Width"]'), 1);
    expect(await focusOutline(page)).toEqual({ style: 'solid', width: 2 });
    await page.keyboard.press('Enter');
    await status(page, 'Width').filter({ hasText: 'Saved Width as revision 1' }).waitFor();
    expect(await board(id)).toMatchObject({ width: 320 });
    expect((await t.server.host.resources.history(id))[1]).toMatchObject({ operator: 'human:web', op: { type: 'set_width', width: 320 } });

    // On to the card's Select button, and Enter chooses the card.
    const select = page.locator('button[data-group-select="Card 1: Kickoff"]');
    await tabTo(page, select);
    expect(await focusOutline(page)).toEqual({ style: 'solid', width: 2 });
    await page.keyboard.press('Enter');
    await page.locator('section.group[data-group="Card 1: Kickoff"] [data-group-marks]', { hasText: 'you' }).waitFor();
    expect((await t.server.host.resources.getSelection(id, 'human:web'))?.selection).toEqual({ card: 'c1' });
    expect(problems).toEqual([]);
  } finally {
    await page.close();
  }
});

it("lists an agent's proposed draft with the kind's diff, and accepting it from the page commits it; rejecting another closes it", async () => {
  const { id, page, problems } = await openBoard();
  try {
    const propose = async (title: string) => {
      const draft = await t.server.host.resources.createDraft(id, 'agent:a1');
      await t.server.host.resources.editDraft(draft.id, { type: 'add_card', title }, 'agent:a1');
      return t.server.host.resources.proposeDraft(draft.id, 'agent:a1');
    };
    const first = await propose('Budget');
    const card = page.locator(`article[data-candidate="${first.id}"]`);
    await card.waitFor();
    expect(await card.locator('h4').textContent()).toBe('Draft proposed by agent:a1');
    expect(await card.locator(`[data-candidate-diff="${first.id}"]`).textContent()).toBe('added card c1: Budget');
    // Meanwhile a person's own change moves the resource: the proposal is shown as it applies now.
    await field(page, 'Width').fill('120');
    await field(page, 'Width').press('Enter');
    await shownRevision(page, 1);
    await card.locator('p.muted', { hasText: 'apply to revision 1' }).waitFor();
    await screenshot(page, 'editing-4-candidate', ARTIFACTS);
    await card.locator('button', { hasText: 'Accept' }).click();
    await page.locator('#candidates-status', { hasText: 'Accepted: Draft proposed by agent:a1, as revision 2' }).waitFor();
    await page.locator('section.group[data-group="Card 1: Budget"]').waitFor();
    expect(await board(id)).toMatchObject({ width: 120, cards: [{ id: 'c1', title: 'Budget', points: [] }] });
    expect((await t.server.host.resources.getCandidate(first.id)).status).toBe('accepted');

    const second = await propose('Hiring');
    await page.locator(`article[data-candidate="${second.id}"] button`, { hasText: 'Reject' }).click();
    await page.locator('#candidates-status', { hasText: 'Rejected' }).waitFor();
    expect((await t.server.host.resources.getCandidate(second.id)).status).toBe('rejected');
    expect(await revision(id)).toBe(2);
    await page.locator('#candidates').waitFor({ state: 'hidden' });
    expect(problems).toEqual([]);
  } finally {
    await page.close();
  }
});

it('is readable and labelled at 1280x800 and 390x844, with no console errors', async () => {
  const { id, page, problems } = await openBoard({ sizes: [1, 2], cards: [{ id: 'c1', title: 'Kickoff with a rather long title to wrap', points: ['book the room', 'invite the team'] }] });
  try {
    await t.server.host.resources.setSelection(id, 'human:bob', { card: 'c1' });
    const draft = await t.server.host.resources.createDraft(id, 'agent:a1');
    await t.server.host.resources.editDraft(draft.id, { type: 'add_card', title: 'Proposed by the agent' }, 'agent:a1');
    await t.server.host.resources.proposeDraft(draft.id, 'agent:a1');
    await page.locator('article.candidate details summary').click();
    await page.locator('[data-group-marks]', { hasText: 'human:bob' }).waitFor();
    expect(await problemsAtSizes(page, 'editing-3-board', ARTIFACTS)).toEqual([]);
    expect(problems).toEqual([]);
  } finally {
    await page.close();
  }
});
