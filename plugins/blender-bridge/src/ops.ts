import { opShape, rejectOp } from '@cowork/host';
import {
  LIGHT_TYPES,
  NAME_SCHEMA,
  VEC3_SCHEMA,
  round4,
  type LightType,
  type Material,
  type Modifier,
  type ModifierSpec,
  type Primitive,
  type Scene,
  type SceneObject,
  type Vec3,
} from './content';

/**
 * Ops of `blender.scene`, each one bpy change. Objects are addressed by name, as in Blender.
 * `applySceneOp` is the host's model of an op (validation, drafts, candidates); the revision the
 * host records is what Blender reports after performing it, through the external adapter. The
 * model matches Blender except where Blender computes geometry: a mesh's `dimensions` ignore its
 * modifiers here.
 */
export type Transform = { location?: Vec3; rotation?: Vec3; scale?: Vec3 };

export type SceneOp =
  | ({ type: 'add_object'; name: string; primitive: PrimitiveInput } & Transform)
  | { type: 'delete_object'; object: string }
  | ({ type: 'set_transform'; object: string } & Transform)
  | { type: 'set_material'; object: string; material: string; baseColor?: number[]; metallic?: number; roughness?: number }
  | { type: 'add_light'; name: string; light: LightType; energy?: number; color?: Vec3; location?: Vec3; rotation?: Vec3 }
  | { type: 'add_camera'; name: string; lens?: number; location?: Vec3; rotation?: Vec3; active?: boolean }
  | { type: 'set_active_camera'; object: string }
  | { type: 'add_modifier'; object: string; name?: string; modifier: { type: ModifierSpec['type']; params?: { [key: string]: number | Vec3 | boolean[] } } }
  | { type: 'remove_modifier'; object: string; name: string }
  | { type: 'rename_object'; object: string; name: string }
  | { type: 'parent'; object: string; parent: string | null };

/** A primitive as an op gives it: the shape, and any of its sizes (the rest default as in Blender). */
export type PrimitiveInput = { shape: Primitive['shape']; [param: string]: number | string };

const PRIMITIVE_DEFAULTS: { [S in Primitive['shape']]: Omit<Extract<Primitive, { shape: S }>, 'shape'> } = {
  cube: { size: 2 },
  plane: { size: 2 },
  uv_sphere: { radius: 1, segments: 32, rings: 16 },
  cylinder: { radius: 1, depth: 2, vertices: 32 },
  cone: { radius1: 1, radius2: 0, depth: 2, vertices: 32 },
  torus: { majorRadius: 1, minorRadius: 0.25 },
};

const MODIFIER_DEFAULTS: { [T in ModifierSpec['type']]: Extract<ModifierSpec, { type: T }>['params'] } = {
  bevel: { width: 0.1, segments: 1 },
  subdivision: { levels: 1 },
  array: { count: 2, offset: [1, 0, 0] },
  mirror: { axes: [true, false, false] },
};

const LIGHT_ENERGY: Record<LightType, number> = { point: 1000, spot: 1000, area: 500, sun: 3 };
const DEFAULT_MATERIAL: Omit<Material, 'name'> = { baseColor: [0.8, 0.8, 0.8, 1], metallic: 0, roughness: 0.5 };

const POSITIVE = { type: 'number', exclusiveMinimum: 0 } as const;
const COUNT = (minimum: number, maximum: number): object => ({ type: 'integer', minimum, maximum });
const UNIT = { type: 'number', minimum: 0, maximum: 1 } as const;
const TRANSFORM = { location: VEC3_SCHEMA, rotation: VEC3_SCHEMA, scale: VEC3_SCHEMA } as const;

const PRIMITIVE_SCHEMA = {
  oneOf: [
    shape('cube', { size: POSITIVE }),
    shape('plane', { size: POSITIVE }),
    shape('uv_sphere', { radius: POSITIVE, segments: COUNT(3, 256), rings: COUNT(3, 128) }),
    shape('cylinder', { radius: POSITIVE, depth: POSITIVE, vertices: COUNT(3, 256) }),
    shape('cone', { radius1: { type: 'number', minimum: 0 }, radius2: { type: 'number', minimum: 0 }, depth: POSITIVE, vertices: COUNT(3, 256) }),
    shape('torus', { majorRadius: POSITIVE, minorRadius: POSITIVE }),
  ],
} as const;

const MODIFIER_SCHEMA = {
  oneOf: [
    modifier('bevel', { width: { type: 'number', minimum: 0 }, segments: COUNT(1, 32) }),
    modifier('subdivision', { levels: COUNT(0, 4) }),
    modifier('array', { count: COUNT(1, 100), offset: VEC3_SCHEMA }),
    modifier('mirror', { axes: { type: 'array', items: { type: 'boolean' }, minItems: 3, maxItems: 3 } }),
  ],
} as const;

export const SCENE_OP_SCHEMA = {
  oneOf: [
    opShape('add_object', { name: NAME_SCHEMA, primitive: PRIMITIVE_SCHEMA, ...TRANSFORM }, ['name', 'primitive']),
    opShape('delete_object', { object: NAME_SCHEMA }),
    opShape('set_transform', { object: NAME_SCHEMA, ...TRANSFORM }, ['object']),
    opShape(
      'set_material',
      {
        object: NAME_SCHEMA,
        material: NAME_SCHEMA,
        baseColor: { type: 'array', items: UNIT, minItems: 3, maxItems: 4 },
        metallic: UNIT,
        roughness: UNIT,
      },
      ['object', 'material'],
    ),
    opShape(
      'add_light',
      { name: NAME_SCHEMA, light: { enum: [...LIGHT_TYPES] }, energy: { type: 'number', minimum: 0 }, color: { ...VEC3_SCHEMA, items: UNIT }, location: VEC3_SCHEMA, rotation: VEC3_SCHEMA },
      ['name', 'light'],
    ),
    opShape('add_camera', { name: NAME_SCHEMA, lens: { type: 'number', minimum: 1, maximum: 5000 }, location: VEC3_SCHEMA, rotation: VEC3_SCHEMA, active: { type: 'boolean' } }, ['name']),
    opShape('set_active_camera', { object: NAME_SCHEMA }),
    opShape('add_modifier', { object: NAME_SCHEMA, name: NAME_SCHEMA, modifier: MODIFIER_SCHEMA }, ['object', 'modifier']),
    opShape('remove_modifier', { object: NAME_SCHEMA, name: NAME_SCHEMA }),
    opShape('rename_object', { object: NAME_SCHEMA, name: NAME_SCHEMA }),
    opShape('parent', { object: NAME_SCHEMA, parent: { oneOf: [NAME_SCHEMA, { type: 'null' }] } }),
  ],
} as const;

/** Checks the schema cannot make: Blender names are at most 63 bytes of UTF-8. */
export function validateSceneOp(op: SceneOp): string[] {
  const names = [
    'name' in op ? op.name : undefined,
    'object' in op ? op.object : undefined,
    'material' in op ? op.material : undefined,
    op.type === 'parent' ? op.parent : undefined,
  ];
  return names
    .filter((name): name is string => typeof name === 'string' && Buffer.byteLength(name) > 63)
    .map((name) => `the name ${JSON.stringify(name)} is ${Buffer.byteLength(name)} bytes long; Blender names are at most 63 bytes`);
}

/**
 * The op with every default written out: what the adapter sends to Blender, so that the model
 * and Blender never disagree on a default.
 */
export function completeOp(op: SceneOp): SceneOp {
  switch (op.type) {
    case 'add_object':
      return { ...op, primitive: completePrimitive(op.primitive) };
    case 'add_light':
      return { ...op, energy: op.energy ?? LIGHT_ENERGY[op.light], color: op.color ?? [1, 1, 1] };
    case 'add_camera':
      return { ...op, lens: op.lens ?? 50 };
    case 'add_modifier':
      return { ...op, name: op.name ?? op.modifier.type, modifier: { type: op.modifier.type, params: { ...MODIFIER_DEFAULTS[op.modifier.type], ...op.modifier.params } } };
    default:
      return op;
  }
}

function completePrimitive(input: PrimitiveInput): Primitive {
  const defaults = PRIMITIVE_DEFAULTS[input.shape] as Record<string, number>;
  const complete: Record<string, number | string> = { shape: input.shape };
  for (const key of Object.keys(defaults)) complete[key] = typeof input[key] === 'number' ? input[key] : defaults[key]!;
  return complete as Primitive;
}

/** Applies the model of an op without mutating `scene`; throws `rejectOp` when it does not fit. */
export function applySceneOp(scene: Scene, raw: SceneOp): Scene {
  const op = completeOp(raw);
  switch (op.type) {
    case 'add_object': {
      requireNewName(scene, op.name);
      const primitive = op.primitive as Primitive;
      const scale = op.scale ?? [1, 1, 1];
      const object: SceneObject = {
        ...newObject(op.name, 'mesh', op),
        mesh: { primitive, dimensions: scaled(primitiveDimensions(primitive), scale), editHash: null },
      };
      return withObjects(scene, [...scene.objects, object]);
    }
    case 'delete_object': {
      find(scene, op.object);
      const objects = scene.objects
        .filter((o) => o.name !== op.object)
        .map((o) => (o.parent === op.object ? { ...o, parent: null } : o));
      return withObjects({ ...scene, activeCamera: scene.activeCamera === op.object ? null : scene.activeCamera }, objects);
    }
    case 'set_transform':
      return update(scene, op.object, (o) => {
        const scale = rounded(op.scale) ?? o.scale;
        const moved: SceneObject = { ...o, location: rounded(op.location) ?? o.location, rotation: rounded(op.rotation) ?? o.rotation, scale };
        return o.mesh ? { ...moved, mesh: { ...o.mesh, dimensions: rescaled(o, scale) } } : moved;
      });
    case 'set_material': {
      const target = find(scene, op.object);
      if (target.type !== 'mesh') throw rejectOp(`${JSON.stringify(op.object)} is a ${target.type}; only meshes take materials`, { object: op.object });
      const before = scene.materials.find((m) => m.name === op.material) ?? { name: op.material, ...DEFAULT_MATERIAL };
      const color = op.baseColor ? ([...op.baseColor, 1].slice(0, 4).map(round4) as Material['baseColor']) : before.baseColor;
      const material: Material = {
        name: op.material,
        baseColor: color,
        metallic: op.metallic === undefined ? before.metallic : round4(op.metallic),
        roughness: op.roughness === undefined ? before.roughness : round4(op.roughness),
      };
      const objects = scene.objects.map((o) => (o.name === op.object ? { ...o, materials: [op.material] } : o));
      return withObjects({ ...scene, materials: [...scene.materials.filter((m) => m.name !== op.material), material] }, objects);
    }
    case 'add_light': {
      requireNewName(scene, op.name);
      const object: SceneObject = { ...newObject(op.name, 'light', op), light: { type: op.light, energy: round4(op.energy!), color: rounded(op.color)! } };
      return withObjects(scene, [...scene.objects, object]);
    }
    case 'add_camera': {
      requireNewName(scene, op.name);
      const object: SceneObject = { ...newObject(op.name, 'camera', op), camera: { lens: round4(op.lens!) } };
      const activeCamera = op.active || scene.activeCamera === null ? op.name : scene.activeCamera;
      return withObjects({ ...scene, activeCamera }, [...scene.objects, object]);
    }
    case 'set_active_camera': {
      const camera = find(scene, op.object);
      if (camera.type !== 'camera') throw rejectOp(`${JSON.stringify(op.object)} is a ${camera.type}, not a camera`, { object: op.object });
      return { ...scene, activeCamera: op.object };
    }
    case 'add_modifier':
      return update(scene, op.object, (o) => {
        const name = op.name!;
        if (o.type !== 'mesh') throw rejectOp(`${JSON.stringify(o.name)} is a ${o.type}; only meshes take modifiers`, { object: o.name });
        if (o.modifiers.some((m) => m.name === name)) throw rejectOp(`${JSON.stringify(o.name)} already has a modifier named ${JSON.stringify(name)}; give the new one another name`, { object: o.name });
        const params = op.modifier.params ?? {};
        const modifier: Modifier = { name, type: op.modifier.type, params: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'number' ? round4(v) : v])) };
        return { ...o, modifiers: [...o.modifiers, modifier] };
      });
    case 'remove_modifier':
      return update(scene, op.object, (o) => {
        if (!o.modifiers.some((m) => m.name === op.name)) {
          const names = o.modifiers.map((m) => m.name);
          throw rejectOp(`${JSON.stringify(o.name)} has no modifier named ${JSON.stringify(op.name)}; it has ${names.length ? names.join(', ') : 'none'}`, { object: o.name, existing: names });
        }
        return { ...o, modifiers: o.modifiers.filter((m) => m.name !== op.name) };
      });
    case 'rename_object': {
      find(scene, op.object);
      if (op.name === op.object) return scene;
      requireNewName(scene, op.name);
      const objects = scene.objects.map((o) => ({ ...o, name: o.name === op.object ? op.name : o.name, parent: o.parent === op.object ? op.name : o.parent }));
      return withObjects({ ...scene, activeCamera: scene.activeCamera === op.object ? op.name : scene.activeCamera }, objects);
    }
    case 'parent': {
      find(scene, op.object);
      if (op.parent !== null) {
        for (let at: string | null = op.parent; at !== null; at = find(scene, at).parent) {
          if (at === op.object) throw rejectOp(`parenting ${JSON.stringify(op.object)} to ${JSON.stringify(op.parent)} would make a cycle`, { object: op.object });
        }
      }
      return update(scene, op.object, (o) => ({ ...o, parent: op.parent }));
    }
  }
}

function objectNames(scene: Scene): string[] {
  return scene.objects.map((o) => o.name);
}

function newObject(name: string, type: string, op: Transform): SceneObject {
  return {
    name,
    type,
    location: rounded(op.location) ?? [0, 0, 0],
    rotation: rounded(op.rotation) ?? [0, 0, 0],
    scale: rounded(op.scale) ?? [1, 1, 1],
    parent: null,
    materials: [],
    modifiers: [],
  };
}

/** Sorted by name as the bridge reports them, with only the materials some object still uses. */
function withObjects(scene: Scene, objects: SceneObject[]): Scene {
  const sorted = [...objects].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const used = new Set(sorted.flatMap((o) => o.materials));
  const materials = scene.materials.filter((m) => used.has(m.name)).sort((a, b) => (a.name < b.name ? -1 : 1));
  return { ...scene, objects: sorted, materials };
}

function update(scene: Scene, name: string, change: (object: SceneObject) => SceneObject): Scene {
  find(scene, name);
  return withObjects(scene, scene.objects.map((o) => (o.name === name ? change(o) : o)));
}

function find(scene: Scene, name: string): SceneObject {
  const found = scene.objects.find((o) => o.name === name);
  if (!found) {
    const names = objectNames(scene);
    throw rejectOp(`no object named ${JSON.stringify(name)} in the scene; it has ${names.length ? names.join(', ') : 'no objects'}`, { object: name, existing: names });
  }
  return found;
}

function requireNewName(scene: Scene, name: string): void {
  if (scene.objects.some((o) => o.name === name)) throw rejectOp(`an object named ${JSON.stringify(name)} already exists; choose another name`, { name });
}

function rounded(vector: Vec3 | undefined): Vec3 | undefined {
  return vector && (vector.map(round4) as Vec3);
}

/** A primitive's bounding box at scale 1, as Blender builds it. */
export function primitiveDimensions(p: Primitive): Vec3 {
  switch (p.shape) {
    case 'cube':
      return [p.size, p.size, p.size];
    case 'plane':
      return [p.size, p.size, 0];
    case 'uv_sphere':
      return [2 * p.radius, 2 * p.radius, 2 * p.radius];
    case 'cylinder':
      return [2 * p.radius, 2 * p.radius, p.depth];
    case 'cone': {
      const r = Math.max(p.radius1, p.radius2);
      return [2 * r, 2 * r, p.depth];
    }
    case 'torus': {
      const r = p.majorRadius + p.minorRadius;
      return [2 * r, 2 * r, 2 * p.minorRadius];
    }
  }
}

function scaled(size: Vec3, scale: Vec3): Vec3 {
  return size.map((s, i) => round4(s * Math.abs(scale[i]!))) as Vec3;
}

/** New dimensions for a new scale: from the primitive, or from the old size when it is unknown. */
function rescaled(object: SceneObject, scale: Vec3): Vec3 {
  const mesh = object.mesh!;
  if (mesh.primitive) return scaled(primitiveDimensions(mesh.primitive), scale);
  return mesh.dimensions.map((d, i) => {
    const before = Math.abs(object.scale[i]!);
    return before === 0 ? d : round4((d / before) * Math.abs(scale[i]!));
  }) as Vec3;
}

function shape(name: string, properties: Record<string, object>): object {
  return { type: 'object', properties: { shape: { const: name }, ...properties }, required: ['shape'], additionalProperties: false };
}

function modifier(type: string, params: Record<string, object>): object {
  return {
    type: 'object',
    properties: { type: { const: type }, params: { type: 'object', properties: params, additionalProperties: false } },
    required: ['type'],
    additionalProperties: false,
  };
}
