import { rangeProblem } from '../part/limits';
import { partProblems } from '../part/structure';
import type { Assembly, AssemblyPart, Placement } from './content';

/**
 * The checks an assembly's own numbers and inline parts must pass before any kernel sees them:
 * placements within reach of the kernel (finite, at most `maxLength` from the origin, at most a
 * full turn), and each inline part as a `cad.part` would be checked.
 */
export function placementProblems(placement: Placement): string[] {
  const problems: string[] = [];
  placement.translate.forEach((value, i) => {
    const problem = rangeProblem(value, 'position');
    if (problem) problems.push(`placement.translate[${i}] ${problem}`);
  });
  const turn = placement.rotate && rangeProblem(placement.rotate.angle, 'rotation');
  if (turn) problems.push(`placement.rotate.angle ${turn}`);
  return problems;
}

/** Every problem of one part of an assembly, each naming the part. */
export function assemblyPartProblems(part: AssemblyPart): string[] {
  const own = [...placementProblems(part.placement), ...(part.part ? partProblems(part.part).map((p) => p.message) : [])];
  return own.map((message) => `part [${part.id}]: ${message}`);
}

export function assemblyProblems(assembly: Assembly): string[] {
  return assembly.parts.flatMap(assemblyPartProblems);
}
