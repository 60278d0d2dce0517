import { rejectOp } from '@cowork/host';
import type { Feature, Part } from './content';
import { dimensionsOf, readDimension } from './dimensions';
import { evaluateNum, parameterNames, type Num } from './expression';
import { LIMITS, rangeProblem, unstorableName, type Limits, type Rule } from './limits';

/**
 * The checks a part must pass without any geometry kernel: parameter names can be stored and their
 * values are finite, ids are unique, every reference names a body made earlier that nothing else
 * used, and every number evaluates within the range the kernel can build (./limits.ts). `applyOp`
 * runs them on every new content and the kind's `checkContent` before the kernel sees one, so a
 * commit can never leave a dangling reference nor hand OpenCascade a size it would spin on.
 */

/** Something wrong with a part, attributed to the feature at fault when there is one. */
export type PartProblem = { featureId?: string; message: string };

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

/** Every number of a feature, named by its field (`at[1]` for a point's second), with the range it must be in. */
export function numbersOf(feature: Feature): NumberField[] {
  const numbers = dimensionsOf(feature).flatMap((dimension): NumberField[] => {
    const value = readDimension(feature, dimension.path);
    if (value === undefined) return [];
    const { path: field, rule } = dimension;
    return Array.isArray(value) ? value.map((item, i) => ({ field: `${field}[${i}]`, value: item, rule })) : [{ field, value, rule }];
  });
  if ((feature.type === 'extrude' || feature.type === 'revolve') && feature.sketch.profile.shape === 'polygon') {
    feature.sketch.profile.points.forEach((point, p) => point.forEach((value, i) => numbers.push({ field: `sketch.profile.points[${p}][${i}]`, value, rule: 'position' })));
  }
  return numbers;
}

/** Evaluates one numeric field or throws an Error naming the field and the range it breaks. */
export function fieldValue(field: NumberField, parameters: Part['parameters'], limits: Limits = LIMITS): number {
  let value: number;
  try {
    value = evaluateNum(field.value, parameters);
  } catch (error) {
    throw new Error(`${field.field}: ${(error as Error).message}`);
  }
  const problem = rangeProblem(value, field.rule, limits);
  if (problem) throw new Error(`${field.field} ${problem}`);
  return value;
}

/** What is wrong with the parameters themselves: a name no object can hold, a value that is not a finite number. */
export function parameterProblems(parameters: Part['parameters']): string[] {
  const problems: string[] = [];
  for (const [name, value] of Object.entries(parameters)) {
    if (unstorableName(name)) problems.push(`parameter name ${JSON.stringify(name)} is reserved; choose another name`);
    else if (!Number.isFinite(value)) problems.push(`parameter ${name} must be a finite number but is ${value}`);
  }
  return problems;
}

/** Every structural problem of a part: its parameters', then each feature's in order. */
export function partProblems(part: Part, limits: Limits = LIMITS): PartProblem[] {
  const problems: PartProblem[] = parameterProblems(part.parameters).map((message) => ({ message }));
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
    let numbersOk = true;
    for (const field of numbersOf(feature)) {
      try {
        fieldValue(field, part.parameters, limits);
      } catch (error) {
        numbersOk = false;
        problem((error as Error).message);
      }
    }
    if (numbersOk && (feature.type === 'extrude' || feature.type === 'revolve') && feature.sketch.profile.shape === 'polygon') {
      const short = shortEdge(feature.sketch.profile.points, part.parameters, limits);
      if (short !== undefined) problem(`sketch.profile.points[${short}] and the next point are closer than ${limits.minLength} mm; give each corner once`);
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

/**
 * The index of the first polygon point that (nearly) repeats the next one: replicad cannot draw a
 * zero-length edge. Ending on the first point again is allowed (the polygon closes on it).
 */
function shortEdge(points: readonly (readonly Num[])[], parameters: Part['parameters'], limits: Limits): number | undefined {
  const xy = points.map(([x, y]) => [evaluateNum(x!, parameters), evaluateNum(y!, parameters)] as const);
  for (let i = 0; i < xy.length; i++) {
    const [a, b] = [xy[i]!, xy[(i + 1) % xy.length]!];
    const last = i === xy.length - 1;
    if (last && a[0] === b[0] && a[1] === b[1]) continue;
    if (Math.hypot(a[0] - b[0], a[1] - b[1]) < limits.minLength) return i;
  }
  return undefined;
}
