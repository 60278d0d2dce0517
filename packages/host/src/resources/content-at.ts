import { CoworkError } from '../errors';
import type { RegisteredKind } from '../plugins/registry';
import type { Json, ResourceRecord } from '../store/records';
import type { StoreTx } from '../store/store';
import { applyOps } from './kind-ops';

/**
 * The content of a resource at an old revision: the newest snapshot at or before it, with the ops
 * after that snapshot replayed through the kind's (pure) `applyOp`.
 */
export async function contentAt(
  tx: StoreTx,
  resource: ResourceRecord,
  kind: RegisteredKind,
  revision: number,
  maxBytes: number,
): Promise<Json> {
  if (revision === resource.revision) return resource.content;
  if (revision > resource.revision) {
    throw new CoworkError('not_found', `resource ${resource.id} has no revision ${revision} (latest is ${resource.revision})`, {
      resourceId: resource.id,
      revision,
      currentRevision: resource.revision,
    });
  }
  const snapshot = await tx.revisions.snapshotAtOrBefore(resource.id, revision);
  if (!snapshot) throw new Error(`resource ${resource.id} has no snapshot at or before revision ${revision}`);
  const later = await tx.revisions.list(resource.id, { after: snapshot.revision, upTo: revision });
  return applyOps(
    kind,
    snapshot.content,
    later.map((r) => r.op),
    maxBytes,
  ).content;
}
