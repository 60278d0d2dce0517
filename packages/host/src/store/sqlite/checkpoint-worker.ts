/**
 * The WAL checkpointer's thread (see wal-checkpointer.ts): a connection of its own to the store's
 * database that copies the WAL's committed frames into the database file when asked, so that the
 * copy and its fsync never run inside a commit on the host's event loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import type { CheckpointReply, CheckpointRequest, CheckpointWorkerData } from './wal-checkpointer';

const { path, synchronous } = workerData as CheckpointWorkerData;
const port = parentPort!;
let db: BetterSqlite3.Database | undefined;

port.on('message', (request: CheckpointRequest) => {
  if (request === 'close') {
    db?.close();
    port.close();
    return;
  }
  try {
    if (!db) {
      // Never wait on a lock: a PASSIVE checkpoint takes none it would wait for, and the host's
      // own connection keeps the write lock only for the length of a commit.
      db = new BetterSqlite3(path, { timeout: 0, fileMustExist: true });
      // The checkpoint fsyncs the database file (and first the WAL) unless synchronous is OFF.
      db.pragma(`synchronous = ${synchronous}`);
    }
    const [row] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
    port.postMessage({ ok: true, frames: row!.log, copied: row!.checkpointed } satisfies CheckpointReply);
  } catch (error) {
    port.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) } satisfies CheckpointReply);
  }
});
