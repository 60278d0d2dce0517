// Invariant: through a real Host and a real Blender job, a scene built by ops is what Blender
// reports, and exports as blend, GLB (parsed by three.js) and a non-blank PNG; a change made in
// Blender by a client the host does not know becomes an `external` revision by app:blender-bridge,
// so an agent committing from the older base gets revision_conflict and sees it among changes by
// others; an unknown object is invalid_op with nothing recorded; killing Blender restarts it from
// the last save with the lost revisions listed as uncertain (also when it died while no host ran);
// a new host process re-attaches to the running Blender.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isCoworkError, processAlive, type Json, type RevisionRecord } from '@cowork/host';
import { Host, PluginRegistry } from '@cowork/host/embed';
import { closeHostAndStopBlender, plugin } from '../src';
import { socketPathFor } from '../src/bridge/blender-process';
import { BridgeClient } from '../src/bridge/client';
import { initialScene, type Scene } from '../src/content';
import type { SceneOp } from '../src/ops';
import { openSession } from '../src/session';
import { gltfNodeNames } from './glb';
import { distinctColours } from './png';
import { CAR_OPS } from './scenes';

const KIND = 'blender.scene';

describe('blender.scene in a host', () => {
  let dir: string;
  let host: Host;
  let id: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cowork-blender-host-'));
    host = await Host.open({ workspaceDir: dir, plugins: [plugin], externalPollMs: 0 });
    id = (await host.resources.create({ kind: KIND, operator: 'human:ann' })).id;
  });

  afterAll(async () => {
    // Waits until Blender and its job supervisor have ended: a supervisor still writing its exit
    // record made the removal below fail with ENOTEMPTY on a loaded machine.
    if (host) await closeHostAndStopBlender(host);
    rmSync(dir, { recursive: true, force: true });
  });

  const commit = (op: SceneOp, operator: `agent:${string}` | `human:${string}` = 'agent:builder') =>
    host.resources
      .get(id)
      .then((r) => host.resources.commit(id, { baseRevision: r.revision, op: op as unknown as Json, operator }));
  const scene = async (): Promise<Scene> => (await host.resources.get(id)).content as Scene;
  const tool = (name: string, input: Json) =>
    host.registry.tool(name)!.tool.handler(input as never, {
      operator: 'agent:builder',
      signal: new AbortController().signal,
      host: { workspaceDir: host.workspaceDir, resources: host.resources },
    });

  it('passes the loader checks and starts a scene with one box', async () => {
    expect(new PluginRegistry().check(plugin)).toEqual([]);
    expect(host.pluginProblems).toEqual([]);
    expect(await scene()).toEqual(initialScene());
  });

  it('records what Blender reports for each op, and exports blend, GLB and PNG', async () => {
    for (const op of CAR_OPS) await commit(op);
    await commit({ type: 'set_material', object: 'Body', material: 'Paint', baseColor: [0.8, 0.1, 0.1] });
    await commit({ type: 'add_light', name: 'Sun', light: 'sun', rotation: [40, 10, 30] });
    const last = await commit({ type: 'add_camera', name: 'Cam', location: [6, -6, 4], rotation: [65, 0, 45] });
    expect(last.revision).toBe(6);
    const content = await scene();
    expect(content.objects.map((o) => o.name)).toEqual(['Body', 'Cam', 'Cube', 'Ground', 'Sun', 'Wheel']);
    expect(content.activeCamera).toBe('Cam');
    expect(await host.resources.summarize(id)).toContain('Wheel: mesh cylinder');
    const view = await host.views.view(id);
    expect(view.blocks).toContainEqual({ type: 'image', url: expect.stringContaining('/export/png'), alt: expect.any(String) });
    expect(view.blocks).toContainEqual({ type: 'model', url: expect.stringContaining('/export/glb'), alt: expect.any(String) });
    expect(view.blocks).toContainEqual(expect.objectContaining({ type: 'group', title: 'Wheel (cylinder mesh)', selection: { object: 'Wheel' } }));

    const glb = await host.exports.export(id, 'glb');
    expect(glb.mediaType).toBe('model/gltf-binary');
    expect(await gltfNodeNames(glb.data)).toEqual(expect.arrayContaining(['Body', 'Cam', 'Cube', 'Ground', 'Sun', 'Wheel']));
    const png = await host.exports.export(id, 'png');
    expect(distinctColours(png.data)).toBeGreaterThan(50);
    const blend = await host.exports.export(id, 'blend');
    expect(Buffer.from(blend.data.subarray(0, 7)).toString('latin1')).toBe('BLENDER');

    // An older revision is not what the live Blender shows: a short-lived Blender builds it.
    const first = await gltfNodeNames((await host.exports.export(id, 'glb', { revision: 0 })).data);
    expect(first).toContain('Cube');
    expect(first).not.toContain('Wheel');
  });

  it('reports the floating wheel with its gap', async () => {
    const result = await tool('blender_check_support', { resourceId: id });
    expect(result.isError).toBeUndefined();
    expect(result.content).toMatchObject({ findings: [{ object: 'Wheel', gap_m: 0.2, restingOn: 'Ground' }] });
  });

  it('records a change made in Blender by a Python script outside the host as an external revision, and refuses a commit from the older base', async () => {
    const base = (await host.resources.get(id)).revision;
    // A person's script, run inside Blender through its own connection: plain bpy, no host op.
    const outsider = await BridgeClient.connect(socketPathFor(join(dir, 'resources', id)));
    await outsider.request('run_script', {
      code: ["wheel = bpy.data.objects['Wheel']", 'wheel.location.z = 0.3', "bpy.ops.mesh.primitive_cube_add(size=0.5, location=(3, 0, 0.25))", "bpy.context.active_object.name = 'Toolbox'"].join('\n'),
    });
    outsider.close();

    const error = await host.resources
      .commit(id, { baseRevision: base, op: { type: 'set_transform', object: 'Cube', location: [0, 0, 5] }, operator: 'agent:x' })
      .catch((e: unknown) => e);
    expect(isCoworkError(error) && error.code).toBe('revision_conflict');
    const changes = await host.resources.changes(id, { since: base, excludeOperator: 'agent:x' });
    expect(changes).toEqual([expect.objectContaining({ revision: base + 1, action: 'external', operator: 'app:blender-bridge' })]);
    expect((await scene()).objects.find((o) => o.name === 'Wheel')?.location).toEqual([1, 0.6, 0.3]);
    const diff = await host.resources.diff(id, base, base + 1);
    expect(diff).toContain('~ Wheel: location (1, 0.6, 0.5) -> (1, 0.6, 0.3)');
    expect(diff).toContain('+ added Toolbox');
  });

  it('records a vertex moved inside Blender as an external revision, though the size stays the same', async () => {
    const before = await host.resources.get(id);
    const cubeBefore = (before.content as Scene).objects.find((o) => o.name === 'Cube')!;
    expect(cubeBefore.mesh!.editHash).toBeNull();
    const outsider = await BridgeClient.connect(socketPathFor(join(dir, 'resources', id)));
    // A cube's vertex pulled halfway to the centre: the bounding box (and so the size) is unchanged.
    await outsider.request('run_script', { code: "bpy.data.objects['Cube'].data.vertices[0].co *= 0.5" });
    outsider.close();

    await host.resources.syncExternal(id);
    const after = await host.resources.get(id);
    expect(after.revision).toBe(before.revision + 1);
    const [change] = await host.resources.changes(id, { since: before.revision });
    expect(change).toMatchObject({ action: 'external', operator: 'app:blender-bridge' });
    const cube = (after.content as Scene).objects.find((o) => o.name === 'Cube')!;
    expect(cube.mesh!.dimensions).toEqual(cubeBefore.mesh!.dimensions);
    expect(cube.mesh!.editHash).toMatch(/^[0-9a-f]{16}$/);
    expect(await host.resources.diff(id, before.revision, after.revision)).toContain('~ Cube: mesh geometry edited');
    expect(await host.resources.summarize(id)).toContain('geometry edited in Blender');
    // Nothing more changed: the next look records nothing.
    await host.resources.syncExternal(id);
    expect((await host.resources.get(id)).revision).toBe(after.revision);
  });

  it('refuses an unknown object as invalid_op, naming the objects, and records nothing', async () => {
    const before = await host.resources.get(id);
    const error = await commit({ type: 'set_material', object: 'Whell', material: 'Rubber' }).catch((e: unknown) => e);
    expect(isCoworkError(error) && error.code).toBe('invalid_op');
    expect(String((error as Error).message)).toContain('Whell');
    expect(JSON.stringify((error as { details?: unknown }).details)).toContain('Wheel');
    const after = await host.resources.get(id);
    expect(after.revision).toBe(before.revision);
    expect(after.content).toEqual(before.content);
  });

  it('restarts a killed Blender from the last save and marks the revisions after it uncertain', async () => {
    const saved = await tool('blender_save', { resourceId: id });
    const savedRevision = (await host.resources.get(id)).revision;
    expect(saved.content).toMatchObject({ revision: savedRevision });
    const savedContent = await scene();
    await commit({ type: 'add_object', name: 'Lost1', primitive: { shape: 'cube', size: 0.2 } });
    await commit({ type: 'add_object', name: 'Lost2', primitive: { shape: 'cube', size: 0.2 } });

    const pid = openSession(id)!.pid!;
    process.kill(pid, 'SIGKILL');
    // Wait until the job has seen Blender end, so the next observe cannot reach it any more.
    const job = (await host.jobs.list()).find((j) => j.pid === pid)!;
    while ((await host.jobs.get(job.id)).status === 'running') await new Promise((done) => setTimeout(done, 50));
    await host.resources.syncExternal(id);

    const [restart] = (await host.resources.history(id, { after: savedRevision + 2 })) as RevisionRecord[];
    expect(restart).toMatchObject({ action: 'external', operator: 'app:blender-bridge', op: { uncertainRevisions: [savedRevision + 1, savedRevision + 2] } });
    expect(JSON.stringify(restart!.op)).toContain('restarted from the last save');
    expect(await scene()).toEqual(savedContent);
    expect(openSession(id)!.pid).not.toBe(pid);
    // The restarted Blender takes ops again.
    await commit({ type: 'add_object', name: 'After', primitive: { shape: 'cube', size: 0.2 } });
    expect((await scene()).objects.map((o) => o.name)).toContain('After');
  });

  it('re-attaches a new host process to the Blender that kept running, whose poll records outside changes', async () => {
    const pid = openSession(id)!.pid;
    await host.close();
    host = await Host.open({ workspaceDir: dir, plugins: [plugin], externalPollMs: 100 });
    await commit({ type: 'delete_object', object: 'After' });
    expect(openSession(id)!.pid).toBe(pid);
    expect((await scene()).objects.map((o) => o.name)).not.toContain('After');

    const { revision } = await host.resources.get(id);
    const outsider = await BridgeClient.connect(socketPathFor(join(dir, 'resources', id)));
    await outsider.request('apply', { op: { type: 'rename_object', object: 'Cube', name: 'Crate' } });
    outsider.close();
    for (let i = 0; i < 100 && (await host.resources.get(id)).revision === revision; i++) await new Promise((done) => setTimeout(done, 100));
    const [change] = await host.resources.changes(id, { since: revision });
    expect(change).toMatchObject({ revision: revision + 1, action: 'external', operator: 'app:blender-bridge' });
    expect((await scene()).objects.map((o) => o.name)).toContain('Crate');
  });

  it('starts Blender from the last save when it died while no host was running', async () => {
    const savedRevision = JSON.parse(readFileSync(join(dir, 'resources', id, 'saved.json'), 'utf8')).revision as number;
    const head = (await host.resources.get(id)).revision;
    const pid = openSession(id)!.pid!;
    await host.close();
    process.kill(pid, 'SIGKILL');
    while (processAlive(pid)) await new Promise((done) => setTimeout(done, 50));
    host = await Host.open({ workspaceDir: dir, plugins: [plugin], externalPollMs: 0 });
    await host.resources.syncExternal(id);
    const [restart] = await host.resources.history(id, { after: head });
    expect(restart).toMatchObject({ action: 'external', op: { uncertainRevisions: Array.from({ length: head - savedRevision }, (_, i) => savedRevision + 1 + i) } });
    expect(JSON.stringify(restart!.op)).toContain('was not running');
    expect(await scene()).toEqual(await host.resources.contentAt(id, savedRevision));
  });
});
