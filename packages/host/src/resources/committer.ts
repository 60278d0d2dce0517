import { CoworkError } from '../errors';
import type { ExternalObservation } from '../plugins/external';
import type { ResourceReader } from '../plugins/resource-api';
import { callPluginAsync, type RegisteredKind } from '../plugins/registry';
import type { IdempotencyClaim } from '../store/idempotency';
import type { Json, Operator, ResourceRecord } from '../store/records';
import type { StoreTx } from '../store/store';
import { jsonEqual } from '../util/json';
import { keepCandidate } from './candidates';
import { prepareChange, revisionEvents, writeChange, type Change, type CommitOutcome, type PerformOp, type PreparedChange } from './commit';
import { revisionConflict } from './conflict';
import { HeadCache } from './head-cache';
import type { ResourceDeps } from './resource-deps';

/** Everything one commit needs; every path into the protocol (commit, accept, restore, observation) is one of these. */
export interface CommitOptions {
  readonly resourceId: string;
  readonly kind: RegisteredKind;
  /** The revision the change was made on; `head` for a change made on whatever is current (an observation). */
  readonly baseRevision: number | 'head';
  readonly operator: Operator;
  /** The change, made from the head it applies to; undefined when there is nothing to commit. */
  readonly change: (head: ResourceRecord) => Promise<Change | undefined> | Change | undefined;
  /** On a conflict: keep these ops as a new candidate, or report this candidate (the one being accepted stays open). */
  readonly onConflict: { readonly keep: readonly Json[] } | { readonly candidateId: string | null };
  readonly claim?: IdempotencyClaim;
  /** More writes in the same transaction once the revisions are written (closing an accepted candidate). */
  readonly afterCommit?: (tx: StoreTx, revision: number) => Promise<void>;
  /** For an `external` kind: performs each op in the application (see commit.ts). */
  readonly perform?: PerformOp;
}

/** What an idempotent commit recorded, replayed for a repeated key. */
type RecordedCommit =
  | { ok: true; revision: number }
  | { ok: false; baseRevision: number; currentRevision: number; candidateId: string | null };

/**
 * The one commit path of the resource protocol. A commit reads the head, prepares the change on it
 * outside any transaction (applied once: see commit.ts), then in one write transaction checks its
 * idempotency key, writes the revisions if the head has not moved (or keeps the op as a candidate
 * when it has), and records the key. Revision events are published only after that transaction is
 * durable, and the head is cached for the next commit.
 */
export class Committer {
  private readonly heads = new HeadCache();
  /** `resourceId@baseRevision` of the commits this process is preparing or writing, with how many. */
  private readonly writing = new Map<string, number>();

  constructor(
    private readonly deps: ResourceDeps,
    private readonly reader: ResourceReader,
  ) {}

  async commit(o: CommitOptions): Promise<{ resourceId: string; revision: number }> {
    return this.attempt(o, true);
  }

  /**
   * One attempt. With `mayDefer`, a commit on a base that another commit of this process is already
   * writing does not prepare its change: that one will most likely move the head first, and then
   * this one only keeps its op as a candidate (preparing may run a CAD kernel for seconds). Should
   * its transaction find the head still at its base (the other failed, or has not reached the store
   * yet), it writes nothing and the commit is attempted again, prepared.
   */
  private async attempt(o: CommitOptions, mayDefer: boolean): Promise<{ resourceId: string; revision: number }> {
    const id = o.resourceId;
    const prior = o.claim && (await this.deps.store.read((tx) => o.claim!.prior(tx)));
    if (prior !== undefined) return replay(id, prior as RecordedCommit);
    const head = this.knownHead(id, o.baseRevision) ?? (await this.deps.store.read((tx) => this.requireHead(tx, id)));
    const baseRevision = o.baseRevision === 'head' ? head.revision : o.baseRevision;
    const writing = `${id}@${baseRevision}`;
    const deferred = mayDefer && o.baseRevision !== 'head' && head.revision === baseRevision && this.writing.has(writing);
    let prepared: PreparedChange | undefined;
    let release: (() => void) | undefined;
    try {
      if (head.revision === baseRevision && !deferred) {
        release = this.startWriting(writing);
        const change = await o.change(head);
        if (!change) return { resourceId: id, revision: head.revision };
        prepared = await prepareChange(this.deps, o.kind, head, change, { perform: o.perform, resources: this.reader });
      }
      const result = await this.deps.store.transaction(async (tx) => {
        const again = await o.claim?.prior(tx);
        if (again !== undefined) return { recorded: again as RecordedCommit, outcome: undefined };
        // A conflict names the head as this transaction finds it: commits ahead of it in the same batch, or
        // committed since the read above, have moved it.
        let outcome: CommitOutcome;
        if (prepared) outcome = await writeChange(this.deps, tx, o.kind, prepared, o.operator);
        else {
          const currentRevision = (await tx.resources.headRevision(id)) ?? head.revision;
          if (deferred && currentRevision === baseRevision) return 'unprepared' as const;
          outcome = { ok: false, currentRevision };
        }
        let recorded: RecordedCommit;
        if (outcome.ok) {
          const revision = outcome.revisions[outcome.revisions.length - 1]!.revision;
          await o.afterCommit?.(tx, revision);
          recorded = { ok: true, revision };
        } else {
          const candidateId =
            'keep' in o.onConflict
              ? (await keepCandidate(this.deps, tx, { resourceId: id, baseRevision, ops: [...o.onConflict.keep], operator: o.operator, source: 'conflict', draftId: null })).id
              : o.onConflict.candidateId;
          recorded = { ok: false, baseRevision, currentRevision: outcome.currentRevision, candidateId };
        }
        await o.claim?.record(tx, recorded, this.deps.now());
        return { recorded, outcome };
      });
      if (result === 'unprepared') return await this.attempt(o, false);
      if (result.outcome?.ok) this.committed(o.kind, result.outcome);
      return replay(id, result.recorded);
    } finally {
      release?.();
    }
  }

  /** Counts a commit on `key` (`resourceId@baseRevision`) as being written until the returned function is called. */
  private startWriting(key: string): () => void {
    this.writing.set(key, (this.writing.get(key) ?? 0) + 1);
    return () => {
      const left = this.writing.get(key)! - 1;
      if (left === 0) this.writing.delete(key);
      else this.writing.set(key, left);
    };
  }

  /**
   * Runs `fn` for an `external` resource under its lock, after recording what the application
   * shows now, with `perform` doing each op in the application. See plugins/external.ts.
   */
  async withExternal<T>(id: string, kind: RegisteredKind, load: () => Promise<ResourceRecord>, fn: (perform: PerformOp) => Promise<T>): Promise<T> {
    const external = this.deps.external;
    if (!external) throw new CoworkError('external_unavailable', `this host does not run outside applications, which ${kind.kind.name} needs`, { reason: 'no_sessions' });
    return external.locked(id, async () => {
      const session = await external.session(id, kind, load);
      const observed = await callPluginAsync(kind.plugin, 'observe', () => session.observe());
      await this.recordObservation(id, kind, observed);
      return fn(async (op, revision) => (await callPluginAsync(kind.plugin, 'apply', () => session.apply(op, { revision }))).content);
    });
  }

  /**
   * A head this process committed that is enough to commit on `baseRevision` without reading the
   * store first: the cached head at that very revision (a revision's content never changes), or a
   * newer one, which settles that the commit conflicts. Either way the write transaction checks the
   * store's current revision, so a head another process moved meanwhile still answers a conflict.
   * Undefined when only the store can tell (an older or no entry, or a commit on 'head').
   */
  private knownHead(id: string, baseRevision: number | 'head'): ResourceRecord | undefined {
    if (baseRevision === 'head') return undefined;
    const latest = this.heads.latest(id);
    return latest && latest.revision >= baseRevision ? latest : undefined;
  }

  /** The current head, from the cache when its revision is still current. */
  async requireHead(tx: StoreTx, id: string): Promise<ResourceRecord> {
    const revision = await tx.resources.headRevision(id);
    const cached = revision === undefined ? undefined : this.heads.get(id, revision);
    if (cached) return cached;
    const resource = await tx.resources.get(id);
    if (!resource) throw new CoworkError('not_found', `no resource ${JSON.stringify(id)}`, { resourceId: id });
    return resource;
  }

  /** Records an observed content that differs from the head as an `external` revision by `app:<plugin>`. */
  private async recordObservation(id: string, kind: RegisteredKind, observed: ExternalObservation<Json>): Promise<void> {
    await this.commit({
      resourceId: id,
      kind,
      baseRevision: 'head',
      operator: `app:${kind.plugin}`,
      onConflict: { candidateId: null },
      change: (head) => {
        if (jsonEqual(head.content, observed.content)) return undefined;
        const from = observed.restoredFrom;
        const uncertainRevisions = from === undefined ? [] : Array.from({ length: Math.max(0, head.revision - from) }, (_, i) => from + 1 + i);
        return { action: 'external', content: observed.content, note: observed.note ?? 'changed in the application, not through the host', uncertainRevisions };
      },
    });
  }

  /**
   * After a commit's transaction is durable (never inside it: a rolled-back head must not be
   * cached): keeps its head for the next commit and publishes one event per revision.
   */
  private committed(kind: RegisteredKind, outcome: CommitOutcome & { ok: true }): void {
    this.heads.set(outcome.head);
    for (const event of revisionEvents(kind.kind.name, outcome.revisions)) this.deps.events.publish(event);
  }
}

/** The answer a recorded commit gives: its revision, or its conflict. */
function replay(resourceId: string, recorded: RecordedCommit): { resourceId: string; revision: number } {
  if (!recorded.ok) throw revisionConflict(resourceId, recorded.baseRevision, recorded.currentRevision, recorded.candidateId);
  return { resourceId, revision: recorded.revision };
}
