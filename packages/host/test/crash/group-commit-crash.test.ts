/**
 * Invariant: under group commit, a process killed with SIGKILL during a batch loses no commit it
 * acknowledged and leaves none half there. A child runs 8 concurrent writers on 3 resources (so
 * batches mix resources, and writers on one resource conflict and retry inside them) and is killed
 * at a random moment, 20 times. After each kill every resource must hold exactly 0..head, its
 * content the appended tokens in revision order, each once, every acknowledged token at its
 * revision; SQLite's integrity check passes; and the children's stores did run batches of several
 * transactions (else this would test nothing new).
 */
import { tempDir } from '../support/temp-host';
import { killWriters } from './writer-kills';

const ROUNDS = Math.max(20, Number(process.env.CRASH_ROUNDS ?? 0) || 0);

describe('group commit crash durability', () => {
  const workspace = tempDir('cowork-group-crash-');
  afterAll(() => workspace.cleanup());

  it(`keeps every acknowledged commit of concurrent writers through ${ROUNDS} SIGKILLs`, async () => {
    const report = await killWriters(workspace.path, { rounds: ROUNDS, resources: 3, minAcks: 30, maxKillDelayMs: 60, overlap: true });
    console.info(
      `group commit crash test: seed ${report.seed}, ${ROUNDS} kills, ${report.acknowledged} acknowledged commits; the children ran ${report.transactions} write transactions in ${report.batches} batches (as last reported)`,
    );
    expect(report.transactions).toBeGreaterThan(report.batches);
  }, 300_000);
});
