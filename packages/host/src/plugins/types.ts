import type { Impact } from '../approvals/policy';
import type { Json, Operator } from '../store/records';
import type { JsonSchema } from '../util/json-schema';
import type { ResourceApi, ResourceReader } from './resource-api';
import type { SuiteDefinition } from './suite';

export type { Impact, JsonSchema, ResourceReader };

/**
 * `host`: the host owns the content; every change is a commit through the resource protocol.
 * `external`: an outside application owns the state (a Blender process); the plugin fingerprints it
 * and records outside changes as revisions, and says what it cannot guarantee.
 */
export type RevisionSemantics = 'host' | 'external';

/**
 * A resource kind: what its content looks like, which ops change it, and how to show both to a model.
 * `applyOp` must be pure and deterministic: the host replays ops from snapshots to rebuild old
 * revisions, and a draft applies the same ops to a copy.
 */
export interface ResourceKind<Content extends Json = Json, Op extends Json = Json> {
  /** Lower-case dotted name, unique across loaded plugins: `text`, `office.presentation`. */
  readonly name: string;
  readonly description: string;
  readonly revisionSemantics: RevisionSemantics;
  /** JSON Schema every content must match (checked on create and after every op). */
  readonly contentSchema: JsonSchema;
  /** JSON Schema every op must match (checked before the op reaches `applyOp`). */
  readonly opSchema: JsonSchema;
  /** Content of a resource created without content. */
  initialContent(): Content;
  /**
   * Domain checks on an op that the schema cannot express, independent of the current content.
   * Returns the problems; empty means valid.
   */
  validateOp?(op: Op): string[];
  /**
   * Domain checks on a whole content that the schema cannot express (duplicate ids, a part whose
   * geometry does not build). Run on create and import, and before a commit or an acceptance on
   * the content it would produce, outside the write lock (so it may be slow and async). Problems
   * refuse it (`invalid_content` on create, `invalid_op` on a commit) and nothing is written.
   */
  checkContent?(content: Content, context: CheckContentContext): readonly string[] | Promise<readonly string[]>;
  /**
   * Applies an op to the content, returning the new content without mutating the old one.
   * Throw `rejectOp(...)` when the op does not apply to this content (an index out of range).
   */
  applyOp(content: Content, op: Op): Content;
  /** A short text a model can read instead of the whole content. */
  summarize(content: Content): string;
  /** A compact, human-readable description of what changed between two contents. */
  diff(before: Content, after: Content): string;
  /** How the web page shows a content to people; without it the page shows the JSON. See ./views.ts. */
  view?(content: Content, context: import('./views').ViewContext): import('./views').ViewBlock[];
  /** The formats this kind exports to, by name (`pptx`, `pdf`, `zip`); see ./exports.ts. */
  readonly exports?: Readonly<Record<string, import('./exports').ExportFormat<Content>>>;
  /** The formats a person can bring in to create a resource of this kind, by name; see ./imports.ts. */
  readonly imports?: Readonly<Record<string, import('./imports').ImportFormat<Content>>>;
  /** A web app the host serves live at `/apps/:id/`; see ./apps.ts. */
  readonly app?: import('./apps').AppServing<Content>;
  /** Required for `external` revision semantics, refused for `host`: see ./external.ts. */
  readonly external?: import('./external').ExternalAdapter<Content, Op>;
}

/** What a tool needs granted before it may run; resource access is per kind. */
export type ResourceAccess = 'read' | 'draft' | 'propose' | 'commit';


export interface CheckContentContext {
  readonly signal: AbortSignal;
  readonly resources: ResourceReader;
}

export interface ToolPermission {
  readonly access: ResourceAccess;
  /** The kind this access applies to; omitted means the kinds of the tool's plugin. */
  readonly kind?: string;
}

/** What a tool handler receives besides its input. */
export interface ToolContext {
  /** Who is calling: the agent (or person) the tool acts for. */
  readonly operator: Operator;
  /** Key that makes a repeated call (after a crash) return the first call's result. */
  readonly idempotencyKey?: string;
  /** The task and agent making the call, when an agent makes it: what the tool starts belongs to them. */
  readonly taskId?: string;
  readonly agentId?: string;
  readonly signal: AbortSignal;
  /** The host's services a tool may use. */
  readonly host: ToolHostApi;
}

/** The host services exposed to tools. It grows as the host grows; tools never reach past it. */
export interface ToolHostApi {
  readonly workspaceDir: string;
  readonly resources: ResourceApi;
  /** The calling task's runs; absent when the call has no task (an MCP client's, a script's). */
  readonly runs?: ToolRunsApi;
}

/** What a run is about (README, "Runs"). */
export interface ToolRunFields {
  readonly name: string;
  readonly params?: Json;
  readonly goal?: { readonly metric: string; readonly direction: 'min' | 'max' };
  /** Paths relative to the task folder, inside `work/` or `runs/<runId>/`. */
  readonly artifacts?: readonly string[];
  /** The tool call's key (ToolContext.idempotencyKey): a resumed call answers the same run. */
  readonly idempotencyKey?: string;
}

/**
 * A plugin's way to record what it runs as the task's runs, as agents' start_run and record_run do:
 * the same records, metrics formats, digest in Main's context, HTTP and CLI.
 */
export interface ToolRunsApi {
  /**
   * Starts the plugin's own command (built by its code, never a model's text) as a job of the task,
   * supervised by the host and outliving it, and records it as a run. The job is not sandboxed: it
   * runs with the host's rights, as the plugin's code does; `cwd` is relative to the workspace.
   * Metrics are read from `metricsFile` (relative to `cwd`, default `metrics.jsonl`) and `METRIC` lines.
   */
  startJob(request: ToolRunFields & { readonly job: { command: string; args?: string[]; cwd?: string; env?: Record<string, string>; name?: string }; readonly metricsFile?: string }): Promise<Json>;
  /** The task's runs, newest first, their metrics read up to now (as list_runs shows them). */
  list(): Promise<Json[]>;
  /** Records a finished run whose metrics the plugin computed (lines in the metrics.jsonl shapes). */
  recordResult(request: ToolRunFields & { readonly metrics: readonly Json[]; readonly status?: 'succeeded' | 'failed' }): Promise<Json>;
}

/** A tool that ran. A failing tool returns `isError` with a message the model can act on. */
export interface ToolResult {
  readonly content: Json;
  readonly isError?: boolean;
}

/** A tool's impact decided from its input (method syntax keeps tools assignable as `ToolDefinition`, as `handler` does). */
export type ImpactOf<Input> = { decide(input: Input): Impact | undefined }['decide'];

export interface ToolDefinition<Input = Json> {
  /** snake_case, unique across loaded plugins. */
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the input; must describe an object. */
  readonly inputSchema: JsonSchema;
  readonly permissions: readonly ToolPermission[];
  /**
   * What makes a call high-impact (publishing, deleting, network, ...), for the workspace's approval
   * policy: a call with an impact waits for a person's approval unless the policy allows it. A
   * function decides from the input (a job only with `network: true`); undefined: an ordinary call.
   */
  readonly impact?: Impact | ImpactOf<Input>;
  /**
   * The call changes nothing: no commit, file, job or outside effect, so running it twice, or for a
   * model answer a crash then lost, cannot be seen. A turn of only such calls is saved in one write
   * with the answer (one fsync, not one per save); a resumed loop asks the model again instead of
   * re-running them. Leave it unset when in doubt. A high-impact tool cannot be read-only.
   */
  readonly readOnly?: boolean;
  handler(input: Input, context: ToolContext): Promise<ToolResult>;
}

/** A plugin's manifest: everything the host needs to know to load it. */
export interface PluginManifest {
  /** Unique plugin name, npm-style: `text`, `office`, `@acme/sheets`. */
  readonly name: string;
  /** Semantic version of the plugin. */
  readonly version: string;
  readonly description?: string;
  readonly kinds?: readonly ResourceKind[];
  readonly tools?: readonly ToolDefinition[];
  /** Benchmark suites of tasks for this plugin's kinds and tools (see ./suite.ts, `cowork bench`). */
  readonly suites?: readonly SuiteDefinition[];
  /**
   * Called once the host has opened, before it serves anything: warm what the first request would
   * otherwise wait for (a WASM kernel). A throw is reported among the host's plugin problems; the
   * plugin stays loaded.
   */
  start?(context: PluginStartContext): void | Promise<void>;
  /** Called when the host closes, plugins in reverse order: release workers, browsers, files. */
  close?(): void | Promise<void>;
}

export interface PluginStartContext {
  readonly workspaceDir: string;
  /**
   * Whether this host runs for long (a server, an agent run) rather than for one short command;
   * only a long-lived host is worth warming up for.
   */
  readonly longLived: boolean;
}

/** A manifest that went through `definePlugin`. */
export interface PluginDefinition extends PluginManifest {
  readonly kinds: readonly ResourceKind[];
  readonly tools: readonly ToolDefinition[];
}
