import type { CommitTarget, Implementation, SyncMode, TargetSpec } from './commit-target';
import { ProtocolTarget, prepareProtocolWorkspace } from './protocol-target';
import { RawCasTarget, prepareRawDatabase } from './raw-cas';

/** Sets up `documents` fresh documents for `implementation` in the empty directory `dir`. */
export async function prepareTarget(
  implementation: Implementation,
  sync: SyncMode,
  dir: string,
  documents: number,
): Promise<TargetSpec> {
  const documentIds =
    implementation === 'protocol'
      ? await prepareProtocolWorkspace(dir, sync, documents)
      : prepareRawDatabase(dir, sync, documents);
  return { implementation, sync, dir, documentIds };
}

/** Opens one connection to a prepared target; each thread opens its own. */
export async function openTarget(spec: TargetSpec): Promise<CommitTarget> {
  return spec.implementation === 'protocol' ? ProtocolTarget.open(spec.dir, spec.sync) : new RawCasTarget(spec.dir, spec.sync);
}

/** Writer `index` (0-based) commits to this document: its own, or the one shared document. */
export function documentFor(spec: TargetSpec, index: number): string {
  const id = spec.documentIds[index % spec.documentIds.length];
  if (id === undefined) throw new Error('a target needs at least one document');
  return id;
}
