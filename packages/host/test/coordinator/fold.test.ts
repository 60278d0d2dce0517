/**
 * Invariant: the coordinator state is a deterministic fold over its events. Legal lifecycle moves
 * apply; illegal ones are refused with a coded error and leave the state untouched.
 */
import { applyEvent, foldEvents } from '../../src/coordinator/fold';
import { emptyState } from '../../src/coordinator/state';
import type { CoordinatorEvent } from '../../src/coordinator/events';
import { Coordinator } from '../../src/coordinator/coordinator';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store';
import { tempDir } from '../support/temp-host';

const at = (n: number): string => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();

function event<T extends CoordinatorEvent['type']>(type: T, data: Extract<CoordinatorEvent, { type: T }>['data'], n = 0): CoordinatorEvent {
  return { type, data, at: at(n) } as CoordinatorEvent;
}

describe('coordinator fold', () => {
  it('walks a task and its assignment through their lifecycle', () => {
    const state = foldEvents([
      event('task.created', { taskId: 't1', request: 'build a deck' }, 1),
      event('task.started', { taskId: 't1' }, 2),
      event('assignment.requested', { assignmentId: 'a1', taskId: 't1', agentId: 'sub1', mode: 'async', assignment: 'draft slide 2' }, 3),
      event('assignment.started', { assignmentId: 'a1' }, 4),
      event('assignment.updated', { assignmentId: 'a1', note: 'half done' }, 5),
      event('assignment.waiting', { assignmentId: 'a1', reason: 'render' }, 6),
      event('assignment.resumed', { assignmentId: 'a1' }, 7),
      event('assignment.finished', { assignmentId: 'a1', outcome: 'done', result: { slides: 1 } }, 8),
      event('message.sent', { messageId: 'm1', taskId: 't1', from: 'sub1', to: 'main', body: 'done' }, 9),
      event('task.waiting', { taskId: 't1', reason: 'user review' }, 10),
      event('task.resumed', { taskId: 't1' }, 11),
      event('task.finished', { taskId: 't1', outcome: 'done', summary: 'deck ready' }, 12),
    ]);
    expect(state.lastSeq).toBe(12);
    expect(state.tasks.t1).toMatchObject({ status: 'done', summary: 'deck ready', assignmentIds: ['a1'], messageCount: 1, updatedAt: at(12) });
    expect(state.assignments.a1).toMatchObject({ status: 'done', updates: 1, lastUpdate: 'half done', result: { slides: 1 } });
  });

  it("treats ids that name Object's own properties as ordinary ids", () => {
    expect(emptyState().tasks['constructor']).toBeUndefined();
    const state = foldEvents([
      event('task.created', { taskId: 'constructor', request: 'an id from outside' }, 1),
      event('assignment.requested', { assignmentId: 'toString', taskId: 'constructor', agentId: 'sub1', mode: 'sync', assignment: 'x' }, 2),
    ]);
    expect(state.tasks['constructor']).toMatchObject({ id: 'constructor', assignmentIds: ['toString'] });
    expect(state.tasks['hasOwnProperty']).toBeUndefined();
  });

  it('cancels the open assignments of a task that is cancelled or fails', () => {
    const state = foldEvents([
      event('task.created', { taskId: 't1', request: 'r' }),
      event('task.started', { taskId: 't1' }),
      event('assignment.requested', { assignmentId: 'a1', taskId: 't1', agentId: 's', mode: 'sync', assignment: 'x' }),
      event('assignment.requested', { assignmentId: 'a2', taskId: 't1', agentId: 's', mode: 'async', assignment: 'y' }),
      event('assignment.started', { assignmentId: 'a2' }),
      event('assignment.finished', { assignmentId: 'a2', outcome: 'failed' }),
      event('task.finished', { taskId: 't1', outcome: 'cancelled' }),
    ]);
    expect(state.assignments.a1!.status).toBe('cancelled');
    expect(state.assignments.a2!.status).toBe('failed');
  });

  const illegal: [string, CoordinatorEvent[], CoordinatorEvent, string][] = [
    ['starting an unknown task', [], event('task.started', { taskId: 'nope' }), 'not_found'],
    ['creating a task twice', [event('task.created', { taskId: 't', request: 'r' })], event('task.created', { taskId: 't', request: 'r' }), 'invalid_input'],
    ['finishing a queued task as done', [event('task.created', { taskId: 't', request: 'r' })], event('task.finished', { taskId: 't', outcome: 'done' }), 'invalid_transition'],
    ['resuming a running task', [event('task.created', { taskId: 't', request: 'r' }), event('task.started', { taskId: 't' })], event('task.resumed', { taskId: 't' }), 'invalid_transition'],
    [
      'delegating from a finished task',
      [event('task.created', { taskId: 't', request: 'r' }), event('task.finished', { taskId: 't', outcome: 'cancelled' })],
      event('assignment.requested', { assignmentId: 'a', taskId: 't', agentId: 's', mode: 'sync', assignment: 'x' }),
      'invalid_transition',
    ],
    [
      'updating a queued assignment',
      [event('task.created', { taskId: 't', request: 'r' }), event('assignment.requested', { assignmentId: 'a', taskId: 't', agentId: 's', mode: 'sync', assignment: 'x' })],
      event('assignment.updated', { assignmentId: 'a', note: 'n' }),
      'invalid_transition',
    ],
    [
      'a duplicate message id',
      [event('task.created', { taskId: 't', request: 'r' }), event('message.sent', { messageId: 'm', taskId: 't', from: 'a', to: 'b', body: '1' })],
      event('message.sent', { messageId: 'm', taskId: 't', from: 'a', to: 'b', body: '2' }),
      'invalid_input',
    ],
  ];

  it.each(illegal)('refuses %s and leaves the state untouched', (_name, before, bad, code) => {
    const state = foldEvents(before);
    const snapshot = JSON.stringify(state);
    expect(() => applyEvent(state, bad)).toThrow(expect.objectContaining({ code }));
    expect(JSON.stringify(state)).toBe(snapshot);
  });

  it('ignores events of other subsystems that share the log', () => {
    const state = emptyState();
    applyEvent(state, { type: 'job.started', at: at(0), data: {} } as unknown as CoordinatorEvent);
    expect(state.tasks).toEqual({});
    expect(state.lastSeq).toBe(1);
  });
});

describe('coordinator over a shared workspace', () => {
  it('folds in events another connection appended before checking a new one', async () => {
    const dir = tempDir();
    const storeA = new SqliteStore({ path: `${dir.path}/cowork.db` });
    const storeB = new SqliteStore({ path: `${dir.path}/cowork.db` });
    try {
      const a = await Coordinator.open(storeA);
      const b = await Coordinator.open(storeB);
      await a.record({ type: 'task.created', data: { taskId: 't1', request: 'r' } });
      // b has not seen t1 yet, but recording against it works because b catches up first.
      const started = await b.record({ type: 'task.started', data: { taskId: 't1' } });
      expect(started.seq).toBe(2);
      await a.refresh();
      expect(a.current.tasks.t1!.status).toBe('running');
      await expect(a.record({ type: 'task.started', data: { taskId: 't1' } })).rejects.toMatchObject({ code: 'invalid_transition' });
      await expect(a.record({ type: 'task.nonsense', data: {} } as never)).rejects.toMatchObject({ code: 'invalid_input' });
      await expect(a.record({ type: 'task.created', data: { taskId: '', request: 'r' } })).rejects.toMatchObject({ code: 'invalid_input' });
    } finally {
      await storeA.close();
      await storeB.close();
      dir.cleanup();
    }
  });
});
