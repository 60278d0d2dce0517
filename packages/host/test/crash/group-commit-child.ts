/**
 * The process group-commit-crash.test.ts kills: WRITERS concurrent writers (default 8) in one host,
 * so their commits share batches (one COMMIT and fsync each). Writer w appends unique tokens to
 * resource ids[w % ids.length] from the revision it last saw; a stale base is a revision_conflict
 * (the op kept as a candidate: a durable write in the batch too), after which the writer retries the
 * same token on the head it was told. One line per change, printed only after the call resolved:
 *
 * - `ready 0`: the host is open;
 * - `ack <revision> <token>`: that resource's revision <revision> appended <token>;
 * - `batches <batches> <transactions>`: the store's write batches so far (every 20 acks).
 *
 * Usage: node --import tsx group-commit-child.ts <workspaceDir> <id,id,...> <tag>; it waits for `go`.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { isCoworkError } from '../../src/errors';
import { Host } from '../../src/host';
import { emit, goSignal } from './child-io';
import type { SqliteStore } from '../../src/store/sqlite/sqlite-store';

const WRITERS = Number(process.env.WRITERS ?? 8);

async function main(): Promise<void> {
  const [workspaceDir, ids, tag] = process.argv.slice(2);
  if (!workspaceDir || !ids || !tag) throw new Error('usage: group-commit-child.ts <workspaceDir> <id,id,...> <tag>');
  const resourceIds = ids.split(',');
  process.stdin.once('end', () => process.exit(0));
  process.stdout.on('error', () => process.exit(0));
  await goSignal();
  const host = await Host.open({ workspaceDir });
  const store = host.store as SqliteStore;
  await emit('ready 0');
  let acks = 0;
  const writer = async (w: number): Promise<never> => {
    const resourceId = resourceIds[w % resourceIds.length]!;
    let seen = (await host.resources.get(resourceId)).revision;
    for (let n = 0; ; n += 1) {
      const token = `${tag}.${w}x${n};`;
      for (;;) {
        try {
          seen = (await host.resources.commit(resourceId, { baseRevision: seen, op: { type: 'append', text: token }, operator: `agent:w${w}` })).revision;
          break;
        } catch (error) {
          if (!isCoworkError(error) || error.code !== 'revision_conflict') throw error;
          seen = error.details.currentRevision as number;
        }
      }
      await emit(`ack ${seen} ${token}`);
      if (++acks % 20 === 0) await emit(`batches ${store.groupCommitStats.batches} ${store.groupCommitStats.transactions}`);
      await yieldToEventLoop();
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
}



main().catch((error: unknown) => {
  process.stderr.write(`group-commit-child failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
