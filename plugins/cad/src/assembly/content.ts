import { PART_SCHEMA, FEATURE_ID_SCHEMA, type Part } from '../part/content';
import type { Placement } from '../geometry/protocol';

/**
 * The content of a `cad.assembly`: parts, each a whole `cad.part` content held inline, placed by
 * a rotation about an axis through the origin and then a translation (mm, degrees). Parts have
 * stable ids, so moving one part and editing another are separate ops. Checks report the volume
 * every pair of parts shares (interference).
 */
export type AssemblyPart = { id: string; name?: string; part: Part; placement: Placement };
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

export const ASSEMBLY_PART_SCHEMA = {
  type: 'object',
  properties: { id: FEATURE_ID_SCHEMA, name: { type: 'string', maxLength: 200 }, part: PART_SCHEMA, placement: PLACEMENT_SCHEMA },
  required: ['id', 'part', 'placement'],
  additionalProperties: false,
} as const;

export const ASSEMBLY_SCHEMA = {
  type: 'object',
  properties: { units: { const: 'mm' }, parts: { type: 'array', items: ASSEMBLY_PART_SCHEMA, maxItems: 200 } },
  required: ['units', 'parts'],
  additionalProperties: false,
} as const;
