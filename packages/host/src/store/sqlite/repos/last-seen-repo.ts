import type { Database, Statement } from 'better-sqlite3';
import type { LastSeenRecord, LastSeenRepo } from '../../last-seen-records';
import { lastSeenValues, toLastSeenRecord, type LastSeenRow } from '../../rows/last-seen-row';

export class SqliteLastSeenRepo implements LastSeenRepo {
  private readonly putStmt: Statement;
  private readonly getStmt: Statement<[string, string, string], LastSeenRow>;
  private readonly listStmt: Statement<[string, string], LastSeenRow>;

  constructor(db: Database) {
    this.putStmt = db.prepare(
      `INSERT INTO last_seen (task_id, agent_id, resource_id, revision, call_key, previous_revision, seen_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (task_id, agent_id, resource_id) DO UPDATE SET
         revision = excluded.revision, call_key = excluded.call_key, previous_revision = excluded.previous_revision, seen_at = excluded.seen_at`,
    );
    this.getStmt = db.prepare('SELECT * FROM last_seen WHERE task_id = ? AND agent_id = ? AND resource_id = ?');
    this.listStmt = db.prepare('SELECT * FROM last_seen WHERE task_id = ? AND agent_id = ? ORDER BY resource_id');
  }

  async get(taskId: string, agentId: string, resourceId: string): Promise<LastSeenRecord | undefined> {
    const row = this.getStmt.get(taskId, agentId, resourceId);
    return row && toLastSeenRecord(row);
  }

  async put(r: LastSeenRecord): Promise<void> {
    this.putStmt.run(...lastSeenValues(r));
  }

  async list(taskId: string, agentId: string): Promise<LastSeenRecord[]> {
    return this.listStmt.all(taskId, agentId).map(toLastSeenRecord);
  }
}
