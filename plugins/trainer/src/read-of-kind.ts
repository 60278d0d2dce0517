import { isCoworkError, type ResourceReader } from '@cowork/host';
import { trainerError } from './errors';

/**
 * A resource that must exist and be of `kind`: a missing one is `missing_resource` and another kind
 * `wrong_kind`, both naming `what` ("the dataset", "the parent checkpoint"). Any other failure (the
 * store busy, a read error) passes through as it is, never disguised as a missing resource.
 */
export async function readOfKind<Content>(resources: ResourceReader, id: string, kind: string, what: string): Promise<{ revision: number; content: Content }> {
  let record;
  try {
    record = await resources.get(id);
  } catch (error) {
    if (isCoworkError(error) && error.code === 'not_found') throw trainerError('missing_resource', `${what} ${id} does not exist`, { resourceId: id });
    throw error;
  }
  if (record.kind !== kind) throw trainerError('wrong_kind', `${id} is a ${record.kind}, not a ${kind}`, { resourceId: id });
  return { revision: record.revision, content: record.content as Content };
}
