import type { Feature } from './content';
import type { Num } from './expression';
import type { Rule } from './limits';

/**
 * The numbers of a feature by name: a size (`width`, `sketch.profile.radius`), an angle, or a
 * point (`at`, `by`, `sketch.profile.center`, 2 or 3 numbers). The structural checks read them to
 * judge every number, and `set_dimension` (what a person edits in the page) writes one of them.
 * An optional one that is absent reads as its `fallback`, as the kernel builds it.
 */
export type Dimension = { path: string; rule: Rule; size?: 2 | 3; fallback?: Num | Num[] };

const AT: Dimension = { path: 'at', rule: 'position', size: 3, fallback: [0, 0, 0] };
const OFFSET = (path: string): Dimension => ({ path, rule: 'position', fallback: 0 });
const CENTER: Dimension = { path: 'sketch.profile.center', rule: 'position', size: 2, fallback: [0, 0] };
const length = (path: string): Dimension => ({ path, rule: 'length' });

/** The dimensions a feature of this shape has, in the order the checks report them (polygon points aside). */
export function dimensionsOf(feature: Feature): Dimension[] {
  switch (feature.type) {
    case 'box':
      return [length('width'), length('depth'), length('height'), AT];
    case 'cylinder':
      return [length('radius'), length('height'), AT];
    case 'sphere':
      return [length('radius'), AT];
    case 'extrude':
    case 'revolve': {
      const own = feature.type === 'extrude' ? length('distance') : { path: 'angle', rule: 'revolve' as const, fallback: 360 };
      const profile = feature.sketch.profile;
      const shape =
        profile.shape === 'rectangle' ? [length('sketch.profile.width'), length('sketch.profile.height'), CENTER] : profile.shape === 'circle' ? [length('sketch.profile.radius'), CENTER] : [];
      return [own, OFFSET('sketch.offset'), ...shape];
    }
    case 'fillet':
    case 'chamfer':
      return [length(feature.type === 'fillet' ? 'radius' : 'distance'), ...(feature.edges && 'inPlane' in feature.edges ? [OFFSET('edges.offset')] : [])];
    case 'translate':
      return [{ path: 'by', rule: 'position', size: 3 }];
    case 'rotate':
      return [{ path: 'angle', rule: 'rotation' }, { ...AT, path: 'origin' }];
    default:
      return [];
  }
}

/** The value at a dimension's path, or undefined where an optional one is absent. */
export function readDimension(feature: Feature, path: string): Num | Num[] | undefined {
  let at: unknown = feature;
  for (const key of path.split('.')) at = (at as Record<string, unknown> | undefined)?.[key];
  return at as Num | Num[] | undefined;
}

/** A copy of the feature with `value` at the dimension's path (the objects on the way are copied too). */
export function writeDimension(feature: Feature, path: string, value: Num | Num[]): Feature {
  const write = (object: Record<string, unknown>, keys: string[]): Record<string, unknown> => {
    const [key, ...rest] = keys as [string, ...string[]];
    return { ...object, [key]: rest.length === 0 ? value : write(object[key] as Record<string, unknown>, rest) };
  };
  return write(feature as unknown as Record<string, unknown>, path.split('.')) as unknown as Feature;
}
