import { defineKind, rejectFile, type ExportContext } from '@cowork/host';
import { KernelError, sharedKernel } from '../geometry/kernel';
import { kernelExport } from '../geometry/kernel-export';
import { MAX_STEP_BASE64, PART_SCHEMA, initialPart, type Part } from './content';
import { diffParts, summarizePart } from './describe';
import { partView } from './view';
import { PART_OP_SCHEMA, applyPartOp, validatePartOp, type PartOp } from './ops';
import { partProblems } from './structure';

/**
 * `cad.part`: a parametric solid owned by the host. Ops edit parameters and features; the
 * OpenCascade kernel (in a worker) builds, measures and exports it, and checks every content
 * before it is written. `summarize` and `view` show the
 * measures once the kernel has them for this content (they start computing on first sight).
 */
export const partKind = defineKind<Part, PartOp>({
  name: 'cad.part',
  description:
    'A parametric CAD part (mm, degrees): named parameters and a feature tree (box, cylinder, sphere, extruded or revolved sketch, ' +
    'union/cut/intersect, fillet/chamfer, translate/rotate, imported STEP solid); numbers may be expressions over parameters. ' +
    'Lengths are 1e-6 to 1e6 mm, positions within 1e6 mm, a revolve 0.001 to 360 degrees, rotations within ±360 degrees. ' +
    'Edited by set_parameter, delete_parameter, add_feature, edit_feature, set_dimension (one number or point of a feature by name: width, at, sketch.profile.radius) and remove_feature; exports step (AP214), stl and glb; imports step.',
  revisionSemantics: 'host',
  contentSchema: PART_SCHEMA,
  opSchema: PART_OP_SCHEMA,
  initialContent: initialPart,
  validateOp: validatePartOp,
  applyOp: applyPartOp,
  // Every way a part is written (any edge, a candidate accepted, a create) must leave a part that
  // builds: a fillet too large for its edges or a cut that leaves nothing is refused, naming the feature.
  // The structural checks come first, so that a size the kernel would spin on (a 1e-30 mm sphere) never reaches it.
  checkContent: async (part) => {
    const problems = partProblems(part);
    if (problems.length > 0) return problems.map((p) => p.message);
    const evaluation = await sharedKernel().evaluate(part);
    return evaluation.ok ? [] : [`the part would not build: ${evaluation.message}${evaluation.featureId ? ` (fix or remove feature ${evaluation.featureId})` : ''}`];
  },
  summarize: (part) => summarizePart(part, sharedKernel().known(part)),
  diff: diffParts,
  view: (part, context) => partView(part, sharedKernel().known(part), context),
  exports: {
    step: kernelExport('step', 'The part as a STEP file (AP214, millimetres), one solid body.', onePart),
    stl: kernelExport('stl', 'The part as a binary STL mesh (millimetres).', onePart),
    glb: kernelExport('glb', 'The part as a binary glTF mesh for three.js (Y-up, metres).', onePart),
  },
  imports: {
    step: {
      extension: 'step',
      description: 'A STEP file (AP203, AP214 or AP242) with at least one solid: the new part holds it as its one feature.',
      import: async (data, context) => {
        context.signal.throwIfAborted();
        const base64 = Buffer.from(data).toString('base64');
        if (base64.length > MAX_STEP_BASE64) throw rejectFile(`the STEP file is ${mb(data.length)} MB; a part holds at most ${mb((MAX_STEP_BASE64 * 3) / 4)} MB`);
        try {
          await sharedKernel().readStep(data);
        } catch (error) {
          if (error instanceof KernelError && error.failure.geometry) throw rejectFile(`${context.fileName ?? 'the file'}: ${error.message}; export it from your CAD program as STEP with solids`);
          throw error;
        }
        return { units: 'mm', parameters: {}, features: [{ id: 'imported', type: 'step', data: base64, ...(context.fileName ? { fileName: context.fileName } : {}) }] };
      },
    },
  },
});

/** A part exports as itself, named after its revision. */
async function onePart(part: Part, context: ExportContext): Promise<{ name: string; part: Part }[]> {
  return [{ name: `${context.resourceId}-r${context.revision}`, part }];
}

function mb(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}
