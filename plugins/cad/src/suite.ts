import { join } from 'node:path';
import { defineSuite, isCoworkError, jsonEqual, runCalls, type CheckVerdict, type Json, type ResourceRecord, type SuiteCheck, type SuiteCheckContext } from '@cowork/host';
import type { Assembly } from './assembly/content';
import { acrossAxis, holesOf, holeText, round, type Axis, type Hole } from './bench/holes';
import { readStepWithFreecad, type Box, type Reading } from './bench/freecad';
import { sharedKernel } from './geometry/kernel';
import type { Part } from './part/content';
import { usedParameters } from './part/structure';

/**
 * The cad suite (`cowork bench run cad`): what people ask of an agent with parts and assemblies
 * (plates drilled to a drawing, parts resized through their parameters, shafts, flanges, rounded
 * housings, imported STEP solids machined, parts seated in assemblies by reference). Its checks
 * judge what the run left as a person would: the STEP export read by FreeCAD (volume, size, holes
 * by position and depth, faces by surface type, where each part of an assembly sits), `cad_check`
 * for validity and interference, the content for parameters and features, and the run record for
 * the agent checking its own work.
 *
 * A rubric item names its resource by the task's name for it, or `{"created": KIND}` for the one
 * resource of that kind the run created.
 */
export const cadSuite = defineSuite({
  name: 'cad',
  description: 'CAD parts and assemblies: drilled plates, parametric resizes, revolved shafts, flanges, fillets, imported STEP solids, parts seated by reference; judged by FreeCAD reading the STEP export and by cad_check.',
  dir: join(__dirname, '..', 'suite'),
  instructions: [
    'You work on CAD parts (cad.part) and assemblies (cad.assembly); lengths are millimetres, angles degrees.',
    'Edit a part with cad_edit (it builds the part before committing and answers its measures); edit an assembly with commit_resource and its ops, or create one with create_resource.',
    "Check your result with cad_check before you finish: people judge the part by its STEP export, opened in another CAD program.",
  ].join(' '),
  checks: {
    step_volume: async (context, args) => {
      const { resource, volume, tolerance = 0.002 } = args as { resource: Spec; volume: number; tolerance?: number };
      const read = await readingOf(context, resource);
      if ('fail' in read) return fail(read.fail);
      const error = Math.abs(read.reading.volume - volume) / volume;
      return verdict(error <= tolerance, `FreeCAD reads ${read.label}'s volume as ${round(read.reading.volume)} mm³ (expected ${round(volume)} within ${tolerance * 100}%)`);
    },
    step_size: async (context, args) => {
      const { resource, size, tolerance = 0.01 } = args as { resource: Spec; size: number[]; tolerance?: number };
      const read = await readingOf(context, resource);
      if ('fail' in read) return fail(read.fail);
      const actual = sizeOf(read.reading.bbox);
      return verdict(
        actual.every((v, i) => Math.abs(v - size[i]!) <= tolerance),
        `FreeCAD reads ${read.label}'s bounding box as ${actual.join(' × ')} mm (expected ${size.join(' × ')})`,
      );
    },
    step_holes: async (context, args) => {
      const spec = args as HoleSpec;
      const read = await readingOf(context, spec.resource);
      if ('fail' in read) return fail(read.fail);
      const all = holesOf(read.reading);
      const holes = all.filter((h) => Math.abs(h.diameter - spec.diameter) <= 0.01 && (spec.axis === undefined || h.axis === spec.axis));
      const problems = holeProblems(holes, spec);
      const found = all.length === 0 ? 'no holes' : all.map(holeText).join('; ');
      return verdict(problems.length === 0, `${read.label}: ${problems.length === 0 ? 'as specified' : problems.join('; ')} (FreeCAD finds ${found})`);
    },
    step_faces: async (context, args) => {
      const { resource, expect } = args as { resource: Spec; expect: FaceSpec[] };
      const read = await readingOf(context, resource);
      if ('fail' in read) return fail(read.fail);
      const lines = expect.map((e) => {
        const count = faceCount(read.reading, e);
        return { ok: count === e.count, text: `${count} ${faceLabel(e)} (expected ${e.count})` };
      });
      return verdict(lines.every((l) => l.ok), `FreeCAD reads ${read.label}: ${lines.map((l) => l.text).join(', ')}`);
    },
    solid_position: async (context, args) => {
      const { resource, parts } = args as { resource: Spec; parts: Record<string, { center?: (number | null)[]; min?: (number | null)[]; max?: (number | null)[] }> };
      const placed = await placedSolids(context, resource);
      if ('fail' in placed) return fail(placed.fail);
      const problems: string[] = [];
      const seen: string[] = [];
      for (const [id, want] of Object.entries(parts)) {
        const box = placed.boxes.get(id);
        if (!box) {
          problems.push(`no part ${id}`);
          continue;
        }
        const center = box.min.map((v, i) => round((v + box.max[i]!) / 2));
        for (const [name, actual] of [['center', center], ['min', box.min], ['max', box.max]] as const) {
          const expected = want[name];
          if (!expected) continue;
          const off = expected.some((v, i) => v !== null && Math.abs(actual[i]! - v) > 0.01);
          seen.push(`${id} ${name} (${actual.map(round).join(', ')})`);
          if (off) problems.push(`${id}'s ${name} is (${actual.map(round).join(', ')}), expected (${expected.map((v) => v ?? 'any').join(', ')})`);
        }
      }
      return verdict(problems.length === 0, problems.length === 0 ? `${placed.label}: ${seen.join('; ')}` : `${placed.label}: ${problems.join('; ')}`);
    },
    rests_on: async (context, args) => {
      const { resource, part, on } = args as { resource: Spec; part: string; on: string };
      const placed = await placedSolids(context, resource);
      if ('fail' in placed) return fail(placed.fail);
      const [top, base] = [placed.boxes.get(part), placed.boxes.get(on)];
      if (!top || !base) return fail(`${placed.label} has no part ${!top ? part : on}`);
      const gap = round(top.min[2] - base.max[2]);
      const overlap = [0, 1].every((i) => Math.min(top.max[i]!, base.max[i]!) - Math.max(top.min[i]!, base.min[i]!) > 0.01);
      const pass = Math.abs(gap) <= 0.01 && overlap;
      const why = !overlap ? `${part} is not above ${on}'s footprint` : gap > 0 ? `${part} floats ${gap} mm above ${on}` : gap < 0 ? `${part} sinks ${-gap} mm into ${on}` : `${part} sits on ${on}`;
      return verdict(pass, `${placed.label}: ${why} (its bottom at z = ${round(top.min[2])}, ${on}'s top at z = ${round(base.max[2])})`);
    },
    cad_valid: async (context, args) => {
      const { resource, solids } = args as { resource: Spec; solids?: number };
      const record = await target(context, resource);
      if ('fail' in record) return fail(record.fail);
      const checked = await context.runTool('cad_check', { resourceId: record.record.id });
      const result = checked.content as Record<string, Json>;
      if (checked.isError || result.ok !== true) return fail(`cad_check finds ${record.label} broken: ${scrub(context, String(result.message ?? JSON.stringify(result.error ?? result)))}`);
      if (record.record.kind === 'cad.assembly') {
        const parts = result.parts as { id: string; valid: boolean; solids: number }[];
        const bad = parts.filter((p) => !p.valid || (solids !== undefined && p.solids !== solids));
        return verdict(bad.length === 0, bad.length === 0 ? `cad_check: every part of ${record.label} is valid` : `cad_check: ${bad.map((p) => `${p.id} (${p.valid ? 'valid' : 'invalid'}, ${p.solids} solids)`).join(', ')}`);
      }
      const pass = result.valid === true && (solids === undefined || result.solids === solids);
      return verdict(pass, `cad_check: ${record.label} is ${result.valid ? 'valid' : 'invalid'} with ${String(result.solids)} solid(s)${solids === undefined ? '' : ` (expected ${solids})`}`);
    },
    no_interference: async (context, args) => {
      const { resource } = args as { resource: Spec };
      const record = await target(context, resource);
      if ('fail' in record) return fail(record.fail);
      const checked = await context.runTool('cad_check', { resourceId: record.record.id });
      const result = checked.content as { ok?: boolean; interferences?: { a: string; b: string; volume: number }[] };
      if (checked.isError || result.ok !== true) return fail(`cad_check could not check ${record.label}: ${scrub(context, JSON.stringify(result))}`);
      const found = result.interferences ?? [];
      return verdict(found.length === 0, found.length === 0 ? `cad_check: no parts of ${record.label} interfere` : `cad_check: ${found.map((i) => `${i.a} and ${i.b} share ${round(i.volume)} mm³`).join('; ')}`);
    },
    parameters_are: async (context, args) => {
      const { resource, values } = args as { resource: Spec; values: Record<string, number> };
      const record = await target(context, resource);
      if ('fail' in record) return fail(record.fail);
      const parameters = new Map(Object.entries((record.record.content as Part).parameters ?? {}));
      const wrong = Object.entries(values).filter(([name, value]) => parameters.get(name) !== value);
      return verdict(
        wrong.length === 0,
        wrong.length === 0 ? `${record.label}'s parameters are as asked` : wrong.map(([name, value]) => `${name} is ${parameters.has(name) ? parameters.get(name) : 'missing'}, expected ${value}`).join('; '),
      );
    },
    parameters_used: async (context, args) => {
      const { resource, names } = args as { resource: Spec; names: string[] };
      const record = await target(context, resource);
      if ('fail' in record) return fail(record.fail);
      const used = usedParameters(record.record.content as Part);
      const unused = names.filter((name) => !used.has(name));
      return verdict(unused.length === 0, unused.length === 0 ? `${record.label}'s features use ${names.join(', ')}` : `no feature of ${record.label} uses ${unused.join(', ')}`);
    },
    parameter_drives: async (context, args) => {
      const { resource, set, size } = args as { resource: Spec; set: Record<string, number>; size: number[] };
      const record = await target(context, resource);
      if ('fail' in record) return fail(record.fail);
      const part = record.record.content as Part;
      const changed: Part = { ...part, parameters: { ...part.parameters, ...set } };
      const evaluation = await sharedKernel().evaluate(changed);
      const what = Object.entries(set).map(([name, value]) => `${name} = ${value}`).join(', ');
      if (!evaluation.ok) return fail(`with ${what}, ${record.label} does not build: ${evaluation.message}`);
      const actual = sizeOf(evaluation.bbox);
      return verdict(actual.every((v, i) => Math.abs(v - size[i]!) <= 0.01), `with ${what}, ${record.label} measures ${actual.join(' × ')} mm (expected ${size.join(' × ')})`);
    },
    features_kept: async (context, args) => {
      const { resource, ids } = args as { resource: Spec; ids?: string[] };
      const record = await target(context, resource);
      if ('fail' in record) return fail(record.fail);
      const before = (await context.api.contentAt(record.record.id, 0)) as Part;
      const now = new Map((record.record.content as Part).features.map((f) => [f.id, f]));
      const kept = before.features.filter((f) => !ids || ids.includes(f.id));
      const changed = kept.filter((f) => !jsonEqual(f as unknown as Json, (now.get(f.id) ?? null) as unknown as Json)).map((f) => (now.has(f.id) ? `${f.id} was changed` : `${f.id} was removed`));
      // With no ids named, the whole feature tree must be as it was: nothing added either.
      if (!ids) for (const id of now.keys()) if (!before.features.some((f) => f.id === id)) changed.push(`${id} was added`);
      const which = ids ? `feature${kept.length === 1 ? '' : 's'} ${kept.map((f) => f.id).join(', ')}` : 'its features';
      return verdict(changed.length === 0, changed.length === 0 ? `${record.label} keeps ${which} as they were` : `${record.label}: ${changed.join('; ')}`);
    },
    assembly_refs: async (context, args) => {
      const { resource, refs } = args as { resource: Spec; refs: Record<string, number> };
      const record = await target(context, resource);
      if ('fail' in record) return fail(record.fail);
      const parts = (record.record.content as Assembly).parts;
      const problems: string[] = [];
      const inline = parts.filter((p) => !p.ref).map((p) => p.id);
      if (inline.length > 0) problems.push(`${inline.join(', ')} held inline, not by reference`);
      for (const [name, count] of Object.entries(refs)) {
        const source = context.resources[name];
        const to = parts.filter((p) => p.ref && source && p.ref.resourceId === source.id);
        if (to.length !== count) problems.push(`${to.length} part(s) refer to ${name}, expected ${count}`);
        const stale = to.filter((p) => p.ref!.revision !== source!.revision);
        if (stale.length > 0) problems.push(`${stale.map((p) => p.id).join(', ')} refer to an old revision of ${name}`);
      }
      return verdict(problems.length === 0, problems.length === 0 ? `${record.label} refers to ${Object.keys(refs).join(' and ')} at their current revisions` : `${record.label}: ${problems.join('; ')}`);
    },
    checked: async (context, args) => {
      const { resource } = args as { resource: Spec };
      const record = await target(context, resource);
      if ('fail' in record) return fail(record.fail);
      const checks = runCalls(context.run).filter((c) => c.agentId === 'main' && c.name === 'cad_check' && !c.failed && field(c.input, 'resourceId') === record.record.id);
      const final = checks.filter((c) => field(c.result, 'revision') === record.record.revision && field(c.result, 'ok') === true);
      return verdict(
        final.length > 0,
        final.length > 0 ? `Main ran cad_check on the final revision of ${record.label}` : checks.length > 0 ? `Main ran cad_check on ${record.label}, but not on its final revision` : `Main never ran cad_check on ${record.label}`,
      );
    },
    finished: (context) => verdict(context.run.outcome === 'done', `the run ended: ${context.run.outcome}`),
  } satisfies Record<string, SuiteCheck>,
});

/** A task resource by its name, or the one resource of a kind that the run created. */
type Spec = string | { created: string };
type Found<T> = T | { fail: string };
type HoleSpec = { resource: Spec; diameter: number; count: number; axis?: Axis; at?: [number, number][]; circle?: { center: [number, number]; diameter: number }; through?: boolean };
type FaceSpec = { surface: string; count: number; radius?: number; axis?: Axis };

async function target(context: SuiteCheckContext, spec: Spec): Promise<Found<{ record: ResourceRecord; label: string }>> {
  if (typeof spec === 'string') {
    const record = context.resources[spec];
    return record ? { record, label: spec } : { fail: `the task has no resource ${spec}` };
  }
  const own = new Set(Object.values(context.resources).map((r) => r.id));
  const made = (await context.api.list({ kind: spec.created })).filter((r) => !own.has(r.id));
  const label = `the ${spec.created} the run created`;
  if (made.length !== 1) return { fail: `the run created ${made.length} ${spec.created} resources, expected one` };
  return { record: made[0]!, label };
}

/** FreeCAD's reading of the resource's STEP export; an export that fails (a part that does not build) fails the item. */
async function readingOf(context: SuiteCheckContext, spec: Spec): Promise<Found<{ reading: Reading; record: ResourceRecord; label: string }>> {
  const found = await target(context, spec);
  if ('fail' in found) return found;
  let step: Uint8Array;
  try {
    step = await context.exportResource(found.record.id, 'step');
  } catch (error) {
    if (isCoworkError(error) && (error.code === 'invalid_content' || error.code === 'plugin_failed')) return { fail: `${found.label} does not export to STEP: ${scrub(context, error.message)}` };
    throw error;
  }
  return { ...found, reading: await readStepWithFreecad(step, context.workDir, context.signal) };
}

/** Each part of an assembly with the bounding box FreeCAD reads for its solid (the export holds one solid per part, in order). */
async function placedSolids(context: SuiteCheckContext, spec: Spec): Promise<Found<{ boxes: Map<string, Box>; label: string }>> {
  const read = await readingOf(context, spec);
  if ('fail' in read) return read;
  if (read.record.kind !== 'cad.assembly') return { fail: `${read.label} is a ${read.record.kind}, not a cad.assembly` };
  const parts = (read.record.content as Assembly).parts;
  if (read.reading.solids.length !== parts.length) return { fail: `${read.label}'s STEP holds ${read.reading.solids.length} solids for ${parts.length} parts` };
  return { boxes: new Map(parts.map((p, i) => [p.id, read.reading.solids[i]!.bbox])), label: read.label };
}

function holeProblems(holes: Hole[], spec: HoleSpec): string[] {
  const what = `⌀${spec.diameter}${spec.axis ? ` holes along ${spec.axis}` : ' holes'}`;
  if (holes.length !== spec.count) return [`${holes.length} ${what}, expected ${spec.count}`];
  const problems: string[] = [];
  if (spec.at) {
    const left = [...holes];
    for (const point of spec.at) {
      const i = left.findIndex((h) => Math.abs(h.at[0] - point[0]) <= 0.05 && Math.abs(h.at[1] - point[1]) <= 0.05);
      if (i < 0) problems.push(`no ${what.replace(/s\b/, '')} at (${point.join(', ')})`);
      else left.splice(i, 1);
    }
  }
  if (spec.circle) {
    const { center, diameter } = spec.circle;
    const off = holes.filter((h) => Math.abs(Math.hypot(h.at[0] - center[0], h.at[1] - center[1]) - diameter / 2) > 0.05);
    if (off.length > 0) problems.push(`${off.length} of them off the ⌀${diameter} circle about (${center.join(', ')})`);
    const angles = holes.map((h) => Math.atan2(h.at[1] - center[1], h.at[0] - center[0])).sort((a, b) => a - b);
    const steps = angles.map((a, i) => (i + 1 < angles.length ? angles[i + 1]! - a : angles[0]! + 2 * Math.PI - a));
    if (off.length === 0 && steps.some((s) => Math.abs(s - (2 * Math.PI) / holes.length) > 0.002)) problems.push('not equally spaced');
  }
  if (spec.through) {
    const blind = holes.filter((h) => !h.through);
    if (blind.length > 0) problems.push(`${blind.length} of them not through (blind)`);
  }
  return problems;
}

function faceCount(reading: Reading, spec: FaceSpec): number {
  if (spec.radius === undefined && spec.axis === undefined) return reading.faces[spec.surface] ?? 0;
  if (spec.surface !== 'Cylinder') return 0;
  const [a, b] = spec.axis ? acrossAxis(spec.axis) : [0, 0];
  return reading.cylinders.filter(
    (c) => (spec.radius === undefined || Math.abs(c.radius - spec.radius) <= 0.01) && (spec.axis === undefined || (Math.abs(c.axis[a]!) < 1e-3 && Math.abs(c.axis[b]!) < 1e-3)),
  ).length;
}

function faceLabel(spec: FaceSpec): string {
  return `${spec.surface} face(s)${spec.radius === undefined ? '' : ` of radius ${spec.radius}`}${spec.axis ? ` along ${spec.axis}` : ''}`;
}

function sizeOf(box: Box): number[] {
  return box.max.map((v, i) => round(v - box.min[i]!));
}

/** Resource ids are new in every trial: a detail names resources by the task's names, so replays compare equal. */
function scrub(context: SuiteCheckContext, text: string): string {
  return Object.entries(context.resources).reduce((out, [name, record]) => out.split(record.id).join(name), text);
}

function field(value: Json | undefined, key: string): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value[key] : undefined;
}

function verdict(pass: boolean, detail: string): CheckVerdict {
  return { pass, detail };
}

function fail(detail: string): CheckVerdict {
  return { pass: false, detail };
}
