import { rejectOp } from '@cowork/host';
import type { EdgeSelector, Feature, Part } from './content';
import { evaluateNum, parameterNames, type Num } from './expression';

/**
 * The checks a part must pass without any geometry kernel: ids are unique, every reference names a
 * body made earlier that nothing else used, every number evaluates, and dimensions are positive.
 * `applyOp` runs them on every new content, so a commit can never leave a dangling reference.
 */

/** Something wrong with a part, attributed to the feature at fault when there is one. */
export type PartProblem = { featureId?: string; message: string };

type Rule = 'positive' | 'any';
export type NumberField = { field: string; value: Num; rule: Rule };

/** The ids of the earlier bodies a feature consumes. */
export function referencesOf(feature: Feature): string[] {
  switch (feature.type) {
    case 'union':
    case 'intersect':
      return feature.bodies;
    case 'cut':
      return [feature.target, ...feature.tools];
    case 'fillet':
    case 'chamfer':
    case 'translate':
    case 'rotate':
      return [feature.target];
    default:
      return [];
  }
}

/** Every number of a feature, named by its field, with the sign it must have. */
export function numbersOf(feature: Feature): NumberField[] {
  const at = (name: string, v: readonly Num[] | undefined): NumberField[] => (v ?? []).map((value, i) => ({ field: `${name}[${i}]`, value, rule: 'any' }));
  const one = (field: string, value: Num | undefined, rule: Rule): NumberField[] => (value === undefined ? [] : [{ field, value, rule }]);
  switch (feature.type) {
    case 'box':
      return [...one('width', feature.width, 'positive'), ...one('depth', feature.depth, 'positive'), ...one('height', feature.height, 'positive'), ...at('at', feature.at)];
    case 'cylinder':
      return [...one('radius', feature.radius, 'positive'), ...one('height', feature.height, 'positive'), ...at('at', feature.at)];
    case 'sphere':
      return [...one('radius', feature.radius, 'positive'), ...at('at', feature.at)];
    case 'extrude':
    case 'revolve': {
      const { sketch } = feature;
      const profile = sketch.profile;
      const own =
        feature.type === 'extrude' ? one('distance', feature.distance, 'positive') : one('angle', feature.angle, 'positive');
      const shape =
        profile.shape === 'rectangle'
          ? [...one('sketch.profile.width', profile.width, 'positive'), ...one('sketch.profile.height', profile.height, 'positive'), ...at('sketch.profile.center', profile.center)]
          : profile.shape === 'circle'
            ? [...one('sketch.profile.radius', profile.radius, 'positive'), ...at('sketch.profile.center', profile.center)]
            : profile.points.flatMap((point, i) => at(`sketch.profile.points[${i}]`, point));
      return [...own, ...one('sketch.offset', sketch.offset, 'any'), ...shape];
    }
    case 'fillet':
      return [...one('radius', feature.radius, 'positive'), ...edgeNumbers(feature.edges)];
    case 'chamfer':
      return [...one('distance', feature.distance, 'positive'), ...edgeNumbers(feature.edges)];
    case 'translate':
      return at('by', feature.by);
    case 'rotate':
      return [...one('angle', feature.angle, 'any'), ...at('origin', feature.origin)];
    default:
      return [];
  }
}

/** Evaluates one numeric field or throws an Error naming the field and the rule it breaks. */
export function fieldValue(field: NumberField, parameters: Part['parameters']): number {
  let value: number;
  try {
    value = evaluateNum(field.value, parameters);
  } catch (error) {
    throw new Error(`${field.field}: ${(error as Error).message}`);
  }
  if (field.rule === 'positive' && !(value > 0)) throw new Error(`${field.field} must be greater than 0 but is ${value}`);
  return value;
}

/** Every structural problem of a part, in feature order. */
export function partProblems(part: Part): PartProblem[] {
  const problems: PartProblem[] = [];
  const made = new Set<string>();
  const usedBy = new Map<string, string>();
  for (const feature of part.features) {
    const problem = (message: string): void => void problems.push({ featureId: feature.id, message: `feature ${feature.id} (${feature.type}): ${message}` });
    if (made.has(feature.id)) problem('another feature already has this id');
    const refs = referencesOf(feature);
    if ((feature.type === 'union' || feature.type === 'intersect') && refs.length < 2) problem(`${feature.type} needs at least two bodies`);
    for (const [i, ref] of refs.entries()) {
      if (refs.indexOf(ref) !== i) problem(`uses body ${ref} twice`);
      else if (!made.has(ref)) problem(`uses ${ref}, which is not a feature before it${ref === feature.id ? ' (it names itself)' : ''}`);
      else if (usedBy.has(ref)) problem(`uses body ${ref}, which feature ${usedBy.get(ref)} already consumed; use ${usedBy.get(ref)} instead`);
    }
    for (const field of numbersOf(feature)) {
      try {
        fieldValue(field, part.parameters);
      } catch (error) {
        problem((error as Error).message);
      }
    }
    if (feature.type === 'step' && !/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(feature.data)) problem('data is not base64');
    for (const ref of refs) if (!usedBy.has(ref)) usedBy.set(ref, feature.id);
    made.add(feature.id);
  }
  return problems;
}

/** Throws `rejectOp` listing the problems when the part has any. */
export function checkPart(part: Part): Part {
  const problems = partProblems(part);
  if (problems.length > 0) {
    throw rejectOp(problems.map((p) => p.message).join('; '), { problems: problems.map((p) => p.message), featureId: problems[0]?.featureId ?? null });
  }
  return part;
}

/** The parameters some feature's expression uses. */
export function usedParameters(part: Part): Map<string, string[]> {
  const used = new Map<string, string[]>();
  for (const feature of part.features) {
    for (const field of numbersOf(feature)) {
      let names: string[] = [];
      try {
        names = parameterNames(field.value);
      } catch {
        // an unreadable expression is reported by partProblems
      }
      for (const name of names) used.set(name, [...(used.get(name) ?? []), feature.id]);
    }
  }
  return used;
}

function edgeNumbers(edges: EdgeSelector | undefined): NumberField[] {
  return edges && 'offset' in edges && edges.offset !== undefined ? [{ field: 'edges.offset', value: edges.offset, rule: 'any' }] : [];
}
