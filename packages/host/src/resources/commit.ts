import type { RegisteredKind } from '../plugins/registry';
import type { Json, Operator, ResourceRecord, RevisionAction, RevisionRecord } from '../store/records';
import type { StoreTx } from '../store/store';
import { applyOpsSerialised, validateContentSerialised } from './kind-ops';
import type { ResourceDeps } from './resource-deps';
import type { RevisionEvent } from '../plugins/revision-event';

/** A change about to be committed: ops of the kind, or a restore to an old content. */
export type Change =
  | { readonly action: 'op'; readonly ops: readonly Json[] }
  | { readonly action: 'restore'; readonly toRevision: number; readonly content: Json }
  /** What an external application reports after a change nobody committed through the host. */
  | { readonly action: 'external'; readonly content: Json; readonly note: string; readonly uncertainRevisions: readonly number[] };

/**
 * Performs one op in the outside application of an `external` kind and resolves with the content
 * observed after it (see plugins/external.ts); host kinds have none.
 */
export type PerformOp = (op: Json, revision: number) => Promise<Json>;

export type CommitOutcome =
  | { readonly ok: true; readonly revisions: RevisionRecord[]; readonly head: ResourceRecord }
  | { readonly ok: false; readonly currentRevision: number };

/**
 * The one commit function every path into the protocol shares (direct commits, candidate
 * acceptance, restore). Runs inside a store transaction, which is the resource's write lock: the
 * change applies only if `baseRevision` is the current revision. Each op becomes one revision.
 * On a conflict it writes nothing and reports the current revision; the caller decides what to keep.
 * With `perform` (an external kind), each op is checked against the kind's model, performed in the
 * application, and the content the application reports is what the revision records.
 */
export async function commitChange(
  deps: ResourceDeps,
  tx: StoreTx,
  resource: ResourceRecord,
  kind: RegisteredKind,
  change: Change,
  baseRevision: number,
  operator: Operator,
  perform?: PerformOp,
): Promise<CommitOutcome> {
  if (resource.revision !== baseRevision) return { ok: false, currentRevision: resource.revision };
  const at = deps.now();
  const steps = await changeSteps(deps, kind, resource, change, perform);
  const revisions: RevisionRecord[] = [];
  let revision = resource.revision;
  for (const step of steps) {
    revision += 1;
    const record: RevisionRecord = {
      resourceId: resource.id,
      revision,
      action: step.action,
      op: step.op,
      operator,
      createdAt: at,
    };
    if (needsSnapshot(deps, kind, step.action, revision)) await tx.revisions.insert(record, step.content, step.serialized);
    else await tx.revisions.insert(record);
    revisions.push(record);
  }
  const last = steps[steps.length - 1];
  const content = last?.content ?? resource.content;
  // Compare-and-set: a store with weaker isolation than SQLite's still cannot commit twice.
  const advanced = await tx.resources.advanceHead(resource.id, baseRevision, { revision, content, updatedAt: at, serialized: last?.serialized });
  if (!advanced) throw new Error(`resource ${resource.id} moved during its own write transaction`);
  return { ok: true, revisions, head: { ...resource, revision, content, updatedAt: at } };
}

/** The events to publish once the transaction that made `revisions` is durable. */
export function revisionEvents(kind: string, revisions: readonly RevisionRecord[]): RevisionEvent[] {
  return revisions.map((r) => ({
    resourceId: r.resourceId,
    kind,
    revision: r.revision,
    action: r.action,
    operator: r.operator,
    op: r.op,
  }));
}

interface Step {
  action: RevisionAction;
  op: Json;
  content: Json;
  /** JSON text of `content` when already made; the store serialises it otherwise. */
  serialized?: string;
}

async function changeSteps(deps: ResourceDeps, kind: RegisteredKind, resource: ResourceRecord, change: Change, perform?: PerformOp): Promise<Step[]> {
  if (change.action === 'restore') {
    return [{ action: 'restore', op: { toRevision: change.toRevision }, content: change.content }];
  }
  if (change.action === 'external') {
    const checked = validateContentSerialised(kind, change.content, deps.limits.maxContentBytes);
    return [{ action: 'external', op: { note: change.note, uncertainRevisions: [...change.uncertainRevisions] }, ...checked }];
  }
  const steps: Step[] = [];
  let current = resource.content;
  let revision = resource.revision;
  for (const op of change.ops) {
    // The kind's model refuses an op that cannot apply before the application is touched.
    let next = applyOpsSerialised(kind, current, [op], deps.limits.maxContentBytes);
    revision += 1;
    if (perform) next = validateContentSerialised(kind, await perform(op, revision), deps.limits.maxContentBytes);
    current = next.content;
    steps.push({ action: 'op', op, content: next.content, serialized: next.serialized });
  }
  return steps;
}

function needsSnapshot(deps: ResourceDeps, kind: RegisteredKind, action: RevisionAction, revision: number): boolean {
  // External kinds cannot be replayed by the host; restores break the op chain.
  return kind.kind.revisionSemantics === 'external' || action !== 'op' || revision % deps.limits.snapshotEvery === 0;
}
