// Invariant: through a real Host and a real Blender, a scene's view passes the host's view schema
// with the preview image, the 3D model and one group per object (selecting it by name) whose
// location, rotation, scale and material are fields, every label unique. Each control, used as the
// page uses it (the value put at the field's `field`, committed on the revision shown), changes
// what Blender reports; a value the kind refuses (a location of two numbers, a colour above 1, an
// empty material name) is answered with the problem, and nothing is written.
import { isCoworkError } from '@cowork/host';
import { controlLabels, openTempHost, useControl, type TempHost } from '@cowork/host/testkit';
import { closeHostAndStopBlender, plugin } from '../src';
import type { Scene } from '../src/content';

describe('blender.scene view', () => {
  let host: TempHost;
  let id: string;

  beforeAll(async () => {
    // Blender outlives a host on purpose: disposing stops it before the workspace is removed.
    host = await openTempHost({ plugins: [plugin], externalPollMs: 0, prefix: 'cowork-blender-view-', closeHost: closeHostAndStopBlender });
    id = (await host.resources.create({ kind: 'blender.scene', operator: 'human:ann' })).id;
  });

  afterAll(() => host?.dispose());

  const scene = async (): Promise<Scene> => (await host.resources.get(id)).content as Scene;

  it('shows the preview, the model and each object as a group with its transform and material, every label unique', async () => {
    const view = await host.views.view(id);
    const blocks = view.blocks ?? [];
    expect(blocks.slice(1, 3)).toEqual([
      { type: 'image', url: `/api/resources/${id}/export/png?revision=0`, alt: 'Cycles preview of revision 0' },
      { type: 'model', url: `/api/resources/${id}/export/glb?revision=0`, alt: 'the scene at revision 0' },
    ]);
    const groups = blocks.filter((b) => b.type === 'group');
    expect(groups.map((g) => [g.title, g.selection])).toEqual([['Cube (cube mesh)', { object: 'Cube' }]]);
    expect(groups[0]!.blocks.slice(1)).toEqual([
      { type: 'field', label: 'Cube location', value: [0, 0, 0], op: { type: 'set_transform', object: 'Cube' }, field: 'location', input: 'numbers', unit: 'm' },
      { type: 'field', label: 'Cube rotation', value: [0, 0, 0], op: { type: 'set_transform', object: 'Cube' }, field: 'rotation', input: 'numbers', unit: '°' },
      { type: 'field', label: 'Cube scale', value: [1, 1, 1], op: { type: 'set_transform', object: 'Cube' }, field: 'scale', input: 'numbers' },
      { type: 'field', label: 'Cube material', value: '', op: { type: 'set_material', object: 'Cube' }, field: 'material', input: 'text' },
      { type: 'action', label: 'Delete Cube', op: { type: 'delete_object', object: 'Cube' } },
    ]);
    const labels = controlLabels(blocks);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it.each<[string, string, unknown, RegExp]>([
    ['a location of two numbers', 'Cube location', [1, 2], /\/location must NOT have fewer than 3 items/],
    ['an empty material name', 'Cube material', '', /\/material must NOT have fewer than 1 characters/],
  ])('refuses %s with the problem and writes nothing', async (_name, label, value, problem) => {
    const before = await host.resources.get(id);
    const error = await useControl(host, id, label, value as never).catch((e: unknown) => e);
    expect(isCoworkError(error) && error.code).toBe('invalid_op');
    expect(isCoworkError(error) && error.details.problems).toContainEqual(expect.stringMatching(problem));
    const after = await host.resources.get(id);
    expect([after.revision, after.content]).toEqual([before.revision, before.content]);
  });

  it('commits each control as the page does and Blender reports the change', async () => {
    await useControl(host, id, 'Cube location', [1, 2, 0.5]);
    await useControl(host, id, 'Cube rotation', [0, 0, 45]);
    await useControl(host, id, 'Cube scale', [2, 1, 1]);
    await useControl(host, id, 'Cube material', 'Paint');
    await useControl(host, id, 'Cube colour', [0.9, 0.1, 0.1]);
    await useControl(host, id, 'Add cube', { name: 'Crate' });
    await useControl(host, id, 'Crate location', [0, 0, 3]);
    const colour = await useControl(host, id, 'Cube colour', [1.5, 0, 0]).catch((e: unknown) => e);
    expect(isCoworkError(colour) && colour.details.problems).toContainEqual('/baseColor/0 must be <= 1');
    await useControl(host, id, 'Delete Crate');
    const now = await scene();
    expect(now.objects).toEqual([
      expect.objectContaining({ name: 'Cube', location: [1, 2, 0.5], rotation: [0, 0, 45], scale: [2, 1, 1], materials: ['Paint'], mesh: expect.objectContaining({ dimensions: [4, 2, 2] }) }),
    ]);
    expect(now.materials).toEqual([{ name: 'Paint', baseColor: [0.9, 0.1, 0.1, 1], metallic: 0, roughness: 0.5 }]);
  });
});
