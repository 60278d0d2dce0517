import type { Migration } from './migration';

/**
 * The agent runtime: the durable Inbox, every agent's conversation log (Main's saved context is
 * built from it), compaction records, and token usage per model call.
 */
export const agentsMigration: Migration = {
  version: 2,
  name: 'agents',
  sql: `
    CREATE TABLE inbox (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      message_id TEXT NOT NULL UNIQUE,
      task_id TEXT NOT NULL,
      recipient TEXT NOT NULL,
      sender TEXT NOT NULL,
      kind TEXT NOT NULL,
      body TEXT NOT NULL,
      created_at TEXT NOT NULL,
      lease_owner TEXT,
      lease_until INTEGER,
      consumed_at TEXT
    ) STRICT;
    CREATE INDEX inbox_pending ON inbox(task_id, recipient, consumed_at);

    CREATE TABLE conversation (
      task_id TEXT NOT NULL,
      agent_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      turn INTEGER NOT NULL,
      message TEXT NOT NULL,
      source_message_id TEXT,
      created_at TEXT NOT NULL,
      PRIMARY KEY (task_id, agent_id, seq)
    ) STRICT, WITHOUT ROWID;
    CREATE UNIQUE INDEX conversation_source ON conversation(task_id, agent_id, source_message_id)
      WHERE source_message_id IS NOT NULL;

    CREATE TABLE compactions (
      task_id TEXT NOT NULL,
      agent_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      summarised_to_seq INTEGER NOT NULL,
      summary TEXT NOT NULL,
      dropped TEXT NOT NULL,
      created_at TEXT NOT NULL,
      PRIMARY KEY (task_id, agent_id, seq)
    ) STRICT, WITHOUT ROWID;

    CREATE TABLE model_calls (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      task_id TEXT NOT NULL,
      agent_id TEXT NOT NULL,
      turn INTEGER NOT NULL,
      model TEXT NOT NULL,
      input_tokens INTEGER NOT NULL,
      output_tokens INTEGER NOT NULL,
      finish_reason TEXT NOT NULL,
      latency_ms INTEGER NOT NULL,
      attempts INTEGER NOT NULL,
      created_at TEXT NOT NULL
    ) STRICT;
    CREATE INDEX model_calls_agent ON model_calls(task_id, agent_id);
  `,
};
