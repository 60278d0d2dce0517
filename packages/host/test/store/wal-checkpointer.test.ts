/**
 * The WAL checkpointer's second step, on its own: once the WAL holds RESTART_WAL_AT_FRAMES and a
 * commit came in while the thread copied, it checkpoints again with writes held, and the WAL starts
 * again from its first frame. The store's own test (sqlite-store.test.ts) drives it with a busy
 * writer, where the scheduler decides whether the thread or SQLite starts the WAL again; here the
 * order is fixed, so the held step must run exactly once, whichever way the thread and this
 * writer's commit interleave.
 */
import BetterSqlite3 from 'better-sqlite3';
import { CHECKPOINT_EVERY_COMMITS, FALLBACK_AUTOCHECKPOINT_PAGES, RESTART_WAL_AT_FRAMES, WalCheckpointer } from '../../src/store/sqlite/wal-checkpointer';
import { tempDir } from '../support/temp-host';

const dir = tempDir();
afterAll(() => dir.cleanup());

/** The WAL's frames as a PASSIVE checkpoint reports them (it copies nothing another connection's writes need). */
function walFrames(db: BetterSqlite3.Database): number {
  const [row] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
  return row!.log;
}

it('checkpoints again with writes held once the WAL is past its restart point and a commit came in meanwhile', async () => {
  const path = `${dir.path}/wal.sqlite`;
  const writer = new BetterSqlite3(path);
  writer.pragma('journal_mode = WAL');
  // The writer never checkpoints: only the thread (and the held step) copy the WAL.
  writer.pragma('wal_autocheckpoint = 0');
  writer.exec('CREATE TABLE blobs (data BLOB NOT NULL)');
  const insert = writer.prepare('INSERT INTO blobs (data) VALUES (randomblob(?))');
  // One transaction of 16 KiB rows (four overflow pages each) takes the WAL past the restart point.
  writer.transaction(() => {
    for (let i = 0; i < RESTART_WAL_AT_FRAMES / 4 + 100; i++) insert.run(16_000);
  })();

  const autoCheckpoints: number[] = [];
  let held = 0;
  const checkpointer = new WalCheckpointer(
    { path, synchronous: 'FULL' },
    (pages) => autoCheckpoints.push(pages),
    async (step) => {
      held += 1;
      await step();
    },
  );
  try {
    for (let i = 0; i < CHECKPOINT_EVERY_COMMITS; i++) checkpointer.committed();
    // The thread is copying (or has copied) the WAL; this commit lands during or after that copy,
    // and is reported before the thread's answer can be read (this test has not yielded since).
    insert.run(100);
    checkpointer.committed();
    await (checkpointer as unknown as { running: Promise<void> }).running;

    expect(held).toBe(1);
    expect(checkpointer.stats).toMatchObject({ checkpoints: 1, restarts: 1, failures: 0 });
    // The thread's own checkpoints replace SQLite's, which stay only as the fallback.
    expect(autoCheckpoints).toEqual([FALLBACK_AUTOCHECKPOINT_PAGES]);
    // Everything copied, the next commit starts the WAL from its first frame.
    insert.run(100);
    expect(walFrames(writer)).toBeLessThan(10);
    expect(writer.prepare('SELECT COUNT(*) AS n FROM blobs').get()).toEqual({ n: RESTART_WAL_AT_FRAMES / 4 + 102 });
  } finally {
    await checkpointer.close();
    writer.close();
  }
});
