import type { Json } from '@cowork/host';
import type { Material, Scene, SceneObject } from './content';

/** The blender suite's reading of scenes: specs of objects and materials as rubric items give them, and what differs. */

/** A number, a [min, max] range, or null for any. */
export type Range = number | [number, number] | null;
export type RangeVec = [Range, Range, Range];
export type Field = 'transform' | 'mesh' | 'parent' | 'materials' | 'modifiers';

export interface ObjectSpec {
  type?: string;
  primitive?: Record<string, Range | string>;
  location?: RangeVec;
  rotation?: RangeVec;
  scale?: RangeVec;
  dimensions?: RangeVec;
  parent?: string | null;
  materials?: string[];
  light?: { type?: string; energy?: Range; color?: RangeVec };
  lens?: Range;
}

export function find(scene: Scene, name: string): SceneObject | undefined {
  return scene.objects.find((o) => o.name === name);
}

export function names(scene: Scene): string {
  return scene.objects.map((o) => o.name).join(', ');
}

export function inRange(value: number | undefined, want: Range, tolerance: number): boolean {
  if (want === null) return true;
  if (value === undefined) return false;
  return typeof want === 'number' ? Math.abs(value - want) <= tolerance : value >= want[0] - 1e-9 && value <= want[1] + 1e-9;
}

export function vecMatches(value: readonly number[] | undefined, want: RangeVec, tolerance: number): boolean {
  return want.every((w, i) => inRange(value?.[i], w, tolerance));
}

export function showRange(want: Range): string {
  return want === null ? 'any' : typeof want === 'number' ? String(want) : `${want[0]}..${want[1]}`;
}

export function showVec(want: readonly (Range | number)[]): string {
  return `(${want.map((w) => showRange(w)).join(', ')})`;
}

export function objectProblems(scene: Scene, name: string, spec: ObjectSpec, tolerance: number): string[] {
  const o = find(scene, name);
  if (!o) return [`no object named ${name} (the scene has ${names(scene)})`];
  const problems: string[] = [];
  if (spec.type !== undefined && o.type !== spec.type) problems.push(`${name} is a ${o.type}, not a ${spec.type}`);
  if (spec.primitive !== undefined) {
    const primitive = (o.mesh?.primitive ?? null) as Record<string, number | string> | null;
    for (const [key, want] of Object.entries(spec.primitive)) {
      const have = primitive?.[key];
      const ok = typeof want === 'string' ? have === want : inRange(typeof have === 'number' ? have : undefined, want, tolerance);
      if (!ok) problems.push(`${name}'s primitive ${key} is ${have ?? 'none'}, not ${typeof want === 'string' ? want : showRange(want)}`);
    }
  }
  for (const key of ['location', 'rotation', 'scale'] as const) {
    const want = spec[key];
    if (want && !vecMatches(o[key], want, tolerance)) problems.push(`${name}'s ${key} is ${showVec(o[key])}, not ${showVec(want)}`);
  }
  if (spec.dimensions && !vecMatches(o.mesh?.dimensions, spec.dimensions, tolerance)) problems.push(`${name}'s size is ${o.mesh ? showVec(o.mesh.dimensions) : 'none'}, not ${showVec(spec.dimensions)}`);
  if (spec.parent !== undefined && o.parent !== spec.parent) problems.push(`${name}'s parent is ${o.parent ?? 'none'}, not ${spec.parent ?? 'none'}`);
  if (spec.materials !== undefined && JSON.stringify(o.materials) !== JSON.stringify(spec.materials)) problems.push(`${name} uses ${o.materials.join(', ') || 'no material'}, not ${spec.materials.join(', ') || 'none'}`);
  if (spec.light) {
    if (!o.light) problems.push(`${name} is not a light`);
    else {
      if (spec.light.type !== undefined && o.light.type !== spec.light.type) problems.push(`${name} is a ${o.light.type} light, not a ${spec.light.type} light`);
      if (spec.light.energy !== undefined && !inRange(o.light.energy, spec.light.energy, tolerance)) problems.push(`${name}'s power is ${o.light.energy} W, not ${showRange(spec.light.energy)}`);
      if (spec.light.color && !vecMatches(o.light.color, spec.light.color, tolerance)) problems.push(`${name}'s colour is ${showVec(o.light.color)}, not ${showVec(spec.light.color)}`);
    }
  }
  if (spec.lens !== undefined && !inRange(o.camera?.lens, spec.lens, tolerance)) problems.push(`${name}'s lens is ${o.camera ? `${o.camera.lens} mm` : 'none (not a camera)'}, not ${showRange(spec.lens)}`);
  return problems;
}

export function fieldChanges(startScene: Scene, scene: Scene, before: SceneObject, after: SceneObject, field: Field): string[] {
  const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
  switch (field) {
    case 'transform':
      return (['location', 'rotation', 'scale'] as const).filter((k) => !same(before[k], after[k])).map((k) => `${after.name}'s ${k} moved from ${showVec(before[k])} to ${showVec(after[k])}`);
    case 'mesh':
      return same(before.mesh, after.mesh) ? [] : [`${after.name}'s mesh changed`];
    case 'parent':
      return before.parent === after.parent ? [] : [`${after.name}'s parent changed from ${before.parent ?? 'none'} to ${after.parent ?? 'none'}`];
    case 'modifiers':
      return same(before.modifiers, after.modifiers) ? [] : [`${after.name}'s modifiers changed`];
    case 'materials': {
      if (!same(before.materials, after.materials)) return [`${after.name}'s materials changed from ${before.materials.join(', ') || 'none'} to ${after.materials.join(', ') || 'none'}`];
      const definition = (s: Scene, m: string): Material | undefined => s.materials.find((x) => x.name === m);
      return after.materials.filter((m) => !same(definition(startScene, m), definition(scene, m))).map((m) => `material ${m} of ${after.name} changed`);
    }
  }
}

export function materialProblems(m: Material, spec: { baseColor?: RangeVec; metallic?: Range; roughness?: Range; greyWithin?: number }, tolerance: number): string[] {
  const problems: string[] = [];
  const rgb = m.baseColor.slice(0, 3);
  if (spec.baseColor && !vecMatches(rgb, spec.baseColor, tolerance)) problems.push(`${m.name}'s base colour is ${showVec(rgb)}, not ${showVec(spec.baseColor)}`);
  if (spec.greyWithin !== undefined && Math.max(...rgb) - Math.min(...rgb) > spec.greyWithin) problems.push(`${m.name}'s base colour ${showVec(rgb)} is not grey`);
  if (spec.metallic !== undefined && !inRange(m.metallic, spec.metallic, tolerance)) problems.push(`${m.name}'s metallic is ${m.metallic}, not ${showRange(spec.metallic)}`);
  if (spec.roughness !== undefined && !inRange(m.roughness, spec.roughness, tolerance)) problems.push(`${m.name}'s roughness is ${m.roughness}, not ${showRange(spec.roughness)}`);
  return problems;
}

export function describeMaterial(m: Material): string {
  return `${m.name} (base colour ${m.baseColor.slice(0, 3).join(', ')}, metallic ${m.metallic}, roughness ${m.roughness})`;
}

export function paramsMatch(have: Record<string, Json>, want: Record<string, Json>): boolean {
  return Object.entries(want).every(([key, value]) => {
    const actual = have[key];
    if (typeof value === 'number') return typeof actual === 'number' && Math.abs(actual - value) <= 1e-4;
    return JSON.stringify(actual) === JSON.stringify(value);
  });
}
