import type { ViewBlock, ViewContext } from '@cowork/host';
import type { Scene, SceneObject } from './content';
import { describeMaterial, describeObject } from './describe';

/**
 * The scene as people edit it in the page: the Cycles preview and the 3D model of the revision
 * shown, a button that adds a cube, and one group per object (choosing it selects the object for
 * the agents) with its location, rotation and scale, and a mesh's material and colour, edited in
 * place; last, the materials. Every control commits one of the kind's ops, which Blender performs.
 * Labels start with the object's name, unique in a scene.
 */
export function sceneView(scene: Scene, context: ViewContext): ViewBlock[] {
  const blocks: ViewBlock[] = [
    { type: 'heading', text: `Blender scene (${scene.objects.length} objects)`, level: 1 },
    { type: 'image', url: context.exportUrl('png'), alt: `Cycles preview of revision ${context.revision}` },
    { type: 'model', url: context.exportUrl('glb'), alt: `the scene at revision ${context.revision}` },
    { type: 'action', label: 'Add cube', op: { type: 'add_object', primitive: { shape: 'cube' } }, inputs: [{ field: 'name', label: 'New cube name', input: 'text' }] },
    ...scene.objects.map((object) => objectGroup(scene, object)),
  ];
  if (scene.materials.length > 0) blocks.push({ type: 'heading', text: 'Materials', level: 2 }, { type: 'list', items: scene.materials.map(describeMaterial) });
  return blocks;
}

function objectGroup(scene: Scene, o: SceneObject): ViewBlock {
  const on = { object: o.name };
  const transform = { type: 'set_transform', ...on };
  const blocks: ViewBlock[] = [
    { type: 'paragraph', text: describeObject(o) },
    { type: 'field', label: `${o.name} location`, value: o.location, op: transform, field: 'location', input: 'numbers', unit: 'm' },
    { type: 'field', label: `${o.name} rotation`, value: o.rotation, op: transform, field: 'rotation', input: 'numbers', unit: '°' },
    { type: 'field', label: `${o.name} scale`, value: o.scale, op: transform, field: 'scale', input: 'numbers' },
  ];
  if (o.type === 'mesh') {
    const [name] = o.materials;
    const material = scene.materials.find((m) => m.name === name);
    blocks.push({ type: 'field', label: `${o.name} material`, value: name ?? '', op: { type: 'set_material', ...on }, field: 'material', input: 'text' });
    if (material) {
      blocks.push({ type: 'field', label: `${o.name} colour`, value: material.baseColor, op: { type: 'set_material', ...on, material: material.name }, field: 'baseColor', input: 'numbers', unit: 'RGBA, 0 to 1' });
    }
  }
  blocks.push({ type: 'action', label: `Delete ${o.name}`, op: { type: 'delete_object', ...on } });
  return { type: 'group', title: `${o.name} (${kindLabel(o)})`, selection: on, blocks };
}

function kindLabel(o: SceneObject): string {
  if (o.mesh?.primitive) return `${o.mesh.primitive.shape} mesh`;
  return o.light ? `${o.light.type} light` : o.type;
}
