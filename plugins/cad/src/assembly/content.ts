import { PART_SCHEMA, FEATURE_ID_SCHEMA, type Part } from '../part/content';
import type { Placement } from '../geometry/protocol';

/**
 * The content of a `cad.assembly`: parts placed by a rotation about an axis through the origin and
 * then a translation (mm, degrees). A part is either held inline (`part`, a whole `cad.part`
 * content) or a reference to a revision of a `cad.part` resource (`ref`), so that a part people
 * edit on its own is used by the assembly at a revision it names; `set_part_ref` moves it to a
 * newer one. Parts have stable ids, so moving one part and editing another are separate ops.
 * Checks report the volume every pair of parts shares (interference).
 */
export type PartRef = { resourceId: string; revision: number };
/** Exactly one of `part` and `ref` (the schema says so). */
export type AssemblyPart = { id: string; name?: string; placement: Placement; part?: Part; ref?: PartRef };
export type Assembly = { units: 'mm'; parts: AssemblyPart[] };

export type { Placement };

export const PLACEMENT_SCHEMA = {
  type: 'object',
  properties: {
    translate: { type: 'array', items: { type: 'number' }, minItems: 3, maxItems: 3 },
    rotate: {
      type: 'object',
      properties: { axis: { enum: ['x', 'y', 'z'] }, angle: { type: 'number' } },
      required: ['axis', 'angle'],
      additionalProperties: false,
    },
  },
  required: ['translate'],
  additionalProperties: false,
} as const;

export const PART_REF_SCHEMA = {
  type: 'object',
  properties: { resourceId: { type: 'string', minLength: 1, maxLength: 200 }, revision: { type: 'integer', minimum: 0 } },
  required: ['resourceId', 'revision'],
  additionalProperties: false,
} as const;

export const ASSEMBLY_PART_SCHEMA = {
  type: 'object',
  properties: { id: FEATURE_ID_SCHEMA, name: { type: 'string', maxLength: 200 }, part: PART_SCHEMA, ref: PART_REF_SCHEMA, placement: PLACEMENT_SCHEMA },
  required: ['id', 'placement'],
  oneOf: [{ required: ['part'] }, { required: ['ref'] }],
  additionalProperties: false,
} as const;

export const ASSEMBLY_SCHEMA = {
  type: 'object',
  properties: { units: { const: 'mm' }, parts: { type: 'array', items: ASSEMBLY_PART_SCHEMA, maxItems: 200 } },
  required: ['units', 'parts'],
  additionalProperties: false,
} as const;
