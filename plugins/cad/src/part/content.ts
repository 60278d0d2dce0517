import type { Num } from './expression';

/**
 * The content of a `cad.part` resource: named parameters and an ordered feature tree. Every
 * feature has a stable `id` that ops and later features address. A feature makes a body (a
 * primitive, a sketch extruded or revolved, an imported STEP solid) or changes earlier bodies (a
 * boolean, a fillet, a transform); a feature may use only bodies made before it, each at most once,
 * so the tree never has a cycle. The part is the union of the bodies no later feature used.
 * Lengths are millimetres, angles degrees; every number may be an expression (see ./expression.ts).
 */
export type { Num } from './expression';
export type Vec2 = [Num, Num];
export type Vec3 = [Num, Num, Num];
export type Axis = 'x' | 'y' | 'z';
export type PlaneName = 'XY' | 'XZ' | 'YZ';

/** A closed 2D profile on a sketch plane. */
export type Profile =
  | { shape: 'rectangle'; width: Num; height: Num; center?: Vec2 }
  | { shape: 'circle'; radius: Num; center?: Vec2 }
  | { shape: 'polygon'; points: Vec2[] };

/** A profile on a principal plane through the origin, shifted `offset` along the plane's normal. */
export type Sketch = { plane: PlaneName; offset?: Num; profile: Profile };

/** Which edges a fillet or chamfer rounds: all, those parallel to an axis, or those lying in a plane. */
export type EdgeSelector = { all: true } | { parallelTo: Axis } | { inPlane: PlaneName; offset?: Num };

export type Feature =
  | { id: string; type: 'box'; width: Num; depth: Num; height: Num; at?: Vec3 }
  | { id: string; type: 'cylinder'; radius: Num; height: Num; axis?: Axis; at?: Vec3 }
  | { id: string; type: 'sphere'; radius: Num; at?: Vec3 }
  | { id: string; type: 'extrude'; sketch: Sketch; distance: Num }
  | { id: string; type: 'revolve'; sketch: Sketch; axis?: Axis; angle?: Num }
  | { id: string; type: 'union'; bodies: string[] }
  | { id: string; type: 'cut'; target: string; tools: string[] }
  | { id: string; type: 'intersect'; bodies: string[] }
  | { id: string; type: 'fillet'; target: string; radius: Num; edges?: EdgeSelector }
  | { id: string; type: 'chamfer'; target: string; distance: Num; edges?: EdgeSelector }
  | { id: string; type: 'translate'; target: string; by: Vec3 }
  | { id: string; type: 'rotate'; target: string; angle: Num; axis: Axis; origin?: Vec3 }
  | { id: string; type: 'step'; data: string; fileName?: string };

export type Part = { units: 'mm'; parameters: Record<string, number>; features: Feature[] };

/** A STEP solid travels inside the content as base64; the host's content limit is 8 MiB in all. */
export const MAX_STEP_BASE64 = 4 * 1024 * 1024;

/** What a new part holds: one box whose dimensions are named parameters. */
export function initialPart(): Part {
  return {
    units: 'mm',
    parameters: { width: 40, depth: 30, height: 20 },
    features: [{ id: 'base', type: 'box', width: 'width', depth: 'depth', height: 'height' }],
  };
}

export const FEATURE_ID_SCHEMA = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' } as const;
export const PARAMETER_NAME_SCHEMA = { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]{0,63}$' } as const;
export const NUM_SCHEMA = { anyOf: [{ type: 'number' }, { type: 'string', minLength: 1, maxLength: 200 }] } as const;
const NUM = NUM_SCHEMA;
const VEC2 = { type: 'array', items: NUM, minItems: 2, maxItems: 2 } as const;
const VEC3 = { type: 'array', items: NUM, minItems: 3, maxItems: 3 } as const;
const AXIS = { enum: ['x', 'y', 'z'] } as const;
const PLANE = { enum: ['XY', 'XZ', 'YZ'] } as const;
const IDS = { type: 'array', items: FEATURE_ID_SCHEMA, minItems: 1 } as const;

const PROFILE_SCHEMA = {
  oneOf: [
    shape('shape', 'rectangle', { width: NUM, height: NUM, center: VEC2 }, ['width', 'height']),
    shape('shape', 'circle', { radius: NUM, center: VEC2 }, ['radius']),
    shape('shape', 'polygon', { points: { type: 'array', items: VEC2, minItems: 3, maxItems: 1000 } }, ['points']),
  ],
} as const;

const SKETCH_SCHEMA = {
  type: 'object',
  properties: { plane: PLANE, offset: NUM, profile: PROFILE_SCHEMA },
  required: ['plane', 'profile'],
  additionalProperties: false,
} as const;

const EDGES_SCHEMA = {
  oneOf: [
    { type: 'object', properties: { all: { const: true } }, required: ['all'], additionalProperties: false },
    { type: 'object', properties: { parallelTo: AXIS }, required: ['parallelTo'], additionalProperties: false },
    { type: 'object', properties: { inPlane: PLANE, offset: NUM }, required: ['inPlane'], additionalProperties: false },
  ],
} as const;

export const FEATURE_SCHEMA = {
  oneOf: [
    feature('box', { width: NUM, depth: NUM, height: NUM, at: VEC3 }, ['width', 'depth', 'height']),
    feature('cylinder', { radius: NUM, height: NUM, axis: AXIS, at: VEC3 }, ['radius', 'height']),
    feature('sphere', { radius: NUM, at: VEC3 }, ['radius']),
    feature('extrude', { sketch: SKETCH_SCHEMA, distance: NUM }, ['sketch', 'distance']),
    feature('revolve', { sketch: SKETCH_SCHEMA, axis: AXIS, angle: NUM }, ['sketch']),
    feature('union', { bodies: IDS }, ['bodies']),
    feature('cut', { target: FEATURE_ID_SCHEMA, tools: IDS }, ['target', 'tools']),
    feature('intersect', { bodies: IDS }, ['bodies']),
    feature('fillet', { target: FEATURE_ID_SCHEMA, radius: NUM, edges: EDGES_SCHEMA }, ['target', 'radius']),
    feature('chamfer', { target: FEATURE_ID_SCHEMA, distance: NUM, edges: EDGES_SCHEMA }, ['target', 'distance']),
    feature('translate', { target: FEATURE_ID_SCHEMA, by: VEC3 }, ['target', 'by']),
    feature('rotate', { target: FEATURE_ID_SCHEMA, angle: NUM, axis: AXIS, origin: VEC3 }, ['target', 'angle', 'axis']),
    feature('step', { data: { type: 'string', minLength: 1, maxLength: MAX_STEP_BASE64 }, fileName: { type: 'string', maxLength: 255 } }, ['data']),
  ],
} as const;

export const PART_SCHEMA = {
  type: 'object',
  properties: {
    units: { const: 'mm' },
    parameters: { type: 'object', propertyNames: PARAMETER_NAME_SCHEMA, additionalProperties: { type: 'number' } },
    features: { type: 'array', items: FEATURE_SCHEMA, maxItems: 1000 },
  },
  required: ['units', 'parameters', 'features'],
  additionalProperties: false,
} as const;

function feature(type: string, properties: Record<string, object>, required: string[]): object {
  return shape('type', type, { id: FEATURE_ID_SCHEMA, ...properties }, ['id', ...required]);
}

function shape(tag: string, value: string, properties: Record<string, object>, required: string[]): object {
  return { type: 'object', properties: { [tag]: { const: value }, ...properties }, required: [tag, ...required], additionalProperties: false };
}
