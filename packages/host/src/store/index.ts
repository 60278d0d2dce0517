export type {
  CandidateRecord,
  CandidateSource,
  CandidateStatus,
  DraftRecord,
  DraftStatus,
  EventRecord,
  Json,
  Operator,
  ResourceRecord,
  RevisionAction,
  RevisionRecord,
  SelectionRecord,
} from './records';
export type {
  CandidateRepo,
  DraftRepo,
  EventRepo,
  IdempotencyRepo,
  ResourceRepo,
  RevisionQuery,
  RevisionRepo,
  SelectionRepo,
  Store,
  StoreTx,
  TransactionOptions,
} from './store';
export type {
  CompactionRecord,
  CompactionRepo,
  ConversationRecord,
  ConversationRepo,
  InboxKind,
  InboxRecord,
  InboxRepo,
  ModelCallRecord,
  ModelCallRepo,
} from './agent-records';
export { SqliteStore, type SqliteStoreOptions, type SynchronousMode } from './sqlite/sqlite-store';
export { MIGRATIONS, LATEST_SCHEMA_VERSION, migrate, type Migration } from './sqlite/migrations';
export { openWorkspaceStore, DATABASE_FILE, DATABASE_URL_ENV, type OpenStoreOptions } from './open-store';
export { PostgresStore, type PostgresStoreOptions } from './postgres/postgres-store';
export { PG_MIGRATIONS } from './postgres/migrations';
export { GROUP_COMMIT_DEFAULTS, type GroupCommitSettings } from './write-queue';
