/**
 * The host's public API. Plugin authors import from here only: `definePlugin`, the kind and tool
 * types, `rejectOp`, and the error types. Embedders also get `Host`.
 */
export { definePlugin, defineKind, defineTool, rejectOp, rejectFile, isPluginDefinition } from './plugins/define-plugin';
export { asToolResult } from './plugins/tool-result';
export { opShape } from './plugins/op-shape';
export type { ExportContext, ExportFormat, ExportResult } from './plugins/exports';
export type { ImportContext, ImportFormat } from './plugins/imports';
export { SafeZip, ZipFormatError, type ZipEntry, type ZipLimits } from './plugins/safe-zip';
export type { AppFile, AppServing } from './plugins/apps';
export type { ExternalAdapter, ExternalContext, ExternalJobs, ExternalObservation, ExternalResource, ExternalSession } from './plugins/external';
export type { ViewBlock, ViewContext } from './plugins/views';
export type { PluginDefinition, PluginManifest, PluginStartContext, CheckContentContext, ResourceReader, ResourceAccess, ResourceKind, RevisionSemantics, ToolContext, ToolDefinition, ToolHostApi, ToolPermission, ToolResult } from './plugins/types';
export type { JsonSchema } from './util/json-schema';
export { PluginRegistry, type PluginProblem, type RegisteredKind, type RegisteredTool } from './plugins/registry';
export { textKind, type TextContent, type TextOp } from './plugins/builtin/text-kind';
export { textPlugin } from './plugins/builtin/text-plugin';
export { lineDiff } from './util/line-diff';
export { CoworkError, isCoworkError, ERROR_CODES, type ErrorCode } from './errors';
export { Host, type HostOptions } from './host';
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
export type {
  CandidateRecord,
  DraftRecord,
  EventRecord,
  Json,
  Operator,
  ResourceRecord,
  RevisionRecord,
  SelectionRecord,
  Store,
  StoreTx,
} from './store';
export { Coordinator } from './coordinator/coordinator';
export type { CoordinatorEvent, CoordinatorEventInput, CoordinatorEventType } from './coordinator/events';
export type { AssignmentState, CoordinatorState, Lifecycle, TaskState } from './coordinator/state';
export { AgentRuntime, type RuntimeOptions, type RuntimeEvent, type TaskRunResult, type SubagentResult } from './agents/runtime';
export type { GateBlocker, GateContributor } from './agents/completion-gate';
export type { ChatMessage, ModelProvider, ModelRequest, ModelResponse, ToolCall, ToolSpec, TokenUsage } from './models/types';
export { OpenAiCompatibleProvider, RecordingProvider, ReplayProvider, createModelProvider, modelConfigFromEnv, MODEL_ENV, type ModelConfig } from './models';
export { startScriptedModelServer, reply, type ScriptedModelServer, type Script, type ScriptStep } from './testkit/scripted-model-server';
export { LiveTestClient, type LiveMessage } from './testkit/live-client';
export { openTempHost, type TempHost } from './testkit/temp-host';
export { fuzzRoutes, type FuzzFailure, type RouteFuzzOptions, type RouteFuzzReport } from './testkit/route-fuzz';
export { buildContext, type BuiltContext, type ContextInput } from './agents/context-builder';
export { loadRecentContext } from './agents/context-loader';
export { JobService, type JobServiceOptions, type StartOptions as StartJobOptions } from './jobs/job-service';
export type { StartJobInput } from './jobs/job-input';
export type { JobRecord, JobStatus } from './store/job-records';
export {
  MonitorService,
  type CheckResult,
  type CreateMonitorOptions,
  type MonitorEvent,
  type MonitorEventListener,
  type MonitorOwner,
  type MonitorServiceOptions,
} from './monitors/monitor-service';
export type { CreateMonitorInput } from './monitors/monitor-input';
export { parseCron, nextCronTime, type CronSchedule } from './monitors/cron';
export type { MonitorKind, MonitorRecord, MonitorStatus, MonitorTarget } from './store/monitor-records';
export { createServer, type CoworkServer, type ServerOptions } from './server/create-server';
/** Helpers plugins share with the host: JSON equality, and files written whole or not at all (fsynced). */
export { jsonEqual } from './util/json';
export { writeFileAtomic, writeJsonAtomic } from './util/atomic-file';
