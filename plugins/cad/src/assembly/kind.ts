import { CoworkError, defineKind, type ExportFormat } from '@cowork/host';
import { sharedKernel } from '../geometry/kernel';
import type { MeshFormat } from '../geometry/protocol';
import { initialPart } from '../part/content';
import { STEP_MEDIA_TYPE, brokenPart } from '../part/kind';
import { ASSEMBLY_SCHEMA, type Assembly } from './content';
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
  // Every reference must name a cad.part revision that exists; the parts themselves are built on export and by cad_check.
  checkContent: (assembly, context) => referenceProblems(assembly, context.resources),
  summarize: summarizeAssembly,
  diff: diffAssemblies,
  view: assemblyView,
  exports: {
    step: assemblyExport('step', STEP_MEDIA_TYPE, 'The assembly as one STEP file (AP214), one solid per part.'),
    stl: assemblyExport('stl', 'model/stl', 'The assembly as one binary STL mesh.'),
    glb: assemblyExport('glb', 'model/gltf-binary', 'The assembly as one binary glTF mesh for three.js.'),
  },
});

function assemblyExport(format: MeshFormat, mediaType: string, description: string): ExportFormat<Assembly> {
  return {
    mediaType,
    extension: format,
    description,
    export: async (assembly, context) => {
      context.signal.throwIfAborted();
      if (assembly.parts.length === 0) throw new CoworkError('invalid_content', 'the assembly has no parts to export; add one with add_part');
      const bodies = (await resolveParts(assembly, context.resources)).map((p) => ({ name: p.id, part: p.part, placement: p.placement }));
      try {
        return await sharedKernel().exportBodies(bodies, format, `${context.resourceId}-r${context.revision}`);
      } catch (error) {
        throw brokenPart(error, context.revision);
      }
    },
  };
}
