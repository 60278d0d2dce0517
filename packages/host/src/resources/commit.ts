import type { ResourceReader } from '../plugins/resource-api';
import type { RegisteredKind } from '../plugins/registry';
import type { Json, Operator, ResourceRecord, RevisionAction, RevisionRecord } from '../store/records';
import type { StoreTx } from '../store/store';
import { applyOps, checkContentDomain, validateContent } from './kind-ops';
import type { ResourceDeps } from './resource-deps';
import { withFields } from '../util/objects';
import type { RevisionEvent } from '../plugins/revision-event';

/** A change about to be committed: ops of the kind, or a restore to an old content. */
export type Change =
  /** `texts`: the ops' JSON texts when the caller made them already. */
  | { readonly action: 'op'; readonly ops: readonly Json[]; readonly texts?: readonly string[] }
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

/** One revision a change makes: its record's action and op, and the content it leaves. */
interface Step {
  readonly action: RevisionAction;
  readonly op: Json;
  readonly content: Json;
  /** JSON texts of `op` and `content` when already made. */
  readonly opText?: string;
  readonly serialized?: string;
}

/** A step with the texts the store will write for its op and its content (see `Store.keepText`). */
interface StoredStep extends Step {
  readonly storedOp: string;
  readonly storedContent: string;
}

/** A change applied to the head it was made on, ready to be written. */
export interface PreparedChange {
  readonly base: ResourceRecord;
  readonly steps: readonly StoredStep[];
}

/**
 * A commit in two halves, so that no transaction is open while work that may be slow runs.
 *
 * `prepareChange` applies the change to the head it was made on, once: each op through the kind's
 * pure `applyOp` (which refuses an op that does not fit), the kind's `checkContent` on the result
 * (which may take a CAD kernel's seconds), and, for an `external` kind, each op performed in the
 * application, whose reported content is what the revision records. It runs outside any store
 * transaction: a Blender op holds only its own resource's lock, and every other resource's reads
 * and commits go on.
 *
 * `writeChange` runs inside the write transaction and writes the prepared revisions only if the
 * head is still the one they were made on (compare-and-set); otherwise it writes nothing and reports
 * where the head is, and the caller keeps the op as a candidate or reports the conflict.
 */
export async function prepareChange(
  deps: ResourceDeps,
  kind: RegisteredKind,
  head: ResourceRecord,
  change: Change,
  options: { perform?: PerformOp; resources: ResourceReader },
): Promise<PreparedChange> {
  const steps = await applyChange(deps, kind, head, change, options);
  // Large texts are written now, before the transaction and off the event loop (see Store.keepText).
  const stored: StoredStep[] = [];
  for (const step of steps) {
    stored.push(withFields(step, { storedOp: await deps.store.keepText(step.opText ?? JSON.stringify(step.op)), storedContent: await deps.store.keepText(step.serialized ?? JSON.stringify(step.content)) }));
  }
  return { base: head, steps: stored };
}

async function applyChange(
  deps: ResourceDeps,
  kind: RegisteredKind,
  head: ResourceRecord,
  change: Change,
  options: { perform?: PerformOp; resources: ResourceReader },
): Promise<Step[]> {
  const limit = deps.limits.maxContentBytes;
  if (change.action === 'restore') {
    return [{ action: 'restore', op: { toRevision: change.toRevision }, content: change.content }];
  }
  if (change.action === 'external') {
    const checked = validateContent(kind, change.content, limit);
    return [{ action: 'external', op: { note: change.note, uncertainRevisions: [...change.uncertainRevisions] }, ...checked }];
  }
  const steps: Step[] = [];
  let current = head.content;
  let revision = head.revision;
  for (const [i, op] of change.ops.entries()) {
    // The kind's model refuses an op that cannot apply before the application is touched.
    let next = applyOps(kind, current, [op], limit);
    revision += 1;
    if (options.perform) next = validateContent(kind, await options.perform(op, revision), limit);
    current = next.content;
    steps.push({ action: 'op', op, content: next.content, serialized: next.serialized, opText: change.texts?.[i] });
  }
  // An application checks its own contents; a host kind's domain check sees the content to be written.
  if (!options.perform && kind.kind.checkContent && steps.length > 0) await checkContentDomain(kind, current, 'invalid_op', options.resources);
  return steps;
}

/** Writes a prepared change if the head has not moved since it was prepared (inside the write transaction). */
export async function writeChange(deps: ResourceDeps, tx: StoreTx, kind: RegisteredKind, prepared: PreparedChange, operator: Operator): Promise<CommitOutcome> {
  const { base } = prepared;
  const currentRevision = await tx.resources.headRevision(base.id);
  if (currentRevision !== base.revision) return { ok: false, currentRevision: currentRevision ?? base.revision };
  const at = deps.now();
  const revisions: RevisionRecord[] = [];
  let revision = base.revision;
  for (const step of prepared.steps) {
    revision += 1;
    const record: RevisionRecord = { resourceId: base.id, revision, action: step.action, op: step.op, operator, createdAt: at };
    await tx.revisions.insert(record, { op: step.storedOp, snapshot: needsSnapshot(deps, kind, step.action, revision) ? step.storedContent : undefined });
    revisions.push(record);
  }
  const last = prepared.steps[prepared.steps.length - 1];
  const content = last?.content ?? base.content;
  // Compare-and-set: a store with weaker isolation than SQLite's still cannot commit twice.
  const advanced = await tx.resources.advanceHead(base.id, base.revision, { revision, content, updatedAt: at, serialized: last?.storedContent });
  if (!advanced) throw new Error(`resource ${base.id} moved during its own write transaction`);
  return { ok: true, revisions, head: withFields(base, { revision, content, updatedAt: at }) };
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

function needsSnapshot(deps: ResourceDeps, kind: RegisteredKind, action: RevisionAction, revision: number): boolean {
  // External kinds cannot be replayed by the host; restores break the op chain.
  return kind.kind.revisionSemantics === 'external' || action !== 'op' || revision % deps.limits.snapshotEvery === 0;
}
