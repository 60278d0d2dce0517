import { CoworkError, defineKind, type ExportContext } from '@cowork/host';
import { kernelExport } from '../geometry/kernel-export';
import { initialPart, type Part } from '../part/content';
import { assemblyProblems } from './checks';
import { ASSEMBLY_SCHEMA, type Assembly, type Placement } from './content';
import { assemblyView, diffAssemblies, summarizeAssembly } from './describe';
import { ASSEMBLY_OP_SCHEMA, applyAssemblyOp, type AssemblyOp } from './ops';
import { referenceProblems, resolveParts } from './resolve';

/** `cad.assembly`: placed parts, checked for interference, exported as one STEP or mesh. */
export const assemblyKind = defineKind<Assembly, AssemblyOp>({
  name: 'cad.assembly',
  description:
    'An assembly of CAD parts with placements (rotate about x/y/z through the origin, then translate; mm). A part is held inline (a cad.part content) ' +
    'or refers to a revision of a cad.part resource ({resourceId, revision}). Edited by add_part, remove_part, place_part, edit_part (a cad.part op on an ' +
    'inline part) and set_part_ref (a referenced part at another revision); cad_check reports interference; exports step, stl and glb.',
  revisionSemantics: 'host',
  contentSchema: ASSEMBLY_SCHEMA,
  opSchema: ASSEMBLY_OP_SCHEMA,
  initialContent: () => ({ units: 'mm', parts: [{ id: 'part1', part: initialPart(), placement: { translate: [0, 0, 0] } }] }),
  applyOp: applyAssemblyOp,
  // Placements and inline parts must be within the kernel's ranges, and every reference must name a
  // cad.part revision that exists; the parts themselves are built on export and by cad_check.
  checkContent: async (assembly, context) => [...assemblyProblems(assembly), ...(await referenceProblems(assembly, context.resources))],
  summarize: summarizeAssembly,
  diff: diffAssemblies,
  view: assemblyView,
  exports: {
    step: kernelExport('step', 'The assembly as one STEP file (AP214), one solid per part.', placedParts),
    stl: kernelExport('stl', 'The assembly as one binary STL mesh.', placedParts),
    glb: kernelExport('glb', 'The assembly as one binary glTF mesh for three.js.', placedParts),
  },
});

/** Each part placed, referenced parts read at the revision they name. */
async function placedParts(assembly: Assembly, context: ExportContext): Promise<{ name: string; part: Part; placement: Placement }[]> {
  if (assembly.parts.length === 0) throw new CoworkError('invalid_content', 'the assembly has no parts to export; add one with add_part');
  return (await resolveParts(assembly, context.resources)).map((p) => ({ name: p.id, part: p.part, placement: p.placement }));
}
