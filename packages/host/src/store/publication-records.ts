import type { Json, Operator } from './records';

/**
 * A published result of a task: immutable bytes under `tasks/<taskId>/published/<id>/<fileName>`
 * beside their `manifest.json`. The record is written only after both files are durable, so a
 * record always names a whole file; a crash between leaves an unreferenced folder, never a record
 * without its file.
 */
export interface PublicationRecord {
  readonly id: string;
  readonly taskId: string;
  /** What was published: `{type: 'export', resourceId, format, revision}` or `{type: 'file', path, sha256, bytes}`. */
  readonly source: Json;
  /** The resource's revision for an export; null for a file. */
  readonly revision: number | null;
  /** The git commit of a file from a versioned work folder; null until the task's work folder is versioned. */
  readonly commit: string | null;
  readonly fileName: string;
  readonly mediaType: string;
  /** Hex SHA-256 of the published bytes. */
  readonly sha256: string;
  readonly bytes: number;
  readonly publishedAt: string;
  readonly operator: Operator;
  /** The key a repeated request (a resumed tool call) finds this publication by; null when none was given. */
  readonly idempotencyKey: string | null;
}

export interface PublicationRepo {
  insert(publication: PublicationRecord): Promise<void>;
  get(id: string): Promise<PublicationRecord | undefined>;
  byIdempotencyKey(key: string): Promise<PublicationRecord | undefined>;
  /** A task's publications, oldest first. */
  list(taskId: string): Promise<PublicationRecord[]>;
}
