import type { ViewBlock, ViewContext } from '@cowork/host';
import type { Evaluation } from '../geometry/kernel';
import type { Feature, Part } from './content';
import { featureLine } from './describe';
import { dimensionsOf, readDimension, type Dimension } from './dimensions';
import { ruleRange } from './limits';
import { numbersOf, referencesOf } from './structure';

/**
 * The part as people edit it in the page: the 3D model (the glb export of the revision shown, so
 * it follows every commit), its measures as a table, the parameter table as number fields held to
 * the ranges the features using them allow, and one group per feature (choosing it selects the
 * feature for the agents) with its numbers editable. Every control commits one of the kind's ops,
 * so the kernel judges every value a person types before anything is written.
 */
export function partView(part: Part, measures: Evaluation | undefined, context: ViewContext): ViewBlock[] {
  return [
    { type: 'heading', text: 'CAD part', level: 1 },
    { type: 'model', url: context.exportUrl('glb'), alt: `the part at revision ${context.revision}` },
    { type: 'heading', text: 'Measures', level: 2 },
    measuresBlock(measures),
    { type: 'heading', text: 'Parameters', level: 2 },
    ...Object.entries(part.parameters).map(([name, value]): ViewBlock => ({ ...parameterBounds(part, name), type: 'field', label: `Parameter ${name}`, value, op: { type: 'set_parameter', name }, field: 'value', input: 'number' })),
    {
      type: 'action',
      label: 'Add parameter',
      op: { type: 'set_parameter' },
      inputs: [
        { field: 'name', label: 'New parameter name', input: 'text' },
        { field: 'value', label: 'New parameter value', input: 'number' },
      ],
    },
    { type: 'heading', text: 'Features', level: 2 },
    ...part.features.map((feature, index) => featureGroup(part, feature, index)),
  ];
}

function measuresBlock(measures: Evaluation | undefined): ViewBlock {
  if (!measures) return { type: 'paragraph', text: 'Measures: being computed; they show with the next revision or a reload.' };
  if (!measures.ok) return { type: 'paragraph', text: `The part does not build: ${measures.message}` };
  const { min, max } = measures.bbox;
  const point = (p: readonly number[]): string => `(${p.map(round).join(', ')}) mm`;
  return {
    type: 'table',
    header: ['Measure', 'Value'],
    rows: [
      ['Volume', `${round(measures.volume)} mm³`],
      ['Bounding box', `${[0, 1, 2].map((i) => round(max[i]! - min[i]!)).join(' × ')} mm`],
      ['From', point(min)],
      ['To', point(max)],
      ['Solids', String(measures.solids)],
      ['Faces', String(measures.faces)],
      ['Valid', measures.valid ? 'yes' : 'no'],
    ],
  };
}

/**
 * The range and unit of a parameter where features use it as a whole number (`width`, not
 * `width / 2`): the tightest of those uses' ranges. An expression's range depends on the others,
 * so a parameter used only in expressions has no bounds here (the kind's checks still judge it).
 */
function parameterBounds(part: Part, name: string): { min?: number; max?: number; unit?: string } {
  const ranges = part.features.flatMap((f) => numbersOf(f)).flatMap((n) => (typeof n.value === 'string' && n.value.trim() === name ? [ruleRange(n.rule)] : []));
  if (ranges.length === 0) return {};
  const units = new Set(ranges.map((r) => r.unit));
  return {
    min: Math.max(...ranges.map((r) => r.min)),
    max: Math.min(...ranges.map((r) => r.max)),
    ...(units.size === 1 ? { unit: unitSymbol([...units][0]!) } : {}),
  };
}

function featureGroup(part: Part, feature: Feature, index: number): ViewBlock {
  const usedBy = part.features.find((f) => referencesOf(f).includes(feature.id));
  const blocks: ViewBlock[] = [{ type: 'paragraph', text: featureLine(feature, part.parameters) }, ...dimensionsOf(feature).flatMap((d) => dimensionField(feature, d))];
  blocks.push(
    usedBy
      ? { type: 'paragraph', text: `Used by feature ${usedBy.id}; remove or change that one to remove this.` }
      : { type: 'action', label: `Remove feature ${feature.id}`, op: { type: 'remove_feature', id: feature.id } },
  );
  return { type: 'group', title: `Feature ${index + 1}: ${feature.id} (${feature.type})`, selection: { featureId: feature.id }, blocks };
}

/**
 * A field for one dimension: a number held to its range, a point as numbers, or an expression as
 * text (typing a plain number there makes it a number). A point holding an expression is shown
 * in the feature's line only.
 */
function dimensionField(feature: Feature, dimension: Dimension): ViewBlock[] {
  const value = readDimension(feature, dimension.path) ?? dimension.fallback;
  if (value === undefined) return [];
  const { min, max, unit } = ruleRange(dimension.rule);
  const base = { type: 'field', label: `Feature ${feature.id} ${words(dimension.path)}`, op: { type: 'set_dimension', id: feature.id, dimension: dimension.path }, field: 'value', unit: unitSymbol(unit) } as const;
  if (Array.isArray(value)) return value.every((v) => typeof v === 'number') ? [{ ...base, value: value as number[], input: 'numbers' }] : [];
  return typeof value === 'number' ? [{ ...base, value, input: 'number', min, max }] : [{ ...base, label: `${base.label} (expression)`, value, input: 'text' }];
}

/** `sketch.profile.radius` → `profile radius`, `edges.offset` → `edges offset`. */
function words(path: string): string {
  return path.replace(/^sketch\.profile\./, 'profile ').replace(/\./g, ' ');
}

function unitSymbol(unit: 'mm' | 'degrees'): string {
  return unit === 'mm' ? 'mm' : '°';
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
