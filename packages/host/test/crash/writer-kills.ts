import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { seededRandom } from '../../src/util/random';
import { ChildRun, type CommitAck } from './child-run';
import { crashSeed, verifyResource, withHost } from './verify-workspace';

const CHILD = join(__dirname, 'group-commit-child.ts');

export interface WriterKillOptions {
  readonly rounds: number;
  readonly resources: number;
  /** Acknowledged commits a child makes before its kill may come. */
  readonly minAcks: number;
  /** The kill comes a random 0..this many ms after those. */
  readonly maxKillDelayMs: number;
  /** Starts the next round's child while this one runs (it loads its code meanwhile). */
  readonly overlap?: boolean;
}

/** What the killed children did, as they last reported it. */
export interface WriterKillReport {
  readonly seed: number;
  readonly acknowledged: number;
  readonly batches: number;
  readonly transactions: number;
  readonly checkpoints: number;
  readonly restarts: number;
}

/**
 * The kill loop the group-commit and WAL-checkpoint crash tests share: `rounds` times, a child of
 * concurrent writers (group-commit-child.ts) commits to `resources` text resources in `workspaceDir`
 * and is SIGKILLed at a random moment after `minAcks` acknowledged commits; after each kill the
 * store passes SQLite's integrity check and every resource holds exactly what was acknowledged
 * (verifyResource).
 */
export async function killWriters(workspaceDir: string, options: WriterKillOptions): Promise<WriterKillReport> {
  const seed = crashSeed();
  const random = seededRandom(seed);
  const ids = await withHost(workspaceDir, async (host) => {
    const created = [];
    for (let i = 0; i < options.resources; i++) created.push((await host.resources.create({ kind: 'text', operator: 'human:tester' })).id);
    return created;
  });
  const acks = new Map<string, CommitAck[]>(ids.map((id) => [id, []]));
  const totals = { batches: 0, transactions: 0, checkpoints: 0, restarts: 0 };
  const start = (round: number): ChildRun => ChildRun.start(workspaceDir, ids.join(','), `r${round}`, [], CHILD);
  let next = start(0);
  for (let round = 0; round < options.rounds; round++) {
    const child = next;
    if (options.overlap && round + 1 < options.rounds) next = start(round + 1);
    child.go();
    await child.waitForCommits(options.minAcks);
    await delay(Math.floor(random() * (options.maxKillDelayMs + 1)));
    expect(await child.kill()).toEqual({ code: null, signal: 'SIGKILL' });
    expect(child.badLines).toEqual([]);
    for (const ack of child.commits) {
      // Writer w of the child wrote to ids[w % resources]; its tokens are `<tag>.<w>x<n>;`.
      const writer = Number(/^r\d+\.(\d+)x/.exec(ack.tokens[0]!)![1]);
      acks.get(ids[writer % options.resources]!)!.push(ack);
    }
    totals.batches += child.batches?.batches ?? 0;
    totals.transactions += child.batches?.transactions ?? 0;
    totals.checkpoints += child.checkpoints?.checkpoints ?? 0;
    totals.restarts += child.checkpoints?.restarts ?? 0;
    await withHost(workspaceDir, async (host) => {
      expect(await host.store.integrityCheck()).toEqual([]);
      for (const id of ids) await verifyResource(host, id, acks.get(id)!, Math.floor(random() * 2 ** 31));
    });
    if (!options.overlap && round + 1 < options.rounds) next = start(round + 1);
  }
  if (options.overlap) await next.kill();
  const acknowledged = [...acks.values()].reduce((n, list) => n + list.length, 0);
  return { seed, acknowledged, ...totals };
}
