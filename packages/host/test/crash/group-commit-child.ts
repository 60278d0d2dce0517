/**
 * The process group-commit-crash.test.ts kills: WRITERS concurrent writers (default 8) in one host,
 * so their commits share batches (one COMMIT and fsync each). Writer w appends unique tokens to
 * resource ids[w % ids.length] from the revision it last saw; a stale base is a revision_conflict
 * (the op kept as a candidate: a durable write in the batch too), after which the writer retries the
 * same token on the head it was told. One line per change, printed only after the call resolved:
 *
 * - `ready 0`: the host is open;
 * - `ack <revision> <token>`: that resource's revision <revision> appended <token>;
 * - `batches <batches> <transactions>`: the store's write batches so far (every 20 acks);
 * - `checkpoints <checkpoints> <restarts>`: the SQLite store's WAL checkpoints so far (every 20 acks);
 * - `unavailable <writer>`: a commit answered `store_unavailable` (the PostgreSQL server is down);
 *   the writer retries the same request, with the same idempotency key, until it is answered.
 *
 * Every attempt carries an idempotency key made of its token and base, so a retry of a commit whose
 * outcome was lost with the connection returns what that commit did instead of committing twice.
 * With COWORK_TEST_DATABASE_URL set the host keeps its records in that PostgreSQL database.
 *
 * Usage: node --import tsx group-commit-child.ts <workspaceDir> <id,id,...> <tag>; it waits for `go`.
 */
import { setTimeout as delay, setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { isCoworkError } from '../../src/errors';
import { Host } from '../../src/host';
import { emit, goSignal } from './child-io';

const WRITERS = Number(process.env.WRITERS ?? 8);

async function main(): Promise<void> {
  const [workspaceDir, ids, tag] = process.argv.slice(2);
  if (!workspaceDir || !ids || !tag) throw new Error('usage: group-commit-child.ts <workspaceDir> <id,id,...> <tag>');
  const resourceIds = ids.split(',');
  process.stdin.once('end', () => process.exit(0));
  process.stdout.on('error', () => process.exit(0));
  await goSignal();
  const host = await Host.open({ workspaceDir, databaseUrl: process.env.COWORK_TEST_DATABASE_URL || undefined });
  const store = host.store as typeof host.store & {
    readonly groupCommitStats: { batches: number; transactions: number };
    readonly checkpointStats?: { checkpoints: number; restarts: number };
  };
  await emit('ready 0');
  let acks = 0;
  const writer = async (w: number): Promise<never> => {
    const resourceId = resourceIds[w % resourceIds.length]!;
    let seen = (await host.resources.get(resourceId)).revision;
    for (let n = 0; ; n += 1) {
      const token = `${tag}.${w}x${n};`;
      for (;;) {
        try {
          const request = { baseRevision: seen, op: { type: 'append', text: token }, operator: `agent:w${w}` as const, idempotencyKey: `${token}@${seen}` };
          seen = (await host.resources.commit(resourceId, request)).revision;
          break;
        } catch (error) {
          if (isCoworkError(error) && error.code === 'store_unavailable') {
            await emit(`unavailable ${w}`);
            await delay(50);
            continue;
          }
          if (!isCoworkError(error) || error.code !== 'revision_conflict') throw error;
          seen = error.details.currentRevision as number;
        }
      }
      await emit(`ack ${seen} ${token}`);
      if (++acks % 20 === 0) {
        await emit(`batches ${store.groupCommitStats.batches} ${store.groupCommitStats.transactions}`);
        if (store.checkpointStats) await emit(`checkpoints ${store.checkpointStats.checkpoints} ${store.checkpointStats.restarts}`);
      }
      await yieldToEventLoop();
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
}

main().catch((error: unknown) => {
  process.stderr.write(`group-commit-child failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
