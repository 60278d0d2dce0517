import type { Evaluation } from '../geometry/kernel';
import type { EdgeSelector, Feature, Part, Profile, Vec2 } from './content';
import { evaluateNum, type Num } from './expression';
import { referencesOf } from './structure';

/** A part's measures when the kernel has them, or why it failed, or nothing yet. */
type KnownMeasures = Evaluation | undefined;

/** What a model reads: parameters, each feature with its key dimensions, and the measures when known. */
export function summarizePart(part: Part, measures: KnownMeasures): string {
  const lines = [`part (mm): ${plural(Object.keys(part.parameters).length, 'parameter')}, ${plural(part.features.length, 'feature')}`];
  if (measures) lines.push(measuresLine(measures));
  const parameters = Object.entries(part.parameters).map(([name, value]) => `${name} = ${value}`);
  lines.push(`parameters: ${parameters.join(', ') || 'none'}`);
  part.features.forEach((feature, i) => lines.push(`${i + 1}. ${featureLine(feature, part.parameters)}`));
  return lines.join('\n');
}

/** Changed parameters, and features added, removed or edited (field by field), matched by id. */
export function diffParts(before: Part, after: Part): string {
  const lines: string[] = [];
  // Maps, not lookups on the content's objects: a parameter named `constructor` is not Object's.
  const [wasSet, nowSet] = [new Map(Object.entries(before.parameters)), new Map(Object.entries(after.parameters))];
  for (const [name, value] of wasSet) {
    if (!nowSet.has(name)) lines.push(`removed parameter ${name} (was ${value})`);
    else if (nowSet.get(name) !== value) lines.push(`parameter ${name}: ${value} → ${nowSet.get(name)}`);
  }
  for (const [name, value] of nowSet) if (!wasSet.has(name)) lines.push(`added parameter ${name} = ${value}`);
  const old = new Map(before.features.map((f) => [f.id, f]));
  const now = new Set(after.features.map((f) => f.id));
  for (const feature of before.features) if (!now.has(feature.id)) lines.push(`removed feature ${featureLine(feature, before.parameters)}`);
  after.features.forEach((feature, i) => {
    const was = old.get(feature.id);
    if (!was) lines.push(`added feature ${i + 1}. ${featureLine(feature, after.parameters)}`);
    else lines.push(...fieldChanges(was, feature).map((change) => `feature [${feature.id}] ${feature.type}: ${change}`));
  });
  return lines.length === 0 ? 'no changes' : lines.join('\n');
}

function measuresLine(measures: NonNullable<KnownMeasures>): string {
  if (!measures.ok) return `does not build: ${measures.message}`;
  const { min, max } = measures.bbox;
  const size = [0, 1, 2].map((i) => round(max[i]! - min[i]!)).join(' × ');
  return `volume ${round(measures.volume)} mm³, bounding box ${size} mm from (${min.map(round).join(', ')}), ${plural(measures.solids, 'solid')}, ${plural(measures.faces, 'face')}, ${measures.valid ? 'valid' : 'INVALID'}`;
}

/** One line per feature: `[id] type` and its dimensions, expressions shown with their values. */
export function featureLine(feature: Feature, parameters: Part['parameters']): string {
  const n = (value: Num): string => showNum(value, parameters);
  const v = (value: readonly Num[] | undefined): string => `(${(value ?? [0, 0, 0]).map(n).join(', ')})`;
  const head = `[${feature.id}] ${feature.type}`;
  switch (feature.type) {
    case 'box':
      return `${head} ${n(feature.width)} × ${n(feature.depth)} × ${n(feature.height)} at ${v(feature.at)}`;
    case 'cylinder':
      return `${head} radius ${n(feature.radius)}, height ${n(feature.height)} along ${feature.axis ?? 'z'} at ${v(feature.at)}`;
    case 'sphere':
      return `${head} radius ${n(feature.radius)} at ${v(feature.at)}`;
    case 'extrude':
      return `${head} ${profileText(feature.sketch.profile, n)} on ${feature.sketch.plane}${offsetText(feature.sketch.offset, n)} by ${n(feature.distance)}`;
    case 'revolve':
      return `${head} ${profileText(feature.sketch.profile, n)} on ${feature.sketch.plane}${offsetText(feature.sketch.offset, n)} by ${n(feature.angle ?? 360)}° about ${feature.axis ?? 'z'}`;
    case 'union':
    case 'intersect':
      return `${head} of ${feature.bodies.join(', ')}`;
    case 'cut':
      return `${head} ${feature.target} with ${feature.tools.join(', ')}`;
    case 'fillet':
      return `${head} ${feature.target}, radius ${n(feature.radius)}, ${edgesText(feature.edges, n)}`;
    case 'chamfer':
      return `${head} ${feature.target}, distance ${n(feature.distance)}, ${edgesText(feature.edges, n)}`;
    case 'translate':
      return `${head} ${feature.target} by ${v(feature.by)}`;
    case 'rotate':
      return `${head} ${feature.target} by ${n(feature.angle)}° about ${feature.axis} through ${v(feature.origin)}`;
    case 'step':
      return `${head} imported solid${feature.fileName ? ` ${JSON.stringify(feature.fileName)}` : ''} (${Math.round((feature.data.length * 3) / 4 / 1024)} KiB)`;
  }
}

function profileText(profile: Profile, n: (value: Num) => string): string {
  const at = (center: Vec2 | undefined): string => (center ? ` centred at (${center.map(n).join(', ')})` : '');
  if (profile.shape === 'rectangle') return `rectangle ${n(profile.width)} × ${n(profile.height)}${at(profile.center)}`;
  if (profile.shape === 'circle') return `circle radius ${n(profile.radius)}${at(profile.center)}`;
  return `polygon of ${profile.points.length} points`;
}

function offsetText(offset: Num | undefined, n: (value: Num) => string): string {
  return offset === undefined ? '' : ` offset ${n(offset)}`;
}

function edgesText(edges: EdgeSelector | undefined, n: (value: Num) => string): string {
  if (!edges || 'all' in edges) return 'all edges';
  if ('parallelTo' in edges) return `edges parallel to ${edges.parallelTo}`;
  return `edges in plane ${edges.inPlane}${offsetText(edges.offset, n)}`;
}

function fieldChanges(before: Feature, after: Feature): string[] {
  const fields = new Set([...Object.keys(before), ...Object.keys(after)]);
  const changes: string[] = [];
  for (const field of fields) {
    const [was, now] = [(before as Record<string, unknown>)[field], (after as Record<string, unknown>)[field]];
    if (JSON.stringify(was) === JSON.stringify(now)) continue;
    if (field === 'data') changes.push('imported solid replaced');
    else changes.push(`${field} ${short(was)} → ${short(now)}`);
  }
  const [refsBefore, refsAfter] = [referencesOf(before).join(','), referencesOf(after).join(',')];
  return refsBefore === refsAfter ? changes : [...changes.filter((c) => !/^(target|tools|bodies) /.test(c)), `now uses ${referencesOf(after).join(', ')}`];
}

function showNum(value: Num, parameters: Part['parameters']): string {
  if (typeof value === 'number') return String(round(value));
  try {
    return `${value} (=${round(evaluateNum(value, parameters))})`;
  } catch {
    return `${value} (=?)`;
  }
}

function short(value: unknown): string {
  if (value === undefined) return 'unset';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

