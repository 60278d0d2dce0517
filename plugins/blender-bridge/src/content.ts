/**
 * The content of a `blender.scene` resource: what the Blender bridge reports about the scene
 * (bridge.py `snapshot`), rounded to 0.1 mm, 0.0001 degree and 4 decimals so that float32 noise
 * never reads as a change. The host stores what Blender reports; objects are sorted by name and
 * addressed by name, as in Blender.
 *
 * Rotations are XYZ Euler angles in degrees; lengths in metres. `location`, `rotation` and `scale`
 * are the object's own (relative to its parent, which keeps the object where it was when it was
 * parented). A mesh's `primitive` is how the host made it (null for a mesh made in Blender by
 * someone else); `dimensions` is its evaluated bounding box size (modifiers included) times its
 * own scale (not its parents'). `editHash` is null while the mesh is the primitive the host made,
 * and otherwise a hash of its vertices and faces: a vertex moved in Blender inside the bounding box
 * is a change too.
 */
export type Vec3 = [number, number, number];
export type Rgba = [number, number, number, number];

export type Primitive =
  | { shape: 'cube'; size: number }
  | { shape: 'plane'; size: number }
  | { shape: 'uv_sphere'; radius: number; segments: number; rings: number }
  | { shape: 'cylinder'; radius: number; depth: number; vertices: number }
  | { shape: 'cone'; radius1: number; radius2: number; depth: number; vertices: number }
  | { shape: 'torus'; majorRadius: number; minorRadius: number };

/** A modifier the host can make; other Blender modifiers appear with their own type and no params. */
export type ModifierSpec =
  | { type: 'bevel'; params: { width: number; segments: number } }
  | { type: 'subdivision'; params: { levels: number } }
  | { type: 'array'; params: { count: number; offset: Vec3 } }
  | { type: 'mirror'; params: { axes: [boolean, boolean, boolean] } };

export type Modifier = { name: string; type: string; params: { [key: string]: number | Vec3 | boolean[] } };

export type LightType = 'point' | 'sun' | 'spot' | 'area';

export type SceneObject = {
  name: string;
  /** `mesh`, `light`, `camera`, `empty`, or another Blender object type in lower case. */
  type: string;
  location: Vec3;
  rotation: Vec3;
  scale: Vec3;
  parent: string | null;
  materials: string[];
  modifiers: Modifier[];
  mesh?: { primitive: Primitive | null; dimensions: Vec3; editHash?: string | null };
  light?: { type: LightType; energy: number; color: Vec3 };
  camera?: { lens: number };
};

export type Material = { name: string; baseColor: Rgba; metallic: number; roughness: number };

export type Scene = {
  objects: SceneObject[];
  /** The materials some object uses (Blender drops unused ones when it saves). */
  materials: Material[];
  activeCamera: string | null;
};

export const LIGHT_TYPES: readonly LightType[] = ['point', 'sun', 'spot', 'area'];

/** Blender names are at most 63 bytes; the host also refuses control characters and empty names. */
export const NAME_SCHEMA = { type: 'string', minLength: 1, maxLength: 63, pattern: '^[^\\u0000-\\u001f]+$' } as const;
export const VEC3_SCHEMA = { type: 'array', items: { type: 'number' }, minItems: 3, maxItems: 3 } as const;
// Blender takes colours above 1 from a script; what it reports is stored as it is.
const RGBA_SCHEMA = { type: 'array', items: { type: 'number' }, minItems: 4, maxItems: 4 } as const;

const OBJECT_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    type: { type: 'string' },
    location: VEC3_SCHEMA,
    rotation: VEC3_SCHEMA,
    scale: VEC3_SCHEMA,
    parent: { type: ['string', 'null'] },
    materials: { type: 'array', items: { type: 'string' } },
    modifiers: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, type: { type: 'string' }, params: { type: 'object' } },
        required: ['name', 'type', 'params'],
        additionalProperties: false,
      },
    },
    mesh: {
      type: 'object',
      properties: { primitive: { type: ['object', 'null'], required: ['shape'] }, dimensions: VEC3_SCHEMA, editHash: { type: ['string', 'null'] } },
      required: ['primitive', 'dimensions'],
      additionalProperties: false,
    },
    light: {
      type: 'object',
      properties: { type: { type: 'string' }, energy: { type: 'number' }, color: VEC3_SCHEMA },
      required: ['type', 'energy', 'color'],
      additionalProperties: false,
    },
    camera: { type: 'object', properties: { lens: { type: 'number' } }, required: ['lens'], additionalProperties: false },
  },
  required: ['name', 'type', 'location', 'rotation', 'scale', 'parent', 'materials', 'modifiers'],
  additionalProperties: false,
} as const;

export const SCENE_SCHEMA = {
  type: 'object',
  properties: {
    objects: { type: 'array', items: OBJECT_SCHEMA },
    materials: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, baseColor: RGBA_SCHEMA, metallic: { type: 'number' }, roughness: { type: 'number' } },
        required: ['name', 'baseColor', 'metallic', 'roughness'],
        additionalProperties: false,
      },
    },
    activeCamera: { type: ['string', 'null'] },
  },
  required: ['objects', 'materials', 'activeCamera'],
  additionalProperties: false,
} as const;

/** Like a new Blender file, minus its camera and light: one 2 m box at the origin. */
export function initialScene(): Scene {
  return {
    objects: [
      {
        name: 'Cube',
        type: 'mesh',
        location: [0, 0, 0],
        rotation: [0, 0, 0],
        scale: [1, 1, 1],
        parent: null,
        materials: [],
        modifiers: [],
        mesh: { primitive: { shape: 'cube', size: 2 }, dimensions: [2, 2, 2], editHash: null },
      },
    ],
    materials: [],
    activeCamera: null,
  };
}

/** Rounds as the bridge does, so that the host's model of an op lands on what Blender will report. */
export function round4(value: number): number {
  const rounded = Math.round(value * 1e4) / 1e4;
  return rounded === 0 ? 0 : rounded;
}
