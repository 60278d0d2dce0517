/**
 * Invariant (property), on both stores: group commit changes nothing but the fsyncs. Concurrent writers on one host
 * commit ops from stale and fresh bases to two resources, so their transactions share batches; the
 * order in which the batches ran their bodies is recorded. Replaying the same commits one at a time
 * in that order on a host without group commit (maxBatch 1) gives every commit the same outcome
 * (the same revision, or a conflict at the same head), the same histories, the same open
 * candidates and the same final contents.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import fc from 'fast-check';
import { isCoworkError } from '../../src/errors';
import { Host } from '../../src/host';
import type { TextOp } from '../../src/plugins/builtin/text-kind';
import type { Store } from '../../src/store/store';
import { storeBackends } from '../support/store-backends';
import { tempDir } from '../support/temp-host';

type Attempt = { writer: number; resource: number; baseOffset: number; op: TextOp };
type Outcome = { revision: number } | { conflict: number };

const opArb: fc.Arbitrary<TextOp> = fc.oneof(
  fc.record({ type: fc.constant('append' as const), text: fc.string({ minLength: 1, maxLength: 4 }) }),
  fc.record({ type: fc.constant('set' as const), text: fc.string({ maxLength: 6 }) }),
  fc.record({ type: fc.constant('insert' as const), at: fc.constant(0), text: fc.string({ minLength: 1, maxLength: 3 }) }),
);
const attemptArb = fc.record({ writer: fc.nat({ max: 3 }), resource: fc.nat({ max: 1 }), baseOffset: fc.nat({ max: 2 }), op: opArb });

/** Records, per transaction that completed, the label of the commit it belongs to, in execution order. */
function recordOrder(store: Store, label: AsyncLocalStorage<number>, order: number[]): void {
  const original = store.transaction.bind(store);
  store.transaction = <T>(fn: Parameters<Store['transaction']>[0]) => {
    const which = label.getStore();
    return original(async (tx) => {
      const value = (await fn(tx)) as T;
      if (which !== undefined) order.push(which);
      return value;
    });
  };
}

async function commit(host: Host, id: string, base: number, attempt: Attempt, writer: number): Promise<Outcome> {
  try {
    return { revision: (await host.resources.commit(id, { baseRevision: base, op: attempt.op, operator: `agent:w${writer}` })).revision };
  } catch (error) {
    if (!isCoworkError(error) || error.code !== 'revision_conflict') throw error;
    return { conflict: error.details.currentRevision as number };
  }
}

async function snapshot(host: Host, ids: readonly string[]): Promise<unknown> {
  const out = [];
  for (const id of ids) {
    const history = (await host.resources.history(id)).map((h) => [h.revision, h.action, h.op, h.operator]);
    const candidates = (await host.resources.listCandidates(id, 'open')).map((c) => [c.baseRevision, c.ops, c.operator]);
    out.push({ content: (await host.resources.get(id)).content, history, candidates });
  }
  return out;
}

/** Both stores count their batches (SqliteStore, PostgresStore). */
type Batching = Store & { readonly groupCommitStats: { readonly batches: number; readonly transactions: number } };

describe.each(storeBackends())('group commit on $name (property)', (backend) => {
  beforeAll(() => backend.start(), 120_000);
  afterAll(() => backend.stop());
  let batched = 0;
  let batches = 0;
  afterAll(() => {
    // Across the runs, some batches held several transactions: the property was tested under real batches.
    console.info(`group commit property (${backend.name}): ${batched} write transactions in ${batches} batches`);
    expect(batched).toBeGreaterThan(batches);
  });

  it('gives the same outcomes, histories, candidates and contents as the commits one at a time in batch order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(attemptArb, { minLength: 2, maxLength: 24 }), async (attempts) => {
        const dir = tempDir();
        const grouped = await Host.open({ workspaceDir: `${dir.path}/grouped`, ...(await backend.database()) });
        const single = await Host.open({ workspaceDir: `${dir.path}/single`, groupCommit: { maxBatch: 1 }, ...(await backend.database()) });
        try {
          const ids: string[] = [];
          const replayIds: string[] = [];
          for (let i = 0; i < 2; i++) {
            ids.push((await grouped.resources.create({ kind: 'text', operator: 'human:owner' })).id);
            replayIds.push((await single.resources.create({ kind: 'text', operator: 'human:owner' })).id);
          }
          const label = new AsyncLocalStorage<number>();
          const order: number[] = [];
          recordOrder(grouped.store, label, order);
          const bases = new Map<number, number>();
          const outcomes = new Map<number, Outcome>();
          const seen = [0, 1, 2, 3].map(() => [0, 0]);
          await Promise.all(
            [0, 1, 2, 3].map(async (w) => {
              for (const [index, attempt] of attempts.entries()) {
                if (attempt.writer !== w) continue;
                const base = Math.max(0, seen[w]![attempt.resource]! - attempt.baseOffset);
                bases.set(index, base);
                const outcome = await label.run(index, () => commit(grouped, ids[attempt.resource]!, base, attempt, w));
                outcomes.set(index, outcome);
                seen[w]![attempt.resource] = 'revision' in outcome ? outcome.revision : outcome.conflict;
              }
            }),
          );
          // A commit deferred behind another on its base may run a first transaction that finds the
          // base still current and writes nothing (committer.ts); its last one decides it.
          const decided = order.filter((index, at) => order.lastIndexOf(index) === at);
          expect([...decided].sort((a, b) => a - b)).toEqual(attempts.map((_, i) => i));

          for (const index of decided) {
            const attempt = attempts[index]!;
            const replayed = await commit(single, replayIds[attempt.resource]!, bases.get(index)!, attempt, attempt.writer);
            expect({ index, outcome: replayed }).toEqual({ index, outcome: outcomes.get(index) });
          }
          const [a, b] = [await snapshot(grouped, ids), await snapshot(single, replayIds)];
          expect(a).toEqual(b);
          const stats = (grouped.store as Batching).groupCommitStats;
          batched += stats.transactions;
          batches += stats.batches;
        } finally {
          await grouped.close();
          await single.close();
          dir.cleanup();
        }
      }),
      { numRuns: 40 },
    );
  }, 240_000);
});
