/**
 * Invariant: when the PostgreSQL server dies mid-commit, the host loses no commit it acknowledged,
 * leaves none half there, answers its callers `store_unavailable` while the server is down, and
 * keeps running: once the server is back, the same host process commits again. A child host runs 8
 * concurrent writers on 3 resources of one database (group-commit-child.ts: every attempt with an
 * idempotency key, a store_unavailable retried as the same request); every server process is
 * killed with SIGKILL at a random moment, CRASH_ROUNDS times (default 5), and the server restarted
 * on the same data (WAL recovery). Afterwards every resource holds exactly 0..head, its content the
 * appended tokens in revision order, each once, every acknowledged token at its revision, and the
 * store's own integrity check passes.
 */
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { seededRandom } from '../../src/util/random';
import { usePostgresServer } from '../support/postgres';
import { tempDir } from '../support/temp-host';
import { ChildRun, type CommitAck } from './child-run';
import { crashSeed, verifyResource, withHost } from './verify-workspace';

const ROUNDS = Math.max(5, Number(process.env.CRASH_ROUNDS ?? 0) || 0);
const RESOURCES = 3;
const MIN_ACKS = 30;
const MAX_KILL_DELAY_MS = 60;
const CHILD = join(__dirname, 'group-commit-child.ts');

async function until(what: string, done: () => boolean, child: ChildRun, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (!child.running || Date.now() > deadline) throw new Error(`gave up waiting for ${what}; ${child.describe()}`);
    await delay(20);
  }
}

describe('PostgreSQL crash durability', () => {
  const workspace = tempDir('cowork-pg-crash-');
  afterAll(() => workspace.cleanup());
  const pgServer = usePostgresServer();

  it(`keeps every acknowledged commit through ${ROUNDS} kills of the server, answering store_unavailable meanwhile`, async () => {
    const seed = crashSeed();
    const random = seededRandom(seed);
    const server = pgServer();
    const url = await server.createDatabase();
    const ids = await withHost(
      workspace.path,
      async (host) => {
        const created = [];
        for (let i = 0; i < RESOURCES; i++) created.push((await host.resources.create({ kind: 'text', operator: 'human:tester' })).id);
        return created;
      },
      url,
    );
    const child = ChildRun.start(workspace.path, ids.join(','), 'r', [], CHILD, { ...process.env, COWORK_TEST_DATABASE_URL: url });
    try {
      child.go();
      for (let round = 0; round < ROUNDS; round++) {
        await child.waitForCommits(child.commits.length + MIN_ACKS);
        await delay(Math.floor(random() * (MAX_KILL_DELAY_MS + 1)));
        const unavailableBefore = child.unavailable;
        await server.crash();
        // The writers' calls now fail with store_unavailable, and the host process lives on.
        await until('store_unavailable answers', () => child.unavailable > unavailableBefore, child);
        await delay(200);
        expect(child.running).toBe(true);
        await server.restart();
      }
      // The same process commits again once the server is back.
      await child.waitForCommits(child.commits.length + MIN_ACKS);
      expect(child.badLines).toEqual([]);
    } finally {
      await child.kill();
    }
    const acks = new Map<string, CommitAck[]>(ids.map((id) => [id, []]));
    for (const ack of child.commits) {
      // Writer w of the child wrote to ids[w % RESOURCES]; its tokens are `<tag>.<w>x<n>;`.
      const writer = Number(/^r\.(\d+)x/.exec(ack.tokens[0]!)![1]);
      acks.get(ids[writer % RESOURCES]!)!.push(ack);
    }
    await withHost(
      workspace.path,
      async (host) => {
        expect(await host.store.integrityCheck()).toEqual([]);
        for (const id of ids) await verifyResource(host, id, acks.get(id)!, Math.floor(random() * 2 ** 31));
      },
      url,
    );
    console.info(`postgres crash test: seed ${seed}, ${ROUNDS} server kills, ${child.commits.length} acknowledged commits, ${child.unavailable} store_unavailable answers`);
  }, 300_000);
});
