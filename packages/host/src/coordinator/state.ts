import type { Json } from '../store/records';

/** Lifecycle of tasks and assignments. `done`, `failed` and `cancelled` are terminal. */
export type Lifecycle = 'queued' | 'running' | 'waiting' | 'done' | 'failed' | 'cancelled';

export const TERMINAL: ReadonlySet<Lifecycle> = new Set(['done', 'failed', 'cancelled']);

export interface TaskState {
  id: string;
  request: string;
  parentTaskId: string | null;
  maxTokens: number | null;
  status: Lifecycle;
  waitingReason: string | null;
  summary: string | null;
  assignmentIds: string[];
  messageCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface AssignmentState {
  id: string;
  taskId: string;
  agentId: string;
  mode: 'sync' | 'async';
  assignment: string;
  grants: string[];
  background: string | null;
  maxTokens: number | null;
  timeoutMs: number | null;
  status: Lifecycle;
  waitingReason: string | null;
  updates: number;
  lastUpdate: string | null;
  result: Json;
  createdAt: string;
  updatedAt: string;
}

/** The coordinator's whole state: a fold over its event log, up to and including `lastSeq`. */
export interface CoordinatorState {
  lastSeq: number;
  tasks: Record<string, TaskState>;
  assignments: Record<string, AssignmentState>;
  /** Message ids already recorded; a repeated id is a duplicate. */
  messageIds: Record<string, true>;
}

/**
 * The maps have no prototype: ids come from outside (a URL, a tool call), and `tasks['constructor']`
 * must be absent, not Object's constructor.
 */
export function emptyState(): CoordinatorState {
  return { lastSeq: 0, tasks: idMap(), assignments: idMap(), messageIds: idMap() };
}

function idMap<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}
