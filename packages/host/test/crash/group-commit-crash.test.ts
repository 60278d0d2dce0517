/**
 * Invariant: under group commit, a process killed with SIGKILL during a batch loses no commit it
 * acknowledged and leaves none half there. A child runs 8 concurrent writers on 3 resources (so
 * batches mix resources, and writers on one resource conflict and retry inside them) and is killed
 * at a random moment, 20 times. After each kill every resource must hold exactly 0..head, its
 * content the appended tokens in revision order, each once, every acknowledged token at its
 * revision; SQLite's integrity check passes; and the children's stores did run batches of several
 * transactions (else this would test nothing new).
 */
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { seededRandom } from '../../src/util/random';
import { tempDir } from '../support/temp-host';
import { ChildRun, type CommitAck } from './child-run';
import { crashSeed, verifyResource, withHost } from './verify-workspace';

const ROUNDS = Math.max(20, Number(process.env.CRASH_ROUNDS ?? 0) || 0);
const RESOURCES = 3;
const MIN_ACKS = 30;
const MAX_KILL_DELAY_MS = 60;
const CHILD = join(__dirname, 'group-commit-child.ts');

describe('group commit crash durability', () => {
  const workspace = tempDir('cowork-group-crash-');
  afterAll(() => workspace.cleanup());

  it(`keeps every acknowledged commit of concurrent writers through ${ROUNDS} SIGKILLs`, async () => {
    const seed = crashSeed();
    const random = seededRandom(seed);
    const ids = await withHost(workspace.path, async (host) => {
      const created = [];
      for (let i = 0; i < RESOURCES; i++) created.push((await host.resources.create({ kind: 'text', operator: 'human:tester' })).id);
      return created;
    });
    const acks = new Map<string, CommitAck[]>(ids.map((id) => [id, []]));
    let batches = 0;
    let transactions = 0;
    let next = ChildRun.start(workspace.path, ids.join(','), 'r0', [], CHILD);
    for (let round = 0; round < ROUNDS; round++) {
      const child = next;
      if (round + 1 < ROUNDS) next = ChildRun.start(workspace.path, ids.join(','), `r${round + 1}`, [], CHILD);
      child.go();
      await child.waitForCommits(MIN_ACKS);
      await delay(Math.floor(random() * (MAX_KILL_DELAY_MS + 1)));
      expect(await child.kill()).toEqual({ code: null, signal: 'SIGKILL' });
      expect(child.badLines).toEqual([]);
      for (const ack of child.commits) {
        // Writer w of the child wrote to ids[w % RESOURCES]; its tokens are `<tag>.<w>x<n>;`.
        const writer = Number(/^r\d+\.(\d+)x/.exec(ack.tokens[0]!)![1]);
        acks.get(ids[writer % RESOURCES]!)!.push(ack);
      }
      batches += child.batches?.batches ?? 0;
      transactions += child.batches?.transactions ?? 0;
      await withHost(workspace.path, async (host) => {
        expect(await host.store.integrityCheck()).toEqual([]);
        for (const id of ids) await verifyResource(host, id, acks.get(id)!, Math.floor(random() * 2 ** 31));
      });
    }
    await next.kill();
    const acknowledged = [...acks.values()].reduce((n, list) => n + list.length, 0);
    console.info(`group commit crash test: seed ${seed}, ${ROUNDS} kills, ${acknowledged} acknowledged commits; the children ran ${transactions} write transactions in ${batches} batches (as last reported)`);
    expect(transactions).toBeGreaterThan(batches);
  }, 300_000);
});
