import { CoworkError, isCoworkError, type ResourceReader } from '@cowork/host';
import type { Part } from '../part/content';
import type { Assembly, AssemblyPart, Placement } from './content';

/** A part of an assembly with its content at hand, inline or read from the revision it refers to. */
export type ResolvedPart = { id: string; name?: string; part: Part; placement: Placement };

/**
 * Reads every referenced part at the revision it names. A reference to a resource that does not
 * exist, is not a `cad.part`, or has no such revision is `invalid_content` naming the part.
 */
export async function resolveParts(assembly: Assembly, resources: ResourceReader): Promise<ResolvedPart[]> {
  const resolved: ResolvedPart[] = [];
  for (const p of assembly.parts) resolved.push({ id: p.id, ...(p.name !== undefined ? { name: p.name } : {}), part: await partOf(p, resources), placement: p.placement });
  return resolved;
}

/** What is wrong with the assembly's references, as sentences (empty when they all resolve). */
export async function referenceProblems(assembly: Assembly, resources: ResourceReader): Promise<string[]> {
  const problems: string[] = [];
  for (const p of assembly.parts) {
    if (!p.ref) continue;
    await partOf(p, resources).catch((error: unknown) => problems.push(error instanceof Error ? error.message : String(error)));
  }
  return problems;
}

async function partOf(p: AssemblyPart, resources: ResourceReader): Promise<Part> {
  if (!p.ref) return p.part!;
  const { resourceId, revision } = p.ref;
  const where = `part [${p.id}] refers to ${resourceId} revision ${revision}`;
  let resource;
  try {
    resource = await resources.get(resourceId);
  } catch (error) {
    if (isCoworkError(error) && (error.code === 'not_found' || error.code === 'invalid_input')) {
      throw new CoworkError('invalid_content', `${where}, but there is no such resource`, { partId: p.id, resourceId });
    }
    throw error;
  }
  if (resource.kind !== 'cad.part') throw new CoworkError('invalid_content', `${where}, which is a ${resource.kind}, not a cad.part`, { partId: p.id, resourceId, kind: resource.kind });
  if (revision > resource.revision) {
    throw new CoworkError('invalid_content', `${where}, but its newest revision is ${resource.revision}`, { partId: p.id, resourceId, revision, head: resource.revision });
  }
  return (revision === resource.revision ? resource.content : await resources.contentAt(resourceId, revision)) as Part;
}
