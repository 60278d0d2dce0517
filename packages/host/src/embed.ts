/**
 * Embedding the host (`@cowork/host/embed`): opening a workspace (`Host.open`), serving it over
 * HTTP and WebSocket (`createServer`), running tasks (`AgentRuntime`) with a model provider, and the
 * services a host is made of. Plugins never need this; they import `@cowork/host`.
 */
export { Host, type HostOptions } from './host';
export { createServer, type CoworkServer, type ServerOptions } from './server/create-server';
export { PluginRegistry, type PluginProblem, type RegisteredKind, type RegisteredTool } from './plugins/registry';
export { textPlugin } from './plugins/builtin/text-plugin';
// People of a workspace and their tokens (`cowork users`), and approvals of high-impact calls.
export { UserDirectory, type UserSummary } from './identity/user-directory';
export { Approvals, type ApprovalRequest } from './approvals/approvals';
export type { EventRecord, Store, StoreTx } from './store';
export { Coordinator } from './coordinator/coordinator';
export type { CoordinatorEvent, CoordinatorEventInput, CoordinatorEventType } from './coordinator/events';
export type { AssignmentState, CoordinatorState, Lifecycle, TaskState } from './coordinator/state';
export { AgentRuntime, type RuntimeOptions, type RuntimeEvent, type TaskRunResult, type SubagentResult } from './agents/runtime';
export { taskRunsApi } from './agents/task-runs-api';
export type { GateBlocker, GateContributor } from './agents/completion-gate';
export { readTaskView, listTasks, type TaskView } from './agents/task-view';
export { buildContext, type BuiltContext, type ContextInput } from './agents/context-builder';
export { loadRecentContext } from './agents/context-loader';
export type { ChatMessage, ModelProvider, ModelRequest, ModelResponse, ToolCall, ToolSpec, TokenUsage } from './models/types';
export { OpenAiCompatibleProvider, RecordingProvider, ReplayProvider, createModelProvider, modelConfigFromEnv, MODEL_ENV, type ModelConfig } from './models';
export { charEstimateTokenizer, encodingForModel, tokenizerFor, type TokenEncodingName, type Tokenizer } from './models';
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
// Benchmark runs (evaluation/): a suite's tasks run as real host tasks and scored by its checks.
export { runSuite, DEFAULT_BUDGET, type SuiteRunOptions } from './evaluation/runner';
export { runTrial, type TrialModel, type TrialOptions, type TrialOutcome } from './evaluation/trial';
export { loadSuiteTasks, TASK_FILE_SCHEMA } from './evaluation/task-file';
export { availableSuites, findSuite, type AvailableSuite } from './evaluation/suites';
export { runtimeSuite } from './evaluation/runtime-suite';
export { readScript, ScriptProvider, ScriptRecorder, SCRIPT_FORMAT, type SessionScript, type ScriptTurn, type ScriptToolCall } from './evaluation/script';
export { summarize } from './evaluation/metrics';
export { compareResults } from './evaluation/pairwise';
export { reportHtml } from './evaluation/report-html';
export { formatResultsTable, formatComparison } from './evaluation/results-table';
export { RESULTS_FORMAT, RUN_RECORD_FORMAT, type ResultsFile, type RunRecord, type TrialResult, type ItemResult, type TaskBudget } from './evaluation/results-format';
// MCP (mcp-server/, mcp-client/): the host served over MCP, and the servers mounted in a workspace.
export { McpHostServer, type McpHostOptions } from './mcp-server';
export type { McpServers, McpServerStatus } from './mcp-client/servers';
// The process a long-running host runs in (cli/node-pool.ts): V8's background pool sized to the machine.
export { currentNodePool, serveNodeFlags, NODE_DEFAULT_POOL_SIZE, type NodePool } from './cli/node-pool';
