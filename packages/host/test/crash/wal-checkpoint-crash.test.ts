/**
 * Invariant: a process killed with SIGKILL while its WAL checkpoint thread copies pages into the
 * database file, or while the store holds its writes for the checkpoint that starts the WAL again,
 * loses no commit it acknowledged and leaves none half there. A child runs 8 concurrent writers on
 * 3 resources (group-commit-child.ts) for long enough that its store checkpoints on the thread and
 * starts the WAL again, and is killed at a random moment after that. After each kill every resource
 * must hold exactly what was acknowledged (verifyResource) and SQLite's integrity check passes; the
 * children must have reported checkpoints and restarts (else this would test nothing).
 */
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { seededRandom } from '../../src/util/random';
import { tempDir } from '../support/temp-host';
import { ChildRun, type CommitAck } from './child-run';
import { crashSeed, verifyResource, withHost } from './verify-workspace';

const ROUNDS = Math.max(4, Number(process.env.CRASH_ROUNDS ?? 0) || 0);
const RESOURCES = 3;
/** Acknowledged commits before the kill may come: enough for checkpoints and a restart of the WAL. */
const MIN_ACKS = 2500;
const MAX_KILL_DELAY_MS = 300;
const CHILD = join(__dirname, 'group-commit-child.ts');

describe('WAL checkpoint crash durability', () => {
  const workspace = tempDir('cowork-checkpoint-crash-');
  afterAll(() => workspace.cleanup());

  it(`keeps every acknowledged commit through ${ROUNDS} SIGKILLs during checkpoints`, async () => {
    const seed = crashSeed();
    const random = seededRandom(seed);
    const ids = await withHost(workspace.path, async (host) => {
      const created = [];
      for (let i = 0; i < RESOURCES; i++) created.push((await host.resources.create({ kind: 'text', operator: 'human:tester' })).id);
      return created;
    });
    const acks = new Map<string, CommitAck[]>(ids.map((id) => [id, []]));
    let checkpoints = 0;
    let restarts = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const child = ChildRun.start(workspace.path, ids.join(','), `r${round}`, [], CHILD);
      child.go();
      await child.waitForCommits(MIN_ACKS);
      await delay(Math.floor(random() * (MAX_KILL_DELAY_MS + 1)));
      expect(await child.kill()).toEqual({ code: null, signal: 'SIGKILL' });
      expect(child.badLines).toEqual([]);
      for (const ack of child.commits) {
        const writer = Number(/^r\d+\.(\d+)x/.exec(ack.tokens[0]!)![1]);
        acks.get(ids[writer % RESOURCES]!)!.push(ack);
      }
      checkpoints += child.checkpoints?.checkpoints ?? 0;
      restarts += child.checkpoints?.restarts ?? 0;
      await withHost(workspace.path, async (host) => {
        expect(await host.store.integrityCheck()).toEqual([]);
        for (const id of ids) await verifyResource(host, id, acks.get(id)!, Math.floor(random() * 2 ** 31));
      });
    }
    const acknowledged = [...acks.values()].reduce((n, list) => n + list.length, 0);
    console.info(`WAL checkpoint crash test: seed ${seed}, ${ROUNDS} kills, ${acknowledged} acknowledged commits; the children ran ${checkpoints} checkpoints on their threads, ${restarts} of them starting the WAL again (as last reported)`);
    expect(checkpoints).toBeGreaterThan(0);
    expect(restarts).toBeGreaterThan(0);
  }, 300_000);
});
