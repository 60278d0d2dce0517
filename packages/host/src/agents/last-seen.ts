import type { Store } from '../store/store';

/** The agent a read or write is made by, and the tool call (its idempotency key) making it. */
export interface SeenBy {
  readonly taskId: string;
  readonly agentId: string;
  readonly callKey: string;
}

/**
 * What each agent last saw of each resource, kept in the store (`last_seen`) so that it survives a
 * restart. `read_resource` without `sinceRevision` lists the changes by others after the recorded
 * revision, and every read records the revision it showed. An agent is keyed by task and agent id:
 * subagents' ids are unique within a task, and Main is `main` in every task.
 *
 * A tool call interrupted after it recorded what it showed, but before its result reached the
 * conversation, runs again under the same idempotency key when the loop resumes: it then reads
 * from the revision before its own record, so the agent still gets the changes it never saw.
 */
export class LastSeen {
  constructor(
    private readonly store: Store,
    private readonly now: () => Date,
  ) {}

  /** The revision a read by `who` starts from; undefined when the agent never saw the resource. */
  async since(who: SeenBy, resourceId: string): Promise<number | undefined> {
    const row = await this.store.read((tx) => tx.lastSeen.get(who.taskId, who.agentId, resourceId));
    if (row === undefined) return undefined;
    if (row.callKey === who.callKey) return row.previousRevision ?? undefined;
    return row.revision;
  }

  /** The revision recorded for `who`, if any (tests and the task's tools read it). */
  async revision(taskId: string, agentId: string, resourceId: string): Promise<number | undefined> {
    return (await this.store.read((tx) => tx.lastSeen.get(taskId, agentId, resourceId)))?.revision;
  }

  /**
   * Records that `who` has seen `revision` (durable once this resolves). The recorded revision
   * never moves back: a read that raced a newer one does not undo it.
   */
  async saw(who: SeenBy, resourceId: string, revision: number): Promise<void> {
    await this.store.transaction(async (tx) => {
      const row = await tx.lastSeen.get(who.taskId, who.agentId, resourceId);
      const seenAt = this.now().toISOString();
      const base = { taskId: who.taskId, agentId: who.agentId, resourceId, callKey: who.callKey, seenAt };
      if (row === undefined) return tx.lastSeen.put({ ...base, revision, previousRevision: null });
      // The same call again (a resumed turn) keeps the revision it started from.
      const previousRevision = row.callKey === who.callKey ? row.previousRevision : row.revision;
      return tx.lastSeen.put({ ...base, revision: Math.max(row.revision, revision), previousRevision });
    });
  }

  /**
   * After `who` committed on top of `baseRevision` up to `revision`: its own revisions are never
   * "changes by others", so the record moves to `revision` only when the agent had already seen
   * the base (moving it otherwise would hide others' changes between what it saw and the base).
   */
  async committed(who: SeenBy, resourceId: string, baseRevision: number, revision: number): Promise<void> {
    const seen = await this.revision(who.taskId, who.agentId, resourceId);
    if (seen !== undefined && seen >= baseRevision) await this.saw(who, resourceId, revision);
  }
}
