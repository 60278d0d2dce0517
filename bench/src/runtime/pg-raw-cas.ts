import pg from 'pg';
import type { CommitAttempt, CommitTarget } from './commit-target';

/**
 * The PostgreSQL baseline: the least a durable compare-and-set commit can do with plain `pg`, the
 * same data work as the host's commit (read the head, append one character, advance the head only
 * from the expected revision, record the revision) in one READ COMMITTED transaction that locks the
 * document's row (`SELECT ... FOR UPDATE`). One pooled connection per writer, so commits to
 * different documents run in parallel and the server shares their WAL flushes, as PostgreSQL does
 * for any such application. Same server settings as the store (synchronous_commit on, fsync on).
 */
export class PgRawCasTarget implements CommitTarget {
  private readonly pool: pg.Pool;

  constructor(url: string, connections: number) {
    this.pool = new pg.Pool({ connectionString: url, max: connections });
  }

  async tryCommit(documentId: string, baseRevision: number, writer: string): Promise<CommitAttempt> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ revision: number; content: string }>({ name: 'head', text: 'SELECT revision, content FROM documents WHERE id = $1 FOR UPDATE', values: [documentId] });
      const row = rows[0];
      if (!row) throw new Error(`raw baseline: no document ${documentId}`);
      if (row.revision !== baseRevision) {
        // A conflict writes nothing: the baseline keeps no record of the refused change.
        await client.query('ROLLBACK');
        return { ok: false, currentRevision: row.revision };
      }
      const revision = baseRevision + 1;
      const advanced = await client.query({ name: 'advance', text: 'UPDATE documents SET revision = $1, content = $2 WHERE id = $3 AND revision = $4', values: [revision, row.content + 'x', documentId, baseRevision] });
      if (advanced.rowCount !== 1) throw new Error('raw baseline: head moved inside its own transaction');
      await client.query({ name: 'record', text: 'INSERT INTO revisions (document_id, revision, op, operator, created_at) VALUES ($1, $2, $3, $4, $5)', values: [documentId, revision, 'append x', writer, new Date().toISOString()] });
      await client.query('COMMIT');
      return { ok: true, revision };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

/** Creates the baseline's tables in the empty database at `url` with `count` empty documents; returns their ids. */
export async function preparePgRawDatabase(url: string, count: number): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`
      CREATE TABLE documents (id text PRIMARY KEY, revision integer NOT NULL, content text NOT NULL);
      CREATE TABLE revisions (document_id text NOT NULL, revision integer NOT NULL, op text NOT NULL, operator text NOT NULL, created_at text NOT NULL, PRIMARY KEY (document_id, revision));
    `);
    const ids = Array.from({ length: count }, (_, i) => `doc${i + 1}`);
    for (const id of ids) await client.query("INSERT INTO documents (id, revision, content) VALUES ($1, 0, '')", [id]);
    return ids;
  } finally {
    await client.end();
  }
}
