/**
 * The CAD plugin: parametric parts (`cad.part`) and assemblies (`cad.assembly`) built by
 * OpenCascade (replicad's WASM build) in one worker thread, exported to STEP, STL and GLB, and
 * checked by the `cad_check` and `cad_edit` tools.
 */
import { definePlugin, type ToolDefinition } from '@cowork/host';
import { assemblyKind } from './assembly/kind';
import { sharedKernel } from './geometry/kernel';
import { partKind } from './part/kind';
import { cadSuite } from './suite';
import { cadCheckTool } from './tools/cad-check';
import { cadEditTool } from './tools/cad-edit';

export { partKind } from './part/kind';
export { assemblyKind } from './assembly/kind';
export { cadSuite } from './suite';
export { sharedKernel, type CadKernel, type Evaluation } from './geometry/kernel';
export type { Axis, EdgeSelector, Feature, Part, PlaneName, Profile, Sketch } from './part/content';
export type { PartOp } from './part/ops';
export type { Assembly, AssemblyPart, Placement } from './assembly/content';
export type { AssemblyOp } from './assembly/ops';

export const plugin = definePlugin({
  name: 'cad',
  version: '0.1.0',
  description: 'Parametric CAD parts and assemblies on OpenCascade (WASM): feature trees edited by ops, checked, exported to STEP, STL and GLB.',
  kinds: [partKind, assemblyKind],
  tools: [cadEditTool, cadCheckTool] as ToolDefinition[],
  // `cowork bench run cad`: tasks in ../suite, judged by FreeCAD reading the STEP exports and by cad_check.
  suites: [cadSuite],
  // A server loads OpenCascade (about half a second) when it starts, not on its first request.
  start: ({ longLived }) => sharedKernel().acquire({ warm: longLived }),
  close: () => sharedKernel().release(),
});
