import type { JobRecord } from '../store/job-records';
import type { StartJobInput } from '../jobs/job-input';
import type { LogQuery } from '../jobs/job-logs';
import type { JobLogs } from '../jobs/job-service';
import type { LogStream } from '../jobs/job-files';

/**
 * The `external` revision semantics: an outside application (a Blender process) holds the state.
 * The host still records every revision, but what it records is what the application reports:
 *
 * - a commit, under a per-resource lock, first observes the application and records any change
 *   nobody committed through the host as an `external` revision (so an agent working from an older
 *   base gets `revision_conflict` and sees the change among changes by others), then checks the op
 *   against the kind's pure `applyOp` (the host's model of the op, also used by drafts and
 *   candidates), performs it in the application, and records the content observed after it;
 * - a poll observes open sessions and records outside changes the same way.
 */
export interface ExternalAdapter<Content, Op> {
  /**
   * Connects to the application holding this resource, starting it if needed. Called lazily, once
   * per resource per host process; `resource.content` is what the host last recorded.
   */
  open(resource: ExternalResource<Content>, context: ExternalContext): Promise<ExternalSession<Content, Op>>;
}

export interface ExternalResource<Content> {
  readonly id: string;
  readonly revision: number;
  readonly content: Content;
}

export interface ExternalContext {
  readonly workspaceDir: string;
  /** `<workspace>/resources/<id>/`, created: where the application's files live (a .blend, a socket). */
  readonly resourceDir: string;
  /** The host's supervised background processes: an application runs as a job that outlives the host. */
  readonly jobs: ExternalJobs;
}

export interface ExternalJobs {
  start(input: StartJobInput): Promise<JobRecord>;
  get(id: string): Promise<JobRecord>;
  cancel(id: string): Promise<JobRecord>;
  /** The last lines of its output: to say why an application that ended did so. */
  logs(id: string, query: LogQuery & { stream?: LogStream }): Promise<JobLogs>;
}

export interface ExternalSession<Content, Op> {
  /**
   * Performs one op in the application and resolves with the content observed right after it.
   * `context.revision` is the revision the op becomes. An op that does not apply there (an unknown
   * object) throws `rejectOp(...)` and changes nothing.
   */
  apply(op: Op, context: { readonly revision: number }): Promise<ExternalObservation<Content>>;
  /** Reads the application's current state: before every op and on each poll. */
  observe(): Promise<ExternalObservation<Content>>;
  /** The host is closing (the application may keep running, as a job). */
  close(): Promise<void>;
}

export interface ExternalObservation<Content> {
  readonly content: Content;
  /** Why the state moved, when the application knows ("Blender restarted from the last save"). */
  readonly note?: string;
  /**
   * After a crash and a restart from the last save: the revision that save held. The revisions
   * after it may be lost; the host lists them as uncertain on the external revision it records.
   */
  readonly restoredFrom?: number;
}
