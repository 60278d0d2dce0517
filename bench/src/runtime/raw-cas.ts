import BetterSqlite3, { type Database, type Statement } from 'better-sqlite3';
import { join } from 'node:path';
import type { CommitAttempt, CommitTarget, SyncMode } from './commit-target';

const DATABASE_FILE = 'raw.db';

/**
 * The baseline: the least a durable compare-and-set commit can do on SQLite, with no protocol
 * around it. Same journal (WAL), same `synchronous` pragma, same busy timeout and the same
 * `BEGIN IMMEDIATE` write lock as the host's store, and the same data work per commit: read the
 * head, append to the content, advance the head only from the expected revision, record the
 * revision. What it leaves out (validation, JSON, candidates, events) is what the ratio measures.
 */
export class RawCasTarget implements CommitTarget {
  private readonly db: Database;
  private readonly begin: Statement;
  private readonly commit: Statement;
  private readonly rollback: Statement;
  private readonly head: Statement<[string], { revision: number; content: string }>;
  private readonly advance: Statement<[number, string, string, number]>;
  private readonly record: Statement<[string, number, string, string, string]>;

  constructor(dir: string, sync: SyncMode) {
    this.db = openRawDatabase(dir, sync);
    this.begin = this.db.prepare('BEGIN IMMEDIATE');
    this.commit = this.db.prepare('COMMIT');
    this.rollback = this.db.prepare('ROLLBACK');
    this.head = this.db.prepare('SELECT revision, content FROM documents WHERE id = ?');
    this.advance = this.db.prepare('UPDATE documents SET revision = ?, content = ? WHERE id = ? AND revision = ?');
    this.record = this.db.prepare('INSERT INTO revisions (document_id, revision, op, operator, created_at) VALUES (?, ?, ?, ?, ?)');
  }

  tryCommit(documentId: string, baseRevision: number, writer: string): CommitAttempt {
    this.begin.run();
    try {
      const row = this.head.get(documentId);
      if (!row) throw new Error(`raw baseline: no document ${documentId}`);
      if (row.revision !== baseRevision) {
        // A conflict writes nothing: the baseline keeps no record of the refused change.
        this.rollback.run();
        return { ok: false, currentRevision: row.revision };
      }
      const revision = baseRevision + 1;
      const advanced = this.advance.run(revision, row.content + 'x', documentId, baseRevision);
      if (advanced.changes !== 1) throw new Error('raw baseline: head moved inside its own write transaction');
      this.record.run(documentId, revision, 'append x', writer, new Date().toISOString());
      this.commit.run();
      return { ok: true, revision };
    } catch (error) {
      if (this.db.inTransaction) this.rollback.run();
      throw error;
    }
  }

  /** Adds empty documents at revision 0 (the HTTP baseline's fresh resources per run). */
  addDocuments(ids: readonly string[]): void {
    const insert = this.db.prepare("INSERT INTO documents (id, revision, content) VALUES (?, 0, '')");
    for (const id of ids) insert.run(id);
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

/** Creates the baseline's database in `dir` with `count` empty documents at revision 0; returns their ids. */
export function prepareRawDatabase(dir: string, sync: SyncMode, count: number): string[] {
  const db = openRawDatabase(dir, sync);
  try {
    db.exec(`
      CREATE TABLE documents (id TEXT PRIMARY KEY, revision INTEGER NOT NULL, content TEXT NOT NULL) STRICT;
      CREATE TABLE revisions (
        document_id TEXT NOT NULL,
        revision INTEGER NOT NULL,
        op TEXT NOT NULL,
        operator TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (document_id, revision)
      ) STRICT, WITHOUT ROWID;
    `);
    const ids = Array.from({ length: count }, (_, i) => `doc${i + 1}`);
    const insert = db.prepare("INSERT INTO documents (id, revision, content) VALUES (?, 0, '')");
    for (const id of ids) insert.run(id);
    return ids;
  } finally {
    db.close();
  }
}

function openRawDatabase(dir: string, sync: SyncMode): Database {
  // The host's store uses a 5 s busy timeout; matching it makes cross-thread lock waits comparable.
  const db = new BetterSqlite3(join(dir, DATABASE_FILE), { timeout: 5000 });
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${sync}`);
  return db;
}
