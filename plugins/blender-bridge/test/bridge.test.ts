// Invariant: against a real Blender, the bridge performs every op kind, and the host's pure model of
// each op lands on exactly what Blender reports; a bad object name changes nothing; a save reopens
// to the same scene; the GLB export parses in three.js with the scene's objects; the Cycles preview
// is a picture, not a blank image; and check_support finds a floating wheel and its gap.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Host } from '@cowork/host/embed';
import { BlenderProcess, childLauncher, jobLauncher, socketPathFor } from '../src/bridge/blender-process';
import { BridgeCommandError, BridgeGoneError } from '../src/bridge/client';
import { initialScene, type Scene } from '../src/content';
import { applySceneOp, completeOp, type SceneOp } from '../src/ops';
import { gltfNodeNames } from './glb';
import { distinctColours } from './png';
import { CAR_OPS } from './scenes';

describe('the Blender bridge', () => {
  let dir: string;
  let blender: BlenderProcess;
  let scene: Scene;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cowork-blender-'));
    blender = await BlenderProcess.start(childLauncher, { socketPath: socketPathFor(dir), cwd: dir, name: 'test' });
    scene = (await blender.load(initialScene())).scene;
  });

  afterAll(async () => {
    await blender?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts from one 2 m box, like a new Blender file', () => {
    expect(scene).toEqual(initialScene());
  });

  it("lands every op where the host's model of it says", async () => {
    const ops: SceneOp[] = [
      ...CAR_OPS,
      { type: 'set_material', object: 'Body', material: 'Paint', baseColor: [0.8, 0.1, 0.1], metallic: 0.6, roughness: 0.25 },
      { type: 'set_material', object: 'Wheel', material: 'Rubber', baseColor: [0.02, 0.02, 0.02, 1] },
      { type: 'add_modifier', object: 'Body', modifier: { type: 'bevel', params: { width: 0.05, segments: 3 } } },
      { type: 'add_modifier', object: 'Wheel', name: 'Smooth', modifier: { type: 'mirror' } },
      { type: 'remove_modifier', object: 'Wheel', name: 'Smooth' },
      { type: 'add_light', name: 'Key', light: 'area', location: [3, -3, 4], rotation: [45, 0, 45] },
      { type: 'add_camera', name: 'Front', location: [6, -6, 3], rotation: [75, 0, 45] },
      { type: 'add_camera', name: 'Top', lens: 35, location: [0, 0, 10] },
      { type: 'set_active_camera', object: 'Top' },
      { type: 'add_object', name: 'Ball', primitive: { shape: 'uv_sphere', radius: 0.25 }, location: [0, 0, 2] },
      { type: 'parent', object: 'Ball', parent: 'Body' },
      { type: 'rename_object', object: 'Body', name: 'Chassis' },
      { type: 'set_transform', object: 'Chassis', scale: [2, 1, 0.5], rotation: [0, 0, 30] },
      { type: 'add_object', name: 'Ring', primitive: { shape: 'torus', majorRadius: 0.5, minorRadius: 0.1 }, location: [0, 3, 0.1] },
      { type: 'add_object', name: 'Tip', primitive: { shape: 'cone', radius1: 0.3, depth: 0.6 }, location: [2, 3, 0.3] },
      { type: 'delete_object', object: 'Top' },
      { type: 'delete_object', object: 'Cube' },
    ];
    for (const op of ops) {
      const modelled = applySceneOp(scene, op);
      scene = (await blender.apply(completeOp(op))).scene;
      expect({ op, scene }).toEqual({ op, scene: modelled });
    }
    expect(scene.objects.map((o) => o.name)).toEqual(['Ball', 'Chassis', 'Front', 'Ground', 'Key', 'Ring', 'Tip', 'Wheel']);
    expect(scene.activeCamera).toBeNull();
    expect(scene.objects.find((o) => o.name === 'Ball')?.parent).toBe('Chassis');
  });

  it('refuses an unknown object by name, lists the ones that exist, and changes nothing', async () => {
    const before = await blender.snapshot();
    const error = await blender.apply({ type: 'set_transform', object: 'Whell', location: [0, 0, 1] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BridgeCommandError);
    expect((error as BridgeCommandError).code).toBe('unknown_object');
    expect((error as BridgeCommandError).message).toContain('"Whell"');
    expect((error as BridgeCommandError).details.existing).toEqual(scene.objects.map((o) => o.name));
    expect(await blender.snapshot()).toEqual(before);
  });

  it('reopens a save as the same scene', async () => {
    const file = join(dir, 'scene.blend');
    const before = await blender.snapshot();
    await blender.save(file);
    const again = join(dir, 'again');
    mkdirSync(again);
    const reopened = await BlenderProcess.start(childLauncher, { socketPath: socketPathFor(again), cwd: dir, name: 'reopen', blendFile: file });
    try {
      expect(await reopened.snapshot()).toEqual(before);
    } finally {
      await reopened.stop();
    }
  });

  it('fails to start with the reason when the bridge cannot listen, instead of waiting', async () => {
    const tooLong = join(dir, `${'x'.repeat(120)}.sock`);
    const error = await BlenderProcess.start(childLauncher, { socketPath: tooLong, cwd: dir, name: 'bad socket' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BridgeGoneError);
    expect(String((error as Error).message)).toMatch(/exited \(code 3.*could not listen on .*path too long/s);

    // Run as a host job (as a session runs it), the error quotes the job's log.
    const workspace = join(dir, 'workspace');
    const host = await Host.open({ workspaceDir: workspace, plugins: [] });
    try {
      const asJob = await BlenderProcess.start(jobLauncher(host.jobs), { socketPath: tooLong, cwd: workspace, name: 'bad socket' }).catch((e: unknown) => e);
      expect(asJob).toBeInstanceOf(BridgeGoneError);
      expect(String((asJob as Error).message)).toMatch(/exit code 3.*it last said: .*could not listen on .*path too long.*jobs\//s);
    } finally {
      await host.close();
    }
  });

  it('exports a GLB that three.js parses, with every object in it', async () => {
    const file = join(dir, 'scene.glb');
    await blender.exportGlb(file);
    const names = await gltfNodeNames(readFileSync(file));
    for (const object of scene.objects) expect(names).toContain(object.name);
  });

  it('renders a preview that is a picture, not a blank image', async () => {
    const file = join(dir, 'scene.png');
    const before = await blender.snapshot();
    await blender.renderPng(file);
    expect(statSync(file).size).toBeGreaterThan(5000);
    expect(distinctColours(readFileSync(file))).toBeGreaterThan(50);
    // The preview's stand-in camera is gone again: rendering is not a change to the scene.
    expect(await blender.snapshot()).toEqual(before);
  });

  it('finds the floating wheel and the lamp above the roof, with their gaps, and nothing that rests', async () => {
    await blender.load(initialScene());
    for (const op of [
      ...CAR_OPS,
      { type: 'add_object', name: 'Roof', primitive: { shape: 'cube', size: 0.5 }, location: [0, 0, 1.25] },
      { type: 'add_object', name: 'Lamp', primitive: { shape: 'uv_sphere', radius: 0.1 }, location: [0, 0, 1.8] },
      { type: 'delete_object', object: 'Cube' },
    ] satisfies SceneOp[]) {
      await blender.apply(completeOp(op));
    }
    expect(await blender.checkSupport()).toEqual([
      { object: 'Lamp', gap_m: 0.2, restingOn: 'Roof' },
      { object: 'Wheel', gap_m: 0.2, restingOn: 'Ground' },
    ]);
  });

  it('rebuilds a mesh made outside the host (no primitive recorded) as a box of its recorded size', async () => {
    const [cube] = initialScene().objects;
    const outside: Scene = { ...initialScene(), objects: [{ ...cube!, name: 'Rock', scale: [2, 1, 1], mesh: { primitive: null, dimensions: [3, 1.5, 0.5], editHash: 'its-own-shape' } }] };
    // Its own shape is not recorded, so the stand-in has another geometry, and says so.
    const loaded = (await blender.load(outside)).scene;
    expect(loaded).toEqual({ ...outside, objects: [{ ...outside.objects[0]!, mesh: { primitive: null, dimensions: [3, 1.5, 0.5], editHash: expect.stringMatching(/^[0-9a-f]{16}$/) } }] });
    expect(loaded.objects[0]!.mesh!.editHash).not.toBe('its-own-shape');
  });
});
