import type { Database, Statement } from 'better-sqlite3';
import type { PublicationRecord, PublicationRepo } from '../../publication-records';
import type { Operator } from '../../records';
import { parseStored } from '../../../util/json';

interface PublicationRow {
  id: string;
  task_id: string;
  source: string;
  revision: number | null;
  commit_sha: string | null;
  file_name: string;
  media_type: string;
  sha256: string;
  bytes: number;
  published_at: string;
  operator: string;
  idempotency_key: string | null;
}

export class SqlitePublicationRepo implements PublicationRepo {
  private readonly insertStmt: Statement;
  private readonly getStmt: Statement<[string], PublicationRow>;
  private readonly byKeyStmt: Statement<[string], PublicationRow>;
  private readonly listStmt: Statement<[string], PublicationRow>;

  constructor(db: Database) {
    this.insertStmt = db.prepare(
      `INSERT INTO publications (id, task_id, source, revision, commit_sha, file_name, media_type, sha256, bytes, published_at, operator, idempotency_key)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.getStmt = db.prepare('SELECT * FROM publications WHERE id = ?');
    this.byKeyStmt = db.prepare('SELECT * FROM publications WHERE idempotency_key = ?');
    this.listStmt = db.prepare('SELECT * FROM publications WHERE task_id = ? ORDER BY published_at, id');
  }

  async insert(p: PublicationRecord): Promise<void> {
    this.insertStmt.run(p.id, p.taskId, JSON.stringify(p.source), p.revision, p.commit, p.fileName, p.mediaType, p.sha256, p.bytes, p.publishedAt, p.operator, p.idempotencyKey);
  }

  async get(id: string): Promise<PublicationRecord | undefined> {
    const row = this.getStmt.get(id);
    return row && toRecord(row);
  }

  async byIdempotencyKey(key: string): Promise<PublicationRecord | undefined> {
    const row = this.byKeyStmt.get(key);
    return row && toRecord(row);
  }

  async list(taskId: string): Promise<PublicationRecord[]> {
    return this.listStmt.all(taskId).map(toRecord);
  }
}

function toRecord(row: PublicationRow): PublicationRecord {
  return {
    id: row.id,
    taskId: row.task_id,
    source: parseStored(row.source),
    revision: row.revision,
    commit: row.commit_sha,
    fileName: row.file_name,
    mediaType: row.media_type,
    sha256: row.sha256,
    bytes: row.bytes,
    publishedAt: row.published_at,
    operator: row.operator as Operator,
    idempotencyKey: row.idempotency_key,
  };
}
