import type { ViewBlock, ViewContext } from '@cowork/host';
import { diffParts, featureLine } from '../part/describe';
import type { Assembly, AssemblyPart } from './content';

/** Each part with its placement and features. */
export function summarizeAssembly(assembly: Assembly): string {
  const lines = [`assembly (mm): ${assembly.parts.length} part${assembly.parts.length === 1 ? '' : 's'}`];
  for (const part of assembly.parts) {
    lines.push(`- ${partHead(part)}`);
    if (part.part) for (const feature of part.part.features) lines.push(`    ${featureLine(feature, part.part.parameters)}`);
  }
  return lines.join('\n');
}

/** Parts added, removed or moved, and inside each kept part the part diff. */
export function diffAssemblies(before: Assembly, after: Assembly): string {
  const lines: string[] = [];
  const old = new Map(before.parts.map((p) => [p.id, p]));
  const now = new Set(after.parts.map((p) => p.id));
  for (const part of before.parts) if (!now.has(part.id)) lines.push(`removed part ${partHead(part)}`);
  for (const part of after.parts) {
    const was = old.get(part.id);
    if (!was) {
      lines.push(`added part ${partHead(part)}`);
      continue;
    }
    if (JSON.stringify(was.placement) !== JSON.stringify(part.placement)) lines.push(`part [${part.id}] moved: ${placementText(was)} → ${placementText(part)}`);
    if (was.part && part.part && JSON.stringify(was.part) !== JSON.stringify(part.part)) lines.push(...diffParts(was.part, part.part).split('\n').map((l) => `part [${part.id}]: ${l}`));
    else if (JSON.stringify(was.ref ?? was.part) !== JSON.stringify(part.ref ?? part.part)) lines.push(`part [${part.id}]: ${sourceText(was)} → ${sourceText(part)}`);
  }
  return lines.length === 0 ? 'no changes' : lines.join('\n');
}

export function assemblyView(assembly: Assembly, context: ViewContext): ViewBlock[] {
  return [
    { type: 'heading', text: 'CAD assembly', level: 1 },
    { type: 'model', url: context.exportUrl('glb'), alt: `the assembly at revision ${context.revision}` },
    { type: 'table', header: ['part', 'placement', 'features'], rows: assembly.parts.map((p) => [`${p.name ?? p.id} [${p.id}]`, placementText(p), p.part ? String(p.part.features.length) : `${p.ref?.resourceId} revision ${p.ref?.revision}`]) },
    { type: 'paragraph', text: 'Run cad_check for volumes and interference between parts.' },
  ];
}

function partHead(part: AssemblyPart): string {
  return `[${part.id}]${part.name ? ` ${JSON.stringify(part.name)}` : ''} at ${placementText(part)}, ${sourceText(part)}`;
}

/** What a part is made of: its features inline, or the cad.part revision it refers to. */
function sourceText(part: AssemblyPart): string {
  return part.part ? `${part.part.features.length} features` : `${part.ref?.resourceId} revision ${part.ref?.revision}`;
}

function placementText({ placement }: AssemblyPart): string {
  const rotation = placement.rotate ? ` rotated ${placement.rotate.angle}° about ${placement.rotate.axis}` : '';
  return `(${placement.translate.join(', ')})${rotation}`;
}
