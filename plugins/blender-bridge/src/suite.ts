import { join } from 'node:path';
import { defineSuite, runCalls, type CheckVerdict, type Json, type RunCall, type SuiteCheck, type SuiteCheckContext } from '@cowork/host';
import type { Scene, Vec3 } from './content';
import { describeMaterial, fieldChanges, find, materialProblems, names, objectProblems, paramsMatch, type Field, type ObjectSpec, type Range, type RangeVec } from './suite-scene';
import { decodePng, glbJson, glbMeshBounds, glbNodeNames, pointing, projectToFrame, round4, type Box } from './suite-media';

/**
 * The blender suite: what people ask an agent to do in a Blender scene (set a floating lamp down,
 * put wheels on a car, light and frame a product shot, restyle materials, build a row with an array
 * modifier, tidy names and parents, delegate a stack of crates, prepare a GLB for the web viewer).
 * Checks judge the scene as Blender reports it (the resource's content is the live scene after the
 * last op), with Blender itself where a person would use it: its support check
 * (`blender_check_support`) for anything floating, its glTF export for world bounds and what a
 * viewer would load, and a Cycles preview (png) for what the camera sees. Details name objects and
 * numbers, never ids, so replays compare bit for bit.
 */
export const blenderSuite = defineSuite({
  name: 'blender',
  description: 'Blender scenes: placing, supporting, lighting, framing, materials, modifiers, hierarchy and exports, judged in Blender.',
  dir: join(__dirname, '..', 'suite'),
  instructions:
    'Scenes are blender.scene resources: read one with read_resource, change it with commit_resource and its ops ' +
    '(lengths in metres, rotations in degrees, z up; a primitive is centred on its location). blender_check_support ' +
    'finds meshes resting on nothing; blender_save keeps the live scene for a restart.',
  checks: {
    finished: (context) => verdict(context.run.outcome === 'done', `the run ended: ${context.run.outcome}`),

    /** Blender's support check (the live scene) finds no mesh resting on nothing. */
    no_floating: async (context, args) => {
      const { resource } = named(context, args);
      const result = await context.runTool('blender_check_support', { resourceId: resource.id });
      if (result.isError) return verdict(false, `blender_check_support failed: ${JSON.stringify(result.content)}`);
      const findings = ((result.content as { findings?: { object: string; gap_m: number; restingOn: string | null }[] }).findings ?? []);
      return verdict(
        findings.length === 0,
        findings.length === 0
          ? 'Blender finds every mesh resting on something'
          : `Blender finds floating: ${findings.map((f) => `${f.object} ${f.gap_m} m above ${f.restingOn ?? 'the ground'}`).join('; ')}`,
      );
    },

    /** Objects as the scene reports them: type, primitive, transform, size, parent, materials, light, lens. */
    objects: (context, args) => {
      const { scene, args: a } = named(context, args);
      const { objects, tolerance = 0.001 } = a as { objects: Record<string, ObjectSpec>; tolerance?: number };
      const problems = Object.entries(objects).flatMap(([name, spec]) => objectProblems(scene, name, spec, tolerance));
      return verdict(problems.length === 0, problems.length === 0 ? `${Object.keys(objects).join(', ')} as expected` : problems.join('; '));
    },

    /** These objects are gone; optionally, the scene has exactly `count` objects. */
    absent: (context, args) => {
      const { scene, args: a } = named(context, args);
      const { objects, count } = a as { objects: string[]; count?: number };
      const present = objects.filter((name) => find(scene, name));
      const problems = present.map((name) => `${name} is still in the scene`);
      if (count !== undefined && scene.objects.length !== count) problems.push(`the scene has ${scene.objects.length} objects (${names(scene)}), not ${count}`);
      return verdict(problems.length === 0, problems.length === 0 ? `${objects.join(', ')} removed` : problems.join('; '));
    },

    /** Objects the request did not touch are as the task started them (and the materials they use). */
    unchanged: (context, args) => {
      const { scene, start, args: a } = named(context, args);
      const { objects, fields = ['transform', 'mesh', 'parent', 'materials', 'modifiers'] } = a as { objects: string[]; fields?: Field[] };
      const problems = objects.flatMap((name) => {
        const before = find(start, name);
        const after = find(scene, name);
        if (!before) return [`${name} is not in the task's starting scene`];
        if (!after) return [`${name} is gone`];
        return fields.flatMap((field) => fieldChanges(start, scene, before, after, field));
      });
      return verdict(problems.length === 0, problems.length === 0 ? `${objects.join(', ')} unchanged (${fields.join(', ')})` : problems.join('; '));
    },

    /** Renamed objects: the new name holds the old object (its geometry, transform and materials), the old name is gone. */
    renamed: (context, args) => {
      const { scene, start, args: a } = named(context, args);
      const { names: renames } = a as { names: Record<string, string> };
      const problems = Object.entries(renames).flatMap(([old, now]) => {
        const before = find(start, old);
        const after = find(scene, now);
        if (!before) return [`${old} is not in the task's starting scene`];
        if (!after) return [`no object named ${now}`];
        const left = find(scene, old) ? [`${old} is still there`] : [];
        return [...left, ...(['transform', 'mesh', 'materials', 'modifiers'] as Field[]).flatMap((field) => fieldChanges(start, scene, before, after, field).map((p) => `${now} (was ${old}): ${p}`))];
      });
      return verdict(problems.length === 0, problems.length === 0 ? `renamed ${Object.entries(renames).map(([o, n]) => `${o} to ${n}`).join(', ')}` : problems.join('; '));
    },

    /** The objects use the named material, and it has these properties. */
    material: (context, args) => {
      const { scene, args: a } = named(context, args);
      const spec = a as { objects: string[]; material: string; baseColor?: RangeVec; metallic?: Range; roughness?: Range; greyWithin?: number; tolerance?: number };
      const tolerance = spec.tolerance ?? 0.05;
      const problems: string[] = [];
      for (const name of spec.objects) {
        const object = find(scene, name);
        if (!object) problems.push(`no object named ${name}`);
        else if (!object.materials.includes(spec.material)) problems.push(`${name} uses ${object.materials.join(', ') || 'no material'}, not ${spec.material}`);
      }
      const material = scene.materials.find((m) => m.name === spec.material);
      if (!material) problems.push(`no material named ${spec.material} in the scene`);
      else problems.push(...materialProblems(material, spec, tolerance));
      return verdict(problems.length === 0, problems.length === 0 ? `${spec.objects.join(', ')} ${spec.objects.length === 1 ? 'uses' : 'use'} ${describeMaterial(material!)}` : problems.join('; '));
    },

    /** An object's modifiers: each given one is there (by type, with these params); `exact`: and no others. */
    modifiers: (context, args) => {
      const { scene, args: a } = named(context, args);
      const { object: name, modifiers, exact = false } = a as { object: string; modifiers: { name?: string; type: string; params?: Record<string, Json> }[]; exact?: boolean };
      const object = find(scene, name);
      if (!object) return verdict(false, `no object named ${name}`);
      const have = object.modifiers.map((m) => `${m.name} (${m.type} ${JSON.stringify(m.params)})`).join(', ') || 'none';
      const problems = modifiers
        .filter((want) => !object.modifiers.some((m) => m.type === want.type && (want.name === undefined || m.name === want.name) && paramsMatch(m.params as Record<string, Json>, want.params ?? {})))
        .map((want) => `${name} has no ${want.type} modifier${want.name ? ` named ${want.name}` : ''} with ${JSON.stringify(want.params ?? {})}`);
      if (exact && object.modifiers.length !== modifiers.length) problems.push(`${name} has ${object.modifiers.length} modifiers, not ${modifiers.length}`);
      return verdict(problems.length === 0, problems.length === 0 ? `${name} has ${have}` : `${problems.join('; ')} (it has ${have})`);
    },

    active_camera: (context, args) => {
      const { scene, args: a } = named(context, args);
      const { camera } = a as { camera: string };
      return verdict(scene.activeCamera === camera, `the active camera is ${scene.activeCamera ?? 'none'} (${camera} expected)`);
    },

    /** Lights (or cameras) point at a target object's centre, within `within` degrees (from the scene's transforms). */
    aimed_at: (context, args) => {
      const { scene, args: a } = named(context, args);
      const { objects, target, within = 20 } = a as { objects: string[]; target: string; within?: number };
      const goal = find(scene, target);
      if (!goal || goal.parent !== null) return verdict(false, goal ? `${target} has a parent; this check reads unparented targets` : `no object named ${target}`);
      const problems: string[] = [];
      for (const name of objects) {
        const o = find(scene, name);
        if (!o || o.parent !== null) {
          problems.push(o ? `${name} has a parent; this check reads unparented objects` : `no object named ${name}`);
          continue;
        }
        const to = goal.location.map((v, i) => v - o.location[i]!);
        const length = Math.hypot(...to);
        const forward = pointing(o.rotation);
        const cos = length === 0 ? 1 : forward.reduce((sum, v, i) => sum + v * to[i]!, 0) / length;
        const off = Math.round((Math.acos(Math.min(1, Math.max(-1, cos))) * 180) / Math.PI);
        if (off > within) problems.push(`${name} points ${off} degrees away from ${target}`);
      }
      return verdict(problems.length === 0, problems.length === 0 ? `${objects.join(', ')} point at ${target} (within ${within} degrees)` : problems.join('; '));
    },

    /** Each object lies whole in the active camera's frame (world bounds from Blender's GLB export). */
    camera_frames: async (context, args) => {
      const { scene, resource, args: a } = named(context, args);
      const { objects, minWidth = 0 } = a as { objects: string[]; minWidth?: number };
      const camera = scene.activeCamera === null ? undefined : find(scene, scene.activeCamera);
      const lens = camera?.camera?.lens;
      if (!camera || lens === undefined) return verdict(false, 'the scene has no active camera');
      if (camera.parent !== null) return verdict(false, `the active camera ${camera.name} has a parent; this check reads unparented cameras`);
      const bounds = glbMeshBounds(glbJson(await context.exportResource(resource.id, 'glb')));
      const problems: string[] = [];
      for (const name of objects) {
        const box = bounds.get(name);
        if (!box) {
          problems.push(`${name} is not a mesh in the GLB`);
          continue;
        }
        const points = corners(box).map((p) => projectToFrame({ location: camera.location, rotation: camera.rotation, lens }, p));
        if (points.some((p) => !p.inFront)) problems.push(`${name} is (partly) behind ${camera.name}`);
        else if (points.some((p) => Math.abs(p.x) > 1 || Math.abs(p.y) > 1)) problems.push(`${name} reaches outside ${camera.name}'s frame`);
        else {
          const width = Math.max(...points.map((p) => p.x)) - Math.min(...points.map((p) => p.x));
          const height = Math.max(...points.map((p) => p.y)) - Math.min(...points.map((p) => p.y));
          if (Math.max(width, height) / 2 < minWidth) problems.push(`${name} spans under ${Math.round(minWidth * 100)}% of ${camera.name}'s frame`);
        }
      }
      return verdict(problems.length === 0, problems.length === 0 ? `${camera.name} frames ${objects.join(', ')} whole` : problems.join('; '));
    },

    /** The png preview (Cycles, from the active camera) shows a colour over a share of the frame, around its middle. */
    render_shows: async (context, args) => {
      const { resource, args: a } = named(context, args);
      const { colour, minShare } = a as { colour: 'red' | 'green' | 'blue'; minShare: number };
      const { width, height, channels, pixels } = decodePng(await context.exportResource(resource.id, 'png'));
      const channel = { red: 0, green: 1, blue: 2 }[colour];
      let count = 0;
      let sumX = 0;
      let sumY = 0;
      for (let i = 0, p = 0; i < pixels.length; i += channels, p++) {
        const c = [pixels[i]!, pixels[i + 1]!, pixels[i + 2]!];
        const main = c[channel]!;
        // Clearly that colour, however exposed (a lit red reads pink through Filmic): bright, and well above the other channels.
        if (main >= 80 && c.every((v, k) => k === channel || main - v >= 0.2 * main)) {
          count++;
          sumX += p % width;
          sumY += Math.floor(p / width);
        }
      }
      const share = count / (width * height);
      const centred = count > 0 && Math.abs(sumX / count / width - 0.5) < 0.25 && Math.abs(sumY / count / height - 0.5) < 0.25;
      const percent = `${Math.floor(share * 100)}%`;
      if (share < minShare) return verdict(false, `the preview is ${colour} over ${share === 0 ? 'none' : `under ${Math.floor(minShare * 100)}%`} of the frame`);
      return verdict(centred, centred ? `the preview is ${colour} over about ${percent} of the frame, around its middle` : `the ${colour} in the preview (about ${percent}) is off to a side`);
    },

    /** World bounding boxes from Blender's GLB export, per axis within `tolerance`. */
    world_bounds: async (context, args) => {
      const { resource, args: a } = named(context, args);
      const { objects, tolerance = 0.002 } = a as { objects: Record<string, { min: Vec3; max: Vec3 }>; tolerance?: number };
      const bounds = glbMeshBounds(glbJson(await context.exportResource(resource.id, 'glb')));
      const problems: string[] = [];
      for (const [name, want] of Object.entries(objects)) {
        const box = bounds.get(name);
        if (!box) problems.push(`${name} is not a mesh in the GLB`);
        else if (!near(box.min, want.min, tolerance) || !near(box.max, want.max, tolerance)) problems.push(`${name} spans ${showBox(box)}, not ${showBox(want)}`);
      }
      return verdict(problems.length === 0, problems.length === 0 ? `${Object.keys(objects).join(', ')} where expected` : problems.join('; '));
    },

    /** Each upper object sits on its lower one (GLB world bounds): bottom on top within 1 mm, centred in x and y. */
    rests_on: async (context, args) => {
      const { resource, args: a } = named(context, args);
      const { pairs, centred = 0.01 } = a as { pairs: [string, string][]; centred?: number };
      const bounds = glbMeshBounds(glbJson(await context.exportResource(resource.id, 'glb')));
      const problems: string[] = [];
      for (const [upper, lower] of pairs) {
        const top = bounds.get(upper);
        const bottom = bounds.get(lower);
        if (!top || !bottom) {
          problems.push(`${!top ? upper : lower} is not a mesh in the GLB`);
          continue;
        }
        const gap = round4(top.min[2] - bottom.max[2]);
        if (Math.abs(gap) > 0.001) problems.push(`${upper}'s bottom is ${gap > 0 ? `${gap} m above` : `${-gap} m inside`} ${lower}'s top`);
        const off = [0, 1].map((axis) => round4((top.min[axis]! + top.max[axis]!) / 2 - (bottom.min[axis]! + bottom.max[axis]!) / 2));
        if (off.some((d) => Math.abs(d) > centred)) problems.push(`${upper} is off ${lower}'s centre by (${off.join(', ')}) m`);
      }
      return verdict(problems.length === 0, problems.length === 0 ? pairs.map(([u, l]) => `${u} sits centred on ${l}`).join('; ') : problems.join('; '));
    },

    /** What a viewer loads from Blender's GLB export: these nodes and materials, and none of `absentNodes`. */
    glb_contents: async (context, args) => {
      const { resource, args: a } = named(context, args);
      const { nodes = [], absentNodes = [], materials = [] } = a as { nodes?: string[]; absentNodes?: string[]; materials?: string[] };
      const gltf = glbJson(await context.exportResource(resource.id, 'glb'));
      const have = new Set(glbNodeNames(gltf));
      const haveMaterials = new Set((gltf.materials ?? []).map((m) => m.name));
      const problems = [
        ...nodes.filter((n) => !have.has(n)).map((n) => `no node ${n}`),
        ...absentNodes.filter((n) => have.has(n)).map((n) => `node ${n} is in it`),
        ...materials.filter((m) => !haveMaterials.has(m)).map((m) => `no material ${m}`),
      ];
      return verdict(problems.length === 0, problems.length === 0 ? `the GLB has ${[...nodes, ...materials].join(', ')}${absentNodes.length ? ` and no ${absentNodes.join(', ')}` : ''}` : `the GLB: ${problems.join('; ')}`);
    },

    /** blender_save succeeded after the last change: the save holds the scene's final revision. */
    saved: (context, args) => {
      const { resource } = named(context, args);
      const saves = runCalls(context.run).filter((c) => c.name === 'blender_save' && !c.failed && field(c.input, 'resourceId') === resource.id);
      const last = saves.at(-1);
      const revision = last && field(last.result, 'revision');
      if (revision === undefined) return verdict(false, 'the scene was never saved with blender_save');
      return verdict(revision === resource.revision, `the last save holds revision ${String(revision)}; the scene is at revision ${resource.revision}`);
    },

    /** Main accepted a candidate that a subagent proposed (the helper's draft, reviewed). */
    helper_accepted: (context) => {
      const calls = runCalls(context.run);
      const proposed = calls.filter((c) => c.agentId !== 'main' && c.name === 'propose_draft' && !c.failed).map((c) => field(c.result, 'candidateId'));
      const accepted = mainCalls(calls, 'accept_candidate').filter((c) => !c.failed).map((c) => field(c.input, 'candidateId'));
      const both = proposed.filter((id) => id !== undefined && accepted.includes(id));
      return verdict(both.length > 0, both.length > 0 ? "Main accepted the helper's proposal" : `proposed ${proposed.length}, accepted ${accepted.length}, none of them the same`);
    },
  } satisfies Record<string, SuiteCheck>,
});

function verdict(pass: boolean, detail: string): CheckVerdict {
  return { pass, detail };
}

/** The check's resource (`args.resource`, or the task's only one) as the run left it, and as the task started it. */
function named(context: SuiteCheckContext, args: Json | undefined): { resource: SuiteCheckContext['resources'][string]; scene: Scene; start: Scene; args: Record<string, unknown> } {
  const a = (args ?? {}) as Record<string, unknown>;
  const name = typeof a.resource === 'string' ? a.resource : context.task.resources.length === 1 ? context.task.resources[0]!.name : undefined;
  const resource = name === undefined ? undefined : context.resources[name];
  if (!resource || resource.kind !== 'blender.scene') throw new Error(`the check needs a blender.scene resource (args.resource); got ${JSON.stringify(name)}`);
  const start = context.task.resources.find((r) => r.name === name)?.content as Scene | undefined;
  return { resource, scene: resource.content as Scene, start: start ?? { objects: [], materials: [], activeCamera: null }, args: a };
}

function corners(box: Box): Vec3[] {
  return Array.from({ length: 8 }, (_, i) => [0, 1, 2].map((axis) => ((i >> axis) & 1 ? box.max[axis]! : box.min[axis]!)) as Vec3);
}

function near(a: readonly number[], b: readonly number[], tolerance: number): boolean {
  return a.every((v, i) => Math.abs(v - b[i]!) <= tolerance);
}

function showBox(box: { min: readonly number[]; max: readonly number[] }): string {
  return `(${box.min.join(', ')})..(${box.max.join(', ')})`;
}

function mainCalls(calls: readonly RunCall[], name: string): RunCall[] {
  return calls.filter((c) => c.agentId === 'main' && c.name === name);
}

function field(value: Json | undefined, key: string): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, Json>)[key] : undefined;
}
