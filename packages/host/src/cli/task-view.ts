import type { GateBlocker } from '../agents/completion-gate';
import { readTaskView as readSharedView, type AssignmentView as SharedAssignmentView, type TokenTotals } from '../agents/task-view';
import type { Lifecycle } from '../coordinator/state';
import type { Host } from '../host';
import type { InboxKind } from '../store/agent-records';
import { formatTokens } from './progress';

/**
 * What `cowork task` shows and `cowork run` sums up: a task as its durable records have it (the
 * coordinator's state, the Inbox, the conversation logs and the token ledger), read in one go.
 */
export interface TaskView {
  readonly taskId: string;
  readonly status: Lifecycle;
  readonly waitingReason: string | null;
  readonly summary: string | null;
  readonly request: string;
  readonly maxTokens: number | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Main's turns so far. */
  readonly turns: number;
  readonly assignments: readonly AssignmentView[];
  /** Inbox messages not yet delivered to their recipient. */
  readonly inbox: readonly PendingMessage[];
  /** Why `finish` would be refused now; empty when nothing is open. */
  readonly gate: readonly GateBlocker[];
  readonly tokens: TokenTotals;
}

export interface AssignmentView {
  readonly assignmentId: string;
  readonly agentId: string;
  readonly mode: 'sync' | 'async';
  readonly status: Lifecycle;
  /** The first line of the assignment. */
  readonly assignment: string;
  readonly lastUpdate: string | null;
  /** The subagent's own result status (`done`, `timeout`, `budget_exhausted`, ...) once it ended. */
  readonly resultStatus: string | null;
  readonly turns: number;
  readonly tokens: TokenTotals;
  readonly updatedAt: string;
}

export interface PendingMessage {
  readonly messageId: string;
  readonly recipient: string;
  readonly kind: InboxKind;
  readonly sender: string;
  readonly createdAt: string;
}

export type { TokenTotals };

/**
 * The task's view (agents/task-view.ts, the one every edge reads) in the shape `cowork task` prints
 * and `--json` writes; `not_found` when there is no such task.
 */
export async function readTaskView(host: Host, taskId: string): Promise<TaskView> {
  const view = await readSharedView(host, taskId);
  const { task } = view;
  return {
    taskId,
    status: task.status,
    waitingReason: task.waitingReason,
    summary: task.summary,
    request: task.request,
    maxTokens: task.maxTokens,
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
    turns: view.turns,
    assignments: view.assignments.map(assignmentRow),
    inbox: view.inbox.map(({ messageId, recipient, kind, sender, createdAt }) => ({ messageId, recipient, kind, sender, createdAt })),
    gate: view.gate,
    tokens: view.tokens,
  };
}

/** `cowork task` as text: state, request, assignments, pending Inbox, gate, tokens. */
export function describeTaskView(view: TaskView): string[] {
  const waiting = view.waitingReason !== null && view.status === 'waiting' ? ` (${view.waitingReason})` : '';
  return [
    `${view.taskId}  ${view.status}${waiting}`,
    `  created ${view.createdAt} · updated ${view.updatedAt}`,
    ...indented('request', view.request),
    ...(view.summary !== null ? indented('summary', view.summary) : []),
    `  turns: ${view.turns} (main)`,
    `  tokens: ${describeTokens(view.tokens)}${view.maxTokens !== null ? ` of a ${formatTokens(view.maxTokens)} budget` : ''}`,
    `  assignments:${view.assignments.length === 0 ? ' none' : ''}`,
    ...view.assignments.map((a) => `    ${describeAssignment(a)}${a.lastUpdate ? `\n      last update: ${a.lastUpdate}` : ''}`),
    `  Inbox, not yet delivered:${view.inbox.length === 0 ? ' none' : ''}`,
    ...view.inbox.map((m) => `    ${m.messageId}  to ${m.recipient}  ${m.kind} from ${m.sender}  ${m.createdAt}`),
    `  completion gate:${view.gate.length === 0 ? ' open (finish would be accepted)' : ''}`,
    ...view.gate.map((b) => `    ${b.kind} ${b.id}: ${b.detail.replace(/\s*\n\s*/g, ' ')}`),
  ];
}

/** One assignment on one line: agent, mode, status, result status, turns, tokens, what it was asked. */
export function describeAssignment(a: AssignmentView): string {
  const result = a.resultStatus !== null && a.resultStatus !== a.status ? ` (${a.resultStatus})` : '';
  return `${a.agentId}  ${a.mode}  ${a.status}${result}  ${a.turns} turn${a.turns === 1 ? '' : 's'}, ${describeTokens(a.tokens)}  "${a.assignment}"`;
}

export function describeTokens(tokens: TokenTotals): string {
  return `${formatTokens(tokens.inputTokens)} in / ${formatTokens(tokens.outputTokens)} out`;
}

/** The first line of a text, cut to `max` characters. */
export function firstLine(text: string, max = 80): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function assignmentRow({ state: a, turns, tokens, resultStatus }: SharedAssignmentView): AssignmentView {
  return {
    assignmentId: a.id,
    agentId: a.agentId,
    mode: a.mode,
    status: a.status,
    assignment: firstLine(a.assignment),
    lastUpdate: a.lastUpdate,
    resultStatus,
    turns,
    tokens,
    updatedAt: a.updatedAt,
  };
}

function indented(label: string, text: string): string[] {
  const lines = text.split('\n');
  return lines.length === 1 ? [`  ${label}: ${text}`] : [`  ${label}:`, ...lines.map((line) => `    ${line}`)];
}
