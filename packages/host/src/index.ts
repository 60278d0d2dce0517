/**
 * The plugin API: what a plugin author imports (`@cowork/host`). Defining kinds and tools, the
 * resource API a tool or a kind's checks see, external sessions, exports, imports and views, the
 * coded errors, and the helpers plugins share with the host. Embedding the host (opening a
 * workspace, serving it) is `@cowork/host/embed`; testing is `@cowork/host/testkit`.
 */
export { definePlugin, defineKind, defineTool, defineSuite, rejectOp, rejectFile, isPluginDefinition } from './plugins/define-plugin';
export type {
  CheckVerdict,
  RubricItem,
  SuiteCheck,
  SuiteCheckContext,
  SuiteDefinition,
  SuiteTask,
  SuiteTaskResource,
  TextModel,
  TrialEntry,
  TrialRun,
  UserTurnContext,
} from './plugins/suite';
/** The tool calls of a trial with their results, for a suite's checks. */
export { runCalls, type RunCall } from './evaluation/run-calls';
// For plugins that evaluate and report (the trainer's round report): the runner's own interval and plots.
export { bootstrapCi, type BootstrapOptions, type ConfidenceInterval } from './evaluation/bootstrap';
export { barChart, lineChart, escapeHtml, type Bar, type Point } from './evaluation/svg-plot';
export { asToolResult } from './plugins/tool-result';
export { opShape } from './plugins/op-shape';
export type { ExportContext, ExportFormat, ExportResult } from './plugins/exports';
export type { ImportContext, ImportFormat } from './plugins/imports';
export { SafeZip, ZipFormatError, type ZipEntry, type ZipLimits } from './plugins/safe-zip';
export { moduleScript } from './util/module-script';
export type { AppFile, AppServing } from './plugins/apps';
export type { ExternalAdapter, ExternalContext, ExternalJobs, ExternalObservation, ExternalResource, ExternalSession } from './plugins/external';
export type { ActionInput, FieldInput, FieldValue, ViewBlock, ViewContext } from './plugins/views';
export type {
  PluginDefinition,
  PluginManifest,
  PluginStartContext,
  CheckContentContext,
  Impact,
  ResourceReader,
  ResourceAccess,
  ResourceKind,
  RevisionSemantics,
  ToolContext,
  ToolDefinition,
  ToolHostApi,
  ToolRunsApi,
  ToolRunFields,
  ToolPermission,
  ToolResult,
} from './plugins/types';
export type {
  AcceptRequest,
  AgentView,
  ChangesQuery,
  CommitRequest,
  CommitResult,
  CreateRequest,
  ResourceApi,
  RestoreRequest,
} from './plugins/resource-api';
export type { RevisionEvent, RevisionListener } from './plugins/revision-event';
export type { CandidateRecord, DraftRecord, Json, Operator, ResourceRecord, RevisionRecord, SelectionRecord } from './store/records';
export type { JsonSchema } from './util/json-schema';
export { textKind, type TextContent, type TextOp } from './plugins/builtin/text-kind';
export { CoworkError, isCoworkError, ERROR_CODES, type ErrorCode } from './errors';
/** Helpers plugins share with the host: line diffs, JSON equality, and files written whole or not at all (fsynced). */
export { lineDiff } from './util/line-diff';
export { jsonEqual } from './util/json';
export { writeFileAtomic, writeJsonAtomic } from './util/atomic-file';
export { containedPath, containedRelative, checkPathText, openContained, resolveInWorkspace, isInside, MAX_PATH_BYTES, type PathOptions, type PathRefusal } from './util/paths';
export { killJobProcesses, type JobProcesses } from './util/kill-jobs';
export { processAlive } from './util/process-identity';
export { seededRandom } from './util/random';
