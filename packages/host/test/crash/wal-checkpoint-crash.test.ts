/**
 * Invariant: a process killed with SIGKILL while its WAL checkpoint thread copies pages into the
 * database file, or while the store holds its writes for the checkpoint that starts the WAL again,
 * loses no commit it acknowledged and leaves none half there. A child runs 8 concurrent writers on
 * 3 resources (group-commit-child.ts) for long enough that its store checkpoints on the thread and
 * starts the WAL again, and is killed at a random moment after that (writer-kills.ts checks every
 * acknowledged commit and the integrity check after each kill); the children must have reported
 * checkpoints and restarts (else this would test nothing).
 */
import { tempDir } from '../support/temp-host';
import { killWriters } from './writer-kills';

const ROUNDS = Math.max(4, Number(process.env.CRASH_ROUNDS ?? 0) || 0);

describe('WAL checkpoint crash durability', () => {
  const workspace = tempDir('cowork-checkpoint-crash-');
  afterAll(() => workspace.cleanup());

  it(`keeps every acknowledged commit through ${ROUNDS} SIGKILLs during checkpoints`, async () => {
    // 2,500 acknowledged commits take the WAL past its restart point (the texts grow, and so do their pages).
    const report = await killWriters(workspace.path, { rounds: ROUNDS, resources: 3, minAcks: 2500, maxKillDelayMs: 300 });
    console.info(
      `WAL checkpoint crash test: seed ${report.seed}, ${ROUNDS} kills, ${report.acknowledged} acknowledged commits; the children ran ${report.checkpoints} checkpoints on their threads, ${report.restarts} of them starting the WAL again (as last reported)`,
    );
    expect(report.checkpoints).toBeGreaterThan(0);
    expect(report.restarts).toBeGreaterThan(0);
  }, 300_000);
});
