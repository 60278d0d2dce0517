import { isCoworkError } from '@cowork/host';
import { Host, type HostOptions } from '@cowork/host/embed';
import type { CommitAttempt, CommitTarget, SyncMode } from './commit-target';
import { walRestarts } from './store-counters';

/**
 * The protocol under test: `host.resources.commit` on a `text` resource, the path every edge (HTTP,
 * WebSocket, MCP, CLI, agent tools) takes. A `revision_conflict` is the protocol's answer to a stale
 * base, so it becomes a failed attempt; anything else is a real failure and ends the run.
 */
export class ProtocolTarget implements CommitTarget {
  private constructor(private readonly host: Host) {}

  static async open(dir: string, sync: SyncMode): Promise<ProtocolTarget> {
    return ProtocolTarget.openHost({ workspaceDir: dir, synchronous: sync });
  }

  /** On any host options: bench:postgres gives a database URL instead of a SQLite mode. */
  static async openHost(options: HostOptions): Promise<ProtocolTarget> {
    return new ProtocolTarget(await Host.open(options));
  }

  async tryCommit(resourceId: string, baseRevision: number, writer: string): Promise<CommitAttempt> {
    try {
      const result = await this.host.resources.commit(resourceId, {
        baseRevision,
        op: { type: 'append', text: 'x' },
        operator: `agent:${writer}`,
      });
      return { ok: true, revision: result.revision };
    } catch (error) {
      if (!isCoworkError(error) || error.code !== 'revision_conflict') throw error;
      const current = error.details.currentRevision;
      if (typeof current !== 'number') throw new Error('revision_conflict without a numeric currentRevision', { cause: error });
      return { ok: false, currentRevision: current };
    }
  }

  /** See walRestarts. */
  walRestarts(): number | null {
    return walRestarts(this.host.store);
  }

  close(): Promise<void> {
    return this.host.close();
  }
}

/** Creates a workspace in `dir` with `count` empty `text` resources at revision 0; returns their ids. */
export async function prepareProtocolWorkspace(dir: string, sync: SyncMode, count: number): Promise<string[]> {
  return prepareProtocolHost({ workspaceDir: dir, synchronous: sync }, count);
}

/** The same on any host options (a PostgreSQL database). */
export async function prepareProtocolHost(options: HostOptions, count: number): Promise<string[]> {
  const host = await Host.open(options);
  try {
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1) ids.push((await host.resources.create({ kind: 'text', operator: 'human:bench' })).id);
    return ids;
  } finally {
    await host.close();
  }
}
