/**
 * Invariant: a change is acknowledged only once its transaction is durable, so a process killed
 * with SIGKILL at any moment loses nothing it acknowledged and leaves nothing half-written.
 *
 * A child process commits in a loop (plain commits, drafts accepted as two revisions in one
 * transaction, coordinator events) and is SIGKILLed at a random moment, at least 50 times. After
 * each kill the workspace is reopened here and must hold every acknowledged revision and event at
 * the number it was acknowledged with; revisions must run 0..head with no gap; the content must be
 * the appended texts in revision order, each token once; the event log must have no gap and replay
 * into a state with every acknowledged task; SQLite's integrity check must pass.
 *
 * CRASH_ROUNDS raises the number of kills; CRASH_SEED replays the kill delays of a run (the child's
 * own speed still varies, so a replay is close, not exact).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { tempDir } from '../support/temp-host';
import { ChildRun, type CommitAck, type EventAck } from './child-run';
import { crashSeed, verifyEvents, verifyResource, withHost } from './verify-workspace';
import { seededRandom } from '../../src/util/random';

const ROUNDS = Math.max(50, Number(process.env.CRASH_ROUNDS ?? 0) || 0);
/** Acknowledgements to wait for before the kill may land: the child is past startup and committing. */
const MIN_ACKS = 3;
/** The kill lands this many milliseconds (uniform, 0..MAX) after MIN_ACKS: mid-transaction at times. */
const MAX_KILL_DELAY_MS = 80;
/** How many children load their code while earlier rounds run (starting one through tsx takes ~0.5 s). */
const LOAD_AHEAD = 2;

describe('crash durability', () => {
  const workspace = tempDir('cowork-crash-');
  const running = new Set<ChildRun>();
  afterAll(async () => {
    await Promise.all([...running].map((child) => child.kill()));
    workspace.cleanup();
  });

  it(
    `keeps every acknowledged commit and event through ${ROUNDS} SIGKILLs`,
    async () => {
      const seed = crashSeed();
      const random = seededRandom(seed);
      console.info(`crash test: seed ${seed}, ${ROUNDS} rounds (CRASH_SEED=${seed} replays the kill delays)`);

      const resourceId = await withHost(workspace.path, async (host) => {
        const created = await host.resources.create({ kind: 'text', operator: 'human:tester' });
        return created.id;
      });
      const commits: CommitAck[] = [];
      const events: EventAck[] = [];
      let head = 0;
      const stats = { durableButUnacknowledged: 0, openDraftCandidates: 0 };
      const startChild = (round: number): ChildRun => {
        const started = ChildRun.start(workspace.path, resourceId, `r${round}`);
        running.add(started);
        return started;
      };

      // Children start loading LOAD_AHEAD rounds early; they touch nothing until `go()`.
      const queue = Array.from({ length: Math.min(LOAD_AHEAD, ROUNDS) }, (_, i) => startChild(i));
      for (let round = 0; round < ROUNDS; round += 1) {
        const killDelay = Math.floor(random() * (MAX_KILL_DELAY_MS + 1));
        const probe = Math.floor(random() * 2 ** 31);
        const current = queue.shift()!;
        if (round + LOAD_AHEAD < ROUNDS) queue.push(startChild(round + LOAD_AHEAD));
        current.go();
        try {
          await current.waitForCommits(MIN_ACKS);
          // Deliberately a timer: the point is a kill at an arbitrary moment, not at a signal.
          await delay(killDelay);
          const exit = await current.kill();
          running.delete(current);
          expect({ exit, badLines: current.badLines }).toEqual({ exit: { code: null, signal: 'SIGKILL' }, badLines: [] });
          // The child saw exactly what the last reopening verified: nothing appeared or vanished in between.
          expect(current.readyHead).toBe(head);
          commits.push(...current.commits);
          events.push(...current.events);

          await withHost(workspace.path, async (host) => {
            expect(await host.store.integrityCheck()).toEqual([]);
            head = await verifyResource(host, resourceId, commits, probe);
            await verifyEvents(host, events);
            const lastAck = current.commits[current.commits.length - 1]!.revision;
            if (head > lastAck) stats.durableButUnacknowledged += 1;
            stats.openDraftCandidates = (await host.resources.listCandidates(resourceId, 'open')).length;
          });
        } catch (error) {
          throw new Error(`seed ${seed}, round ${round}, kill delay ${killDelay} ms; ${current.describe()}`, { cause: error });
        }
      }

      console.info(
        `crash test: ${ROUNDS} kills, ${commits.length} acknowledged changes (head revision ${head}), ` +
          `${events.length} acknowledged events; ${stats.durableButUnacknowledged} kills landed after a commit ` +
          `was durable but before its acknowledgement arrived; ${stats.openDraftCandidates} proposed drafts left open by kills`,
      );
      expect(commits.length).toBeGreaterThanOrEqual(ROUNDS * MIN_ACKS);
    },
    30_000 + ROUNDS * 3_000,
  );
});
