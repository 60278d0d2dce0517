// Invariant, in real Chromium on the host's page: a person widens a CAD part by typing a new width
// in the parameter table; that is one commit of set_parameter on the revision shown, and the page
// then shows the new revision's 3D model (loaded from its glb export) and its new measures. A value
// out of the field's range is refused in the page; one the kind's kernel refuses (a fillet too large)
// shows the host's reason; neither writes anything. An agent's revision arriving while a person
// types a parameter: the controls above its new parameter stay where they were (the model and measures above are redrawn in place).
// A STEP file exported by the kind imports from the page's import form as a part that shows its
// model and measures. The part and assembly editors, shot at 1280x800
// and 390x844 (kept in the temp folder, not the repo), have no text cut off or overlapping and no
// serious or critical axe violations.
import { importThroughPage, judgeEditor, shiftsOnArrival, usePageServer, type SignedInPage } from '@cowork/host/testkit/page';
import { plugin, type Assembly, type Part } from '../src';
import { bracket, part } from './parts';

const t = usePageServer({ plugins: [plugin] });

type Page = SignedInPage['page'];
const field = (page: Page, label: string) => page.locator(`[data-field="${label}"]`);
const status = (page: Page, label: string) => page.locator(`[data-field-status="${label}"]`);
const measure = (page: Page, name: string) => page.locator('#editor-view tr', { has: page.locator('td', { hasText: new RegExp(`^${name}$`) }) }).locator('td').nth(1);
/** The shown model once loaded: its glb URL and how many triangles it has. */
const model = async (page: Page, revision: number): Promise<string | null> => {
  const figure = page.locator(`figure.model-view[data-state="loaded"]:has(a[href$="/export/glb?revision=${revision}"])`);
  await figure.waitFor();
  return figure.getAttribute('data-triangles');
};

it('widens a part in the parameter table: one commit, and the page shows the new model and measures', async () => {
  const { id } = await t.server.host.resources.create({ kind: 'cad.part', title: 'Spacer', operator: 'human:ann' });
  const { page, problems } = await t.signIn(id);
  try {
    await field(page, 'Parameter width').waitFor();
    expect(await measure(page, 'Volume').textContent()).toBe('24000 mm³');
    expect(Number(await model(page, 0))).toBeGreaterThan(0);

    await field(page, 'Parameter width').fill('60');
    await field(page, 'Parameter width').press('Enter');
    await status(page, 'Parameter width').filter({ hasText: 'Saved Parameter width as revision 1' }).waitFor();
    await measure(page, 'Volume').filter({ hasText: '36000 mm³' }).waitFor();
    expect(await measure(page, 'Bounding box').textContent()).toBe('60 × 30 × 20 mm');
    expect(Number(await model(page, 1))).toBeGreaterThan(0);
    expect(await field(page, 'Parameter width').inputValue()).toBe('60');
    const history = await t.server.host.resources.history(id);
    expect(history.map((r) => [r.revision, r.operator, r.op])).toEqual([
      [0, 'human:ann', null],
      [1, 'human:web', { type: 'set_parameter', name: 'width', value: 60 }],
    ]);

    // Zero is outside the range the field carries: the page refuses it and sends nothing.
    await field(page, 'Parameter depth').fill('0');
    await field(page, 'Parameter depth').press('Enter');
    await status(page, 'Parameter depth').filter({ hasText: 'Parameter depth: 0 is out of range' }).waitFor();
    // A fillet too large for the box's edges is in range: the kind's kernel check refuses it, and the page says why.
    await t.server.host.resources.commit(id, { baseRevision: 1, op: { type: 'add_feature', feature: { id: 'round', type: 'fillet', target: 'base', radius: 2 } }, operator: 'agent:a1' });
    await field(page, 'Feature round radius').fill('20');
    await field(page, 'Feature round radius').press('Enter');
    await status(page, 'Feature round radius').filter({ hasText: 'a fillet of 20 mm does not fit' }).waitFor();
    const after = await t.server.host.resources.get(id);
    expect([after.revision, (after.content as Part).parameters.depth, (after.content as Part).features[1]]).toEqual([2, 30, { id: 'round', type: 'fillet', target: 'base', radius: 2 }]);
    expect(problems.filter((p) => !/400|invalid_op/.test(p))).toEqual([]);
  } finally {
    await page.close();
  }
});

it("keeps the controls above an agent's new parameter, and the one being typed in, where they were", async () => {
  const { id } = await t.server.host.resources.create({ kind: 'cad.part', title: 'Plate', operator: 'human:ann' });
  const { page, problems } = await t.signIn(id);
  try {
    await model(page, 0);
    await field(page, 'Parameter height').fill('25');
    const shifts = await shiftsOnArrival(
      page,
      async () => {
        await t.server.host.resources.commit(id, { baseRevision: 0, op: { type: 'set_parameter', name: 'margin', value: 5 }, operator: 'agent:a1' });
        await field(page, 'Parameter margin').waitFor();
      },
      field(page, 'Parameter margin'),
    );
    expect(shifts).toEqual([]);
    expect(await model(page, 1)).not.toBeNull();
    expect(await field(page, 'Parameter height').inputValue()).toBe('25');
    expect(problems).toEqual([]);
  } finally {
    await page.close();
  }
});

it('imports a STEP file from the page as a part that shows its model and measures', async () => {
  const { id } = await t.server.host.resources.create({ kind: 'cad.part', title: 'Source', content: bracket(), operator: 'human:ann' });
  const step = (await t.server.host.exports.export(id, 'step')).data;
  const { page, problems } = await t.signIn();
  try {
    await importThroughPage(page, 'cad.part', { name: 'bracket copy.step', data: step });
    const imported = (await t.server.host.resources.list()).find((r) => r.title === 'bracket copy');
    expect((imported?.content as Part).features).toEqual([expect.objectContaining({ id: 'imported', type: 'step', fileName: 'bracket copy.step' })]);
    expect(Number(await model(page, 0))).toBeGreaterThan(0);
    // The imported solid measures as the part it came from.
    const source = await t.server.host.views.view(id);
    const volume = (view: typeof source) => JSON.stringify(view.blocks).match(/"Volume","([^"]+)"/)?.[1];
    expect(volume(source)).toBeDefined();
    await measure(page, 'Volume').filter({ hasText: volume(source)! }).waitFor();
    await page.locator('section.group[data-group="Feature 1: imported (step)"]').waitFor();
    expect(problems).toEqual([]);
  } finally {
    await page.close();
  }
});

// Two blocks side by side, each a part held inline.
const twoBlocks = (): Assembly => ({
  units: 'mm',
  parts: [0, 20].map((x, i) => ({ id: `block-${i + 1}`, part: part([{ id: 'b', type: 'box', width: 10, depth: 10, height: 10 }]), placement: { translate: [x, 0, 0] } })),
});

it.each<[string, string, Part | Assembly]>([
  ['part', 'cad.part', bracket()],
  ['assembly', 'cad.assembly', twoBlocks()],
])('shows the %s editor without layout or accessibility problems', async (name, kind, content) => {
  const { id } = await t.server.host.resources.create({ kind, title: `A ${name}`, content, operator: 'human:ann' });
  const { page, problems } = await t.signIn(id);
  try {
    await model(page, 0);
    expect(await judgeEditor(page, `${name}-editor`)).toEqual([]);
    expect(problems).toEqual([]);
  } finally {
    await page.close();
  }
});
