// Invariant: the host's model of `blender.scene` ops refuses what Blender would refuse (unknown
// objects, taken names, cycles, non-meshes) with a message naming what exists, never mutates its
// input, keeps names consistent across renames and deletes, and summaries and diffs speak per object.
import { isCoworkError } from '@cowork/host';
import { initialScene, type Scene } from '../src/content';
import { diffScenes, summarizeScene } from '../src/describe';
import { applySceneOp, validateSceneOp, type SceneOp } from '../src/ops';
import { CAR_OPS } from './scenes';

function build(ops: SceneOp[], from: Scene = initialScene()): Scene {
  return ops.reduce(applySceneOp, from);
}

function rejection(scene: Scene, op: SceneOp): { message: string; details: unknown } {
  try {
    applySceneOp(scene, op);
  } catch (error) {
    if (isCoworkError(error) && error.code === 'invalid_op') return { message: error.message, details: error.details };
    throw error;
  }
  throw new Error(`expected ${op.type} to be refused`);
}

describe('blender.scene ops (the host model)', () => {
  const car = build(CAR_OPS);

  it('refuses an unknown object, naming the objects that exist', () => {
    const { message, details } = rejection(car, { type: 'set_transform', object: 'Whell', location: [0, 0, 0] });
    expect(message).toContain('"Whell"');
    expect(message).toContain('Body, Cube, Ground, Wheel');
    expect(details).toMatchObject({ object: 'Whell', existing: ['Body', 'Cube', 'Ground', 'Wheel'] });
  });

  it('refuses a taken name, a parenting cycle, and materials or modifiers on a camera', () => {
    const scene = build([{ type: 'add_camera', name: 'Cam' }, { type: 'parent', object: 'Wheel', parent: 'Body' }], car);
    expect(rejection(scene, { type: 'add_object', name: 'Body', primitive: { shape: 'cube' } }).message).toContain('already exists');
    expect(rejection(scene, { type: 'rename_object', object: 'Cube', name: 'Wheel' }).message).toContain('already exists');
    expect(rejection(scene, { type: 'parent', object: 'Body', parent: 'Wheel' }).message).toContain('cycle');
    expect(rejection(scene, { type: 'set_material', object: 'Cam', material: 'Red' }).message).toContain('only meshes');
    expect(rejection(scene, { type: 'add_modifier', object: 'Cam', modifier: { type: 'bevel' } }).message).toContain('only meshes');
    expect(rejection(scene, { type: 'set_active_camera', object: 'Body' }).message).toContain('not a camera');
    expect(rejection(scene, { type: 'remove_modifier', object: 'Body', name: 'bevel' }).message).toContain('has no modifier');
  });

  it('does not mutate the scene it is given', () => {
    const before = JSON.stringify(car);
    applySceneOp(car, { type: 'set_transform', object: 'Body', location: [1, 2, 3], scale: [2, 2, 2] });
    applySceneOp(car, { type: 'delete_object', object: 'Body' });
    expect(JSON.stringify(car)).toBe(before);
  });

  it('carries a rename to children and the active camera, and a delete frees children and drops unused materials', () => {
    let scene = build(
      [
        { type: 'add_camera', name: 'Cam' },
        { type: 'parent', object: 'Cam', parent: 'Body' },
        { type: 'set_material', object: 'Body', material: 'Paint', baseColor: [1, 0, 0] },
        { type: 'rename_object', object: 'Cam', name: 'Front' },
        { type: 'rename_object', object: 'Body', name: 'Chassis' },
      ],
      car,
    );
    expect(scene.activeCamera).toBe('Front');
    expect(scene.objects.find((o) => o.name === 'Front')?.parent).toBe('Chassis');
    expect(scene.materials).toEqual([{ name: 'Paint', baseColor: [1, 0, 0, 1], metallic: 0, roughness: 0.5 }]);
    scene = applySceneOp(scene, { type: 'delete_object', object: 'Chassis' });
    expect(scene.objects.find((o) => o.name === 'Front')?.parent).toBeNull();
    expect(scene.materials).toEqual([]);
  });

  it('scales a mesh size with its own scale', () => {
    const scene = applySceneOp(car, { type: 'set_transform', object: 'Wheel', scale: [2, 2, 3] });
    expect(scene.objects.find((o) => o.name === 'Wheel')?.mesh?.dimensions).toEqual([1.2, 1.2, 0.3]);
  });

  it('refuses names Blender would cut short (over 63 bytes)', () => {
    expect(validateSceneOp({ type: 'add_object', name: 'é'.repeat(40), primitive: { shape: 'cube' } })).toEqual([
      expect.stringContaining('at most 63 bytes'),
    ]);
    expect(validateSceneOp({ type: 'add_object', name: 'Wheel', primitive: { shape: 'cube' } })).toEqual([]);
  });

  it('summarizes per object and diffs by name', () => {
    expect(summarizeScene(car)).toContain('Blender scene: 4 objects (4 meshes); active camera: none.');
    expect(summarizeScene(car)).toContain('- Wheel: mesh cylinder radius 0.3 depth 0.1 vertices 32 at (1, 0.6, 0.5), rotated (90, 0, 0)°');
    const moved = build([{ type: 'set_transform', object: 'Wheel', location: [1, 0.6, 0.3] }, { type: 'delete_object', object: 'Cube' }], car);
    expect(diffScenes(car, moved)).toBe('~ Wheel: location (1, 0.6, 0.5) -> (1, 0.6, 0.3)\n- removed Cube (mesh)');
    expect(diffScenes(car, car)).toBe('no change');
  });
});
