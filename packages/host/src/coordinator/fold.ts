import { CoworkError } from '../errors';
import type { Json } from '../store/records';
import type { CoordinatorEvent, CoordinatorEventData } from './events';
import { TERMINAL, emptyState, type AssignmentState, type CoordinatorState, type Lifecycle, type TaskState } from './state';

/**
 * The coordinator's fold: `state' = reduce(state, event)`. Deterministic (no I/O, no clock, no
 * randomness; the time comes in the event), so replaying the log rebuilds exactly the state it had.
 *
 * `planEvent` checks an event against the state and returns the mutation that applies it, without
 * changing anything; this lets the coordinator refuse an invalid event before it is appended.
 * Applying mutates the state in place, so a replay of a long log stays linear.
 */
export function planEvent(state: CoordinatorState, event: CoordinatorEvent): () => void {
  const plan = planFor(state, event);
  return () => {
    plan();
    state.lastSeq += 1;
  };
}

/** Applies one event (checks first; throws without changing the state if it does not fit). */
export function applyEvent(state: CoordinatorState, event: CoordinatorEvent): CoordinatorState {
  planEvent(state, event)();
  return state;
}

/** Replays a log from the empty state. */
export function foldEvents(events: Iterable<CoordinatorEvent>): CoordinatorState {
  const state = emptyState();
  for (const event of events) applyEvent(state, event);
  return state;
}

const TRANSITIONS: Record<Lifecycle, readonly Lifecycle[]> = {
  queued: ['running', 'failed', 'cancelled'],
  running: ['waiting', 'done', 'failed', 'cancelled'],
  waiting: ['running', 'done', 'failed', 'cancelled'],
  done: [],
  failed: [],
  cancelled: [],
};

function planFor(state: CoordinatorState, event: CoordinatorEvent): () => void {
  const at = event.at;
  switch (event.type) {
    case 'task.created':
      return planTaskCreated(state, event.data, at);
    case 'task.started':
      return moveTask(state, event.data.taskId, 'running', at, { waitingReason: null });
    case 'task.waiting':
      return moveTask(state, event.data.taskId, 'waiting', at, { waitingReason: event.data.reason });
    case 'task.resumed':
      return moveTask(state, event.data.taskId, 'running', at, { waitingReason: null }, 'waiting');
    case 'task.finished':
      return planTaskFinished(state, event.data, at);
    case 'assignment.requested':
      return planAssignmentRequested(state, event.data, at);
    case 'assignment.started':
      return moveAssignment(state, event.data.assignmentId, 'running', at, {}, 'queued');
    case 'assignment.updated': {
      const assignment = requireAssignment(state, event.data.assignmentId);
      requireStatus('assignment', assignment.id, assignment.status, ['running']);
      return () => {
        assignment.updates += 1;
        assignment.lastUpdate = event.data.note;
        assignment.updatedAt = at;
      };
    }
    case 'assignment.waiting':
      return moveAssignment(state, event.data.assignmentId, 'waiting', at, { waitingReason: event.data.reason });
    case 'assignment.resumed':
      return moveAssignment(state, event.data.assignmentId, 'running', at, { waitingReason: null }, 'waiting');
    case 'assignment.finished':
      return moveAssignment(state, event.data.assignmentId, event.data.outcome, at, {
        waitingReason: null,
        result: (event.data.result ?? null) as Json,
      });
    case 'message.sent':
      return planMessage(state, event.data);
    default:
      // Events of other subsystems share the log; the coordinator's state ignores them.
      return () => undefined;
  }
}

function planTaskCreated(state: CoordinatorState, data: CoordinatorEventData<'task.created'>, at: string): () => void {
  if (state.tasks[data.taskId]) throw duplicate('task', data.taskId);
  if (data.parentTaskId !== undefined) requireTask(state, data.parentTaskId);
  return () => {
    state.tasks[data.taskId] = {
      id: data.taskId,
      request: data.request,
      parentTaskId: data.parentTaskId ?? null,
      maxTokens: data.maxTokens ?? null,
      status: 'queued',
      waitingReason: null,
      summary: null,
      assignmentIds: [],
      messageCount: 0,
      createdAt: at,
      updatedAt: at,
    };
  };
}

function planTaskFinished(state: CoordinatorState, data: CoordinatorEventData<'task.finished'>, at: string): () => void {
  const move = moveTask(state, data.taskId, data.outcome, at, { waitingReason: null, summary: data.summary ?? null });
  const task = requireTask(state, data.taskId);
  return () => {
    move();
    // A task that stops early takes its open assignments with it.
    if (data.outcome === 'done') return;
    for (const id of task.assignmentIds) {
      const assignment = state.assignments[id]!;
      if (!TERMINAL.has(assignment.status)) {
        assignment.status = 'cancelled';
        assignment.waitingReason = null;
        assignment.updatedAt = at;
      }
    }
  };
}

function planAssignmentRequested(
  state: CoordinatorState,
  data: CoordinatorEventData<'assignment.requested'>,
  at: string,
): () => void {
  if (state.assignments[data.assignmentId]) throw duplicate('assignment', data.assignmentId);
  const task = requireTask(state, data.taskId);
  if (TERMINAL.has(task.status)) {
    throw transition('task', task.id, `cannot delegate from a task that is ${task.status}`, task.status);
  }
  return () => {
    state.assignments[data.assignmentId] = {
      id: data.assignmentId,
      taskId: data.taskId,
      agentId: data.agentId,
      mode: data.mode,
      assignment: data.assignment,
      grants: data.grants ?? [],
      background: data.background ?? null,
      maxTokens: data.maxTokens ?? null,
      timeoutMs: data.timeoutMs ?? null,
      status: 'queued',
      waitingReason: null,
      updates: 0,
      lastUpdate: null,
      result: null,
      createdAt: at,
      updatedAt: at,
    };
    task.assignmentIds.push(data.assignmentId);
    task.updatedAt = at;
  };
}

function planMessage(state: CoordinatorState, data: CoordinatorEventData<'message.sent'>): () => void {
  if (state.messageIds[data.messageId]) throw duplicate('message', data.messageId);
  const task = requireTask(state, data.taskId);
  return () => {
    state.messageIds[data.messageId] = true;
    task.messageCount += 1;
  };
}

function moveTask(
  state: CoordinatorState,
  taskId: string,
  to: Lifecycle,
  at: string,
  patch: Partial<TaskState>,
  from?: Lifecycle,
): () => void {
  const task = requireTask(state, taskId);
  checkTransition('task', task.id, task.status, to, from);
  return () => Object.assign(task, patch, { status: to, updatedAt: at });
}

function moveAssignment(
  state: CoordinatorState,
  assignmentId: string,
  to: Lifecycle,
  at: string,
  patch: Partial<AssignmentState>,
  from?: Lifecycle,
): () => void {
  const assignment = requireAssignment(state, assignmentId);
  checkTransition('assignment', assignment.id, assignment.status, to, from);
  return () => Object.assign(assignment, patch, { status: to, updatedAt: at });
}

function checkTransition(what: string, id: string, current: Lifecycle, to: Lifecycle, from?: Lifecycle): void {
  if (from !== undefined) requireStatus(what, id, current, [from]);
  if (!TRANSITIONS[current].includes(to)) {
    throw transition(what, id, `cannot go from ${current} to ${to}`, current);
  }
}

function requireStatus(what: string, id: string, current: Lifecycle, allowed: readonly Lifecycle[]): void {
  if (!allowed.includes(current)) {
    throw transition(what, id, `must be ${allowed.join(' or ')}, but is ${current}`, current);
  }
}

function requireTask(state: CoordinatorState, taskId: string): TaskState {
  const task = state.tasks[taskId];
  if (!task) throw new CoworkError('not_found', `no task ${JSON.stringify(taskId)}`, { taskId });
  return task;
}

function requireAssignment(state: CoordinatorState, assignmentId: string): AssignmentState {
  const assignment = state.assignments[assignmentId];
  if (!assignment) throw new CoworkError('not_found', `no assignment ${JSON.stringify(assignmentId)}`, { assignmentId });
  return assignment;
}

function transition(what: string, id: string, why: string, status: Lifecycle): CoworkError {
  return new CoworkError('invalid_transition', `${what} ${id} ${why}`, { [`${what}Id`]: id, status });
}

function duplicate(what: string, id: string): CoworkError {
  return new CoworkError('invalid_input', `${what} ${JSON.stringify(id)} already exists`, { [`${what}Id`]: id });
}
