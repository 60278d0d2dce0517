import type { LastSeenRecord, LastSeenRepo } from '../../last-seen-records';
import { lastSeenValues, toLastSeenRecord, type LastSeenRow } from '../../rows/last-seen-row';
import type { PgSession } from '../session';

export class PgLastSeenRepo implements LastSeenRepo {
  constructor(private readonly s: PgSession) {}

  async get(taskId: string, agentId: string, resourceId: string): Promise<LastSeenRecord | undefined> {
    const row = await this.s.first<LastSeenRow>('SELECT * FROM last_seen WHERE task_id = $1 AND agent_id = $2 AND resource_id = $3', [taskId, agentId, resourceId]);
    return row && toLastSeenRecord(row);
  }

  async put(r: LastSeenRecord): Promise<void> {
    await this.s.changes(
      `INSERT INTO last_seen (task_id, agent_id, resource_id, revision, call_key, previous_revision, seen_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (task_id, agent_id, resource_id) DO UPDATE SET
         revision = excluded.revision, call_key = excluded.call_key, previous_revision = excluded.previous_revision, seen_at = excluded.seen_at`,
      lastSeenValues(r),
    );
  }

  async list(taskId: string, agentId: string): Promise<LastSeenRecord[]> {
    return (await this.s.rows<LastSeenRow>('SELECT * FROM last_seen WHERE task_id = $1 AND agent_id = $2 ORDER BY resource_id', [taskId, agentId])).map(toLastSeenRecord);
  }
}
