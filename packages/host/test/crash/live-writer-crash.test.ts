/**
 * Invariant: a process killed in the middle of its transactions does not stop another process on
 * the same workspace. The survivor keeps committing (the dead process's write lock goes with it,
 * its unfinished WAL frames are ignored), and in the end every change either process acknowledged
 * is there, in one gapless event log both appended to.
 *
 * This test process is the survivor: it commits to its own resource and records events in a loop
 * while children commit to another resource and are SIGKILLed one after another.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { Host } from '../../src/host';
import { tempDir } from '../support/temp-host';
import { ChildRun, type CommitAck, type EventAck } from './child-run';
import { crashSeed, verifyEvents, verifyResource } from './verify-workspace';
import { seededRandom } from '../../src/util/random';

const ROUNDS = 10;
const MIN_ACKS = 3;
const MAX_KILL_DELAY_MS = 80;
/** Commits the survivor must make after each kill before the next child starts. */
const COMMITS_AFTER_KILL = 3;
/** Pause between the survivor's commits. */
const PACE_MS = 2;
const LOAD_AHEAD = 2;

describe('crash next to a live writer', () => {
  const workspace = tempDir('cowork-crash-live-');
  const running = new Set<ChildRun>();
  let live: Host | undefined;
  afterAll(async () => {
    await Promise.all([...running].map((child) => child.kill()));
    await live?.close();
    workspace.cleanup();
  });

  it('keeps the survivor committing and every acknowledged change of both', async () => {
    const seed = crashSeed();
    const random = seededRandom(seed);
    console.info(`live-writer crash test: seed ${seed} (CRASH_SEED=${seed} replays the kill delays)`);
    live = await Host.open({ workspaceDir: workspace.path });
    const childResource = (await live.resources.create({ kind: 'text', operator: 'human:tester' })).id;
    const liveResource = (await live.resources.create({ kind: 'text', operator: 'human:tester' })).id;
    const writer = new LiveWriter(live, liveResource);
    const childCommits: CommitAck[] = [];
    const events: EventAck[] = [];
    let childHead = 0;

    const start = (round: number): ChildRun => {
      const child = ChildRun.start(workspace.path, childResource, `c${round}`);
      running.add(child);
      return child;
    };
    // Children load their code LOAD_AHEAD rounds early; they touch nothing until `go()`.
    const queue = Array.from({ length: LOAD_AHEAD }, (_, i) => start(i));
    for (let round = 0; round < ROUNDS; round += 1) {
      const child = queue.shift()!;
      if (round + LOAD_AHEAD < ROUNDS) queue.push(start(round + LOAD_AHEAD));
      const killDelay = Math.floor(random() * (MAX_KILL_DELAY_MS + 1));
      try {
        child.go();
        await child.waitForCommits(MIN_ACKS);
        await delay(killDelay); // deliberately a timer: the kill lands at an arbitrary moment
        const exit = await child.kill();
        running.delete(child);
        expect({ exit, badLines: child.badLines }).toEqual({ exit: { code: null, signal: 'SIGKILL' }, badLines: [] });
        expect(child.readyHead).toBe(childHead);
        childCommits.push(...child.commits);
        events.push(...child.events);

        await writer.waitForCommits(writer.commits.length + COMMITS_AFTER_KILL);
        childHead = (await live.resources.get(childResource)).revision;
        expect(childHead).toBeGreaterThanOrEqual(child.commits[child.commits.length - 1]!.revision);
      } catch (error) {
        throw new Error(`seed ${seed}, round ${round}, kill delay ${killDelay} ms; ${child.describe()}`, { cause: error });
      }
    }
    await writer.stop();

    // A fresh host next to the live one: it replays the log both processes appended to.
    const check = await Host.open({ workspaceDir: workspace.path });
    try {
      expect(await check.store.integrityCheck()).toEqual([]);
      await verifyResource(check, childResource, childCommits, Math.floor(random() * 2 ** 31));
      await verifyResource(check, liveResource, writer.commits, Math.floor(random() * 2 ** 31));
      await verifyEvents(check, [...events, ...writer.events]);
    } finally {
      await check.close();
    }
    // The survivor's own state, folded from its appends and the children's, agrees with the log too.
    await live.coordinator.refresh();
    await verifyEvents(live, [...events, ...writer.events]);
    console.info(
      `live-writer crash test: ${ROUNDS} kills, ${childCommits.length} child and ${writer.commits.length} survivor changes acknowledged`,
    );
  }, 60_000);
});

/** Commits `live.<n>;` to one resource in a loop, recording an event every few commits. */
class LiveWriter {
  readonly commits: CommitAck[] = [];
  readonly events: EventAck[] = [];
  private stopped = false;
  private failure: unknown;
  private readonly done: Promise<void>;
  private readonly waiters: { count: number; resolve: () => void; reject: (error: unknown) => void }[] = [];

  constructor(
    private readonly host: Host,
    private readonly resourceId: string,
  ) {
    this.done = this.run().catch((error: unknown) => {
      this.failure = error;
      this.settle();
    });
  }

  waitForCommits(count: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiters.push({ count, resolve, reject });
      this.settle();
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.done;
    if (this.failure) throw this.failure;
  }

  private async run(): Promise<void> {
    let head = 0;
    for (let n = 0; !this.stopped; n += 1) {
      const token = `live.${n};`;
      head = (await this.host.resources.commit(this.resourceId, { baseRevision: head, op: { type: 'append', text: token }, operator: 'agent:live' })).revision;
      this.commits.push({ revision: head, tokens: [token] });
      if (n % 5 === 4) {
        const taskId = `live-task-${n}`;
        const event = await this.host.coordinator.record({ type: 'task.created', data: { taskId, request: 'live writer' } });
        this.events.push({ seq: event.seq, taskId });
      }
      this.settle();
      // A pause, not a wait for a condition: it paces the load. Without it, this loop (better-sqlite3
      // is synchronous, so it runs on microtasks alone) starves the event loop, and the write lock
      // is free so rarely that SQLite's busy backoff in the children barely ever gets it.
      await delay(PACE_MS);
    }
  }

  private settle(): void {
    for (let i = this.waiters.length - 1; i >= 0; i -= 1) {
      const waiter = this.waiters[i]!;
      if (this.failure) waiter.reject(this.failure);
      else if (this.commits.length >= waiter.count) waiter.resolve();
      else continue;
      this.waiters.splice(i, 1);
    }
  }
}
