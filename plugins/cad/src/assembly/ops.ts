import { opShape, rejectOp } from '@cowork/host';
import { applyPartOp, PART_OP_SCHEMA, type PartOp } from '../part/ops';
import { checkPart } from '../part/structure';
import { FEATURE_ID_SCHEMA } from '../part/content';
import { ASSEMBLY_PART_SCHEMA, PLACEMENT_SCHEMA, type Assembly, type AssemblyPart, type Placement } from './content';

/**
 * Ops of `cad.assembly`, addressing parts by id:
 * - `add_part` adds a part (its content and placement); its id must be new;
 * - `remove_part` removes one;
 * - `place_part` replaces a part's placement;
 * - `edit_part` applies one `cad.part` op to a part's content.
 */
export type AssemblyOp =
  | { type: 'add_part'; part: AssemblyPart }
  | { type: 'remove_part'; id: string }
  | { type: 'place_part'; id: string; placement: Placement }
  | { type: 'edit_part'; id: string; op: PartOp };

export const ASSEMBLY_OP_SCHEMA = {
  oneOf: [
    opShape('add_part', { part: ASSEMBLY_PART_SCHEMA }),
    opShape('remove_part', { id: FEATURE_ID_SCHEMA }),
    opShape('place_part', { id: FEATURE_ID_SCHEMA, placement: PLACEMENT_SCHEMA }),
    opShape('edit_part', { id: FEATURE_ID_SCHEMA, op: PART_OP_SCHEMA }),
  ],
} as const;

export function applyAssemblyOp(assembly: Assembly, op: AssemblyOp): Assembly {
  switch (op.type) {
    case 'add_part':
      if (assembly.parts.some((p) => p.id === op.part.id)) throw rejectOp(`a part with id ${JSON.stringify(op.part.id)} already exists`, { partId: op.part.id });
      checkPart(op.part.part);
      return { ...assembly, parts: [...assembly.parts, op.part] };
    case 'remove_part':
      indexOf(assembly, op.id);
      return { ...assembly, parts: assembly.parts.filter((p) => p.id !== op.id) };
    case 'place_part':
      return update(assembly, op.id, (p) => ({ ...p, placement: op.placement }));
    case 'edit_part':
      return update(assembly, op.id, (p) => ({ ...p, part: applyPartOp(p.part, op.op) }));
  }
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
