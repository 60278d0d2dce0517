import { opShape, rejectOp } from '@cowork/host';
import { applyPartOp, PART_OP_SCHEMA, type PartOp } from '../part/ops';
import { checkPart } from '../part/structure';
import { FEATURE_ID_SCHEMA } from '../part/content';
import { placementProblems } from './checks';
import { ASSEMBLY_PART_SCHEMA, PLACEMENT_SCHEMA, type Assembly, type AssemblyPart, type Placement } from './content';

/**
 * Ops of `cad.assembly`, addressing parts by id:
 * - `add_part` adds a part (its content and placement); its id must be new;
 * - `remove_part` removes one;
 * - `place_part` replaces a part's placement;
 * - `edit_part` applies one `cad.part` op to an inline part's content (a referenced part is edited
 *   in its own resource);
 * - `set_part_ref` makes a referenced part name another revision of its resource (whether that
 *   revision exists is the kind's `checkContent`, which can read other resources).
 */
export type AssemblyOp =
  | { type: 'add_part'; part: AssemblyPart }
  | { type: 'remove_part'; id: string }
  | { type: 'place_part'; id: string; placement: Placement }
  | { type: 'edit_part'; id: string; op: PartOp }
  | { type: 'set_part_ref'; id: string; revision: number };

export const ASSEMBLY_OP_SCHEMA = {
  oneOf: [
    opShape('add_part', { part: ASSEMBLY_PART_SCHEMA }),
    opShape('remove_part', { id: FEATURE_ID_SCHEMA }),
    opShape('place_part', { id: FEATURE_ID_SCHEMA, placement: PLACEMENT_SCHEMA }),
    opShape('edit_part', { id: FEATURE_ID_SCHEMA, op: PART_OP_SCHEMA }),
    opShape('set_part_ref', { id: FEATURE_ID_SCHEMA, revision: { type: 'integer', minimum: 0 } }),
  ],
} as const;

export function applyAssemblyOp(assembly: Assembly, op: AssemblyOp): Assembly {
  switch (op.type) {
    case 'add_part':
      if (assembly.parts.some((p) => p.id === op.part.id)) throw rejectOp(`a part with id ${JSON.stringify(op.part.id)} already exists`, { partId: op.part.id });
      if (op.part.part) checkPart(op.part.part);
      checkPlacement(op.part.id, op.part.placement);
      return { ...assembly, parts: [...assembly.parts, op.part] };
    case 'remove_part':
      indexOf(assembly, op.id);
      return { ...assembly, parts: assembly.parts.filter((p) => p.id !== op.id) };
    case 'place_part':
      checkPlacement(op.id, op.placement);
      return update(assembly, op.id, (p) => ({ ...p, placement: op.placement }));
    case 'edit_part':
      return update(assembly, op.id, (p) => {
        if (!p.part) throw rejectOp(`part [${p.id}] refers to ${p.ref?.resourceId}: edit that cad.part, then set_part_ref to its new revision`, { partId: p.id, resourceId: p.ref?.resourceId ?? null });
        return { ...p, part: applyPartOp(p.part, op.op) };
      });
    case 'set_part_ref':
      return update(assembly, op.id, (p) => {
        if (!p.ref) throw rejectOp(`part [${p.id}] is held inline; set_part_ref moves a part that refers to a cad.part resource`, { partId: p.id });
        return { ...p, ref: { ...p.ref, revision: op.revision } };
      });
  }
}

function checkPlacement(id: string, placement: Placement): void {
  const problems = placementProblems(placement);
  if (problems.length > 0) throw rejectOp(`part [${id}]: ${problems.join('; ')}`, { partId: id, problems });
}

function update(assembly: Assembly, id: string, change: (part: AssemblyPart) => AssemblyPart): Assembly {
  const at = indexOf(assembly, id);
  return { ...assembly, parts: assembly.parts.map((p, i) => (i === at ? change(p) : p)) };
}

function indexOf(assembly: Assembly, id: string): number {
  const at = assembly.parts.findIndex((p) => p.id === id);
  if (at < 0) throw rejectOp(`no part with id ${JSON.stringify(id)}; the assembly has ${assembly.parts.map((p) => p.id).join(', ') || 'no parts'}`, { partId: id });
  return at;
}
