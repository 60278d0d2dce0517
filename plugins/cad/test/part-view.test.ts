// Invariant: a part's view passes the host's view schema with the parameter table as number fields
// (held to the range of the features that use each parameter whole), the measures as a table, the
// 3D model of the revision shown, and one group per feature (selecting it by id) with its numbers
// editable, every label unique. Each control, used as the page uses it (the value put at the
// field's `field`, committed on the revision shown), changes the part through a real host, and the
// next view shows the new model and measures; a value the kind refuses (a zero width, a fillet too
// large for its edges, a point of two numbers) is answered with the reason, and nothing is written.
import { isCoworkError, type ViewBlock } from '@cowork/host';
import { controlLabels, leaves, openTempHost, useControl, type TempHost } from '@cowork/host/testkit';
import { plugin, type Part } from '../src';
import { bracket } from './parts';

let host: TempHost;

beforeAll(async () => {
  host = await openTempHost({ plugins: [plugin], prefix: 'cowork-cad-view-' });
});

afterAll(() => host.dispose());

const blocks = async (id: string): Promise<ViewBlock[]> => (await host.views.view(id)).blocks ?? [];
const measures = (view: ViewBlock[]): string[][] => view.flatMap((b) => (b.type === 'table' && b.header?.[0] === 'Measure' ? b.rows.map((r) => [...r]) : []));

it('shows parameters as bounded number fields and each feature as a group with its numbers, every label unique', async () => {
  const { id } = await host.resources.create({ kind: 'cad.part', content: bracket(), operator: 'human:ann' });
  const view = await blocks(id);
  const fields = leaves(view).filter((b) => b.type === 'field');
  expect(fields.filter((f) => f.label.startsWith('Parameter '))).toEqual(
    ['width', 'depth', 'height', 'hole'].map((name) => ({
      type: 'field', label: `Parameter ${name}`, value: bracket().parameters[name], op: { type: 'set_parameter', name }, field: 'value', input: 'number', min: 1e-6, max: 1e6, unit: 'mm',
    })),
  );
  const groups = view.filter((b) => b.type === 'group');
  expect(groups.map((g) => [g.title, g.selection])).toEqual([
    ['Feature 1: plate (box)', { featureId: 'plate' }],
    ['Feature 2: round (fillet)', { featureId: 'round' }],
    ['Feature 3: bore (cylinder)', { featureId: 'bore' }],
    ['Feature 4: hole (cut)', { featureId: 'hole' }],
  ]);
  expect(groups[1]!.blocks).toEqual([
    { type: 'paragraph', text: '[round] fillet plate, radius 2, all edges' },
    { type: 'field', label: 'Feature round radius', value: 2, op: { type: 'set_dimension', id: 'round', dimension: 'radius' }, field: 'value', input: 'number', min: 1e-6, max: 1e6, unit: 'mm' },
    { type: 'paragraph', text: 'Used by feature hole; remove or change that one to remove this.' },
  ]);
  // An expression is edited as text; a point holding one shows in the feature's line only.
  expect(groups[2]!.blocks.map((b) => (b.type === 'field' ? [b.label, b.value, b.input] : b.type))).toEqual([
    'paragraph',
    ['Feature bore radius (expression)', 'hole', 'text'],
    ['Feature bore height (expression)', 'height + 2', 'text'],
    'paragraph',
  ]);
  const labels = controlLabels(view);
  expect(new Set(labels).size).toBe(labels.length);
  expect(labels).toEqual(expect.arrayContaining(['Add parameter', 'New parameter name', 'New parameter value', 'Feature plate at', 'Remove feature hole']));
});

it('commits each control as the page does, and the next view shows the new model and measures', async () => {
  const { id } = await host.resources.create({ kind: 'cad.part', operator: 'human:ann' });
  expect(await useControl(host, id, 'Parameter width', 60)).toBe(1);
  let view = await blocks(id);
  expect(view).toContainEqual({ type: 'model', url: `/api/resources/${id}/export/glb?revision=1`, alt: 'the part at revision 1' });
  expect(measures(view)).toEqual(expect.arrayContaining([['Volume', '36000 mm³'], ['Bounding box', '60 × 30 × 20 mm'], ['From', '(0, 0, 0) mm']]));

  await useControl(host, id, 'Feature base at', [5, 0, -10]);
  await useControl(host, id, 'Feature base height (expression)', '10');
  await useControl(host, id, 'Add parameter', { name: 'radius', value: 4 });
  await host.resources.commit(id, { baseRevision: 4, op: { type: 'add_feature', feature: { id: 'ball', type: 'sphere', radius: 'radius', at: [100, 0, 0] } }, operator: 'agent:a1' });
  await useControl(host, id, 'Parameter radius', 6);
  await useControl(host, id, 'Remove feature ball');
  const part = (await host.resources.get(id)).content as Part;
  expect(part).toEqual({ units: 'mm', parameters: { width: 60, depth: 30, height: 20, radius: 6 }, features: [{ id: 'base', type: 'box', width: 'width', depth: 'depth', height: 10, at: [5, 0, -10] }] });
  view = await blocks(id);
  expect(measures(view)).toEqual(expect.arrayContaining([['Volume', '18000 mm³'], ['From', '(5, 0, -10) mm'], ['To', '(65, 30, 0) mm']]));
  expect(leaves(view)).toContainEqual(expect.objectContaining({ label: 'Feature base height', value: 10, input: 'number' }));
});

it.each<[string, string, unknown, RegExp]>([
  ['a width of zero', 'Parameter width', 0, /feature plate \(box\): width must be from 0\.000001 to 1000000 mm but is 0/],
  ['a fillet too large for its edges', 'Feature round radius', 40, /would not build: feature round \(fillet\): a fillet of 40 mm does not fit/],
  ['a point of two numbers', 'Feature plate at', [1, 2], /feature plate \(box\): at takes 3 numbers, not 2/],
  ['an expression naming no parameter', 'Feature bore radius (expression)', 'holes', /uses parameter "holes", which does not exist/],
])('refuses %s with the reason and writes nothing', async (_name, label, value, message) => {
  const { id } = await host.resources.create({ kind: 'cad.part', content: bracket(), operator: 'human:ann' });
  const error = await useControl(host, id, label, value as never).catch((e: unknown) => e);
  expect(isCoworkError(error) && [error.code, error.message]).toEqual(['invalid_op', expect.stringMatching(message)]);
  const now = await host.resources.get(id);
  expect([now.revision, now.content]).toEqual([0, bracket()]);
});
