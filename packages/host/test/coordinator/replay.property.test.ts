/**
 * Invariant (property): for random event sequences, the state a live coordinator builds as it
 * records events equals the state rebuilt by reopening the workspace and replaying its log, and
 * equals a pure fold of the stored events. Refused events are never appended.
 */
import fc from 'fast-check';
import { Coordinator } from '../../src/coordinator/coordinator';
import type { CoordinatorEventInput } from '../../src/coordinator/events';
import { foldEvents } from '../../src/coordinator/fold';
import { isCoworkError } from '../../src/errors';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store';
import { tempDir } from '../support/temp-host';
import type { CoordinatorEvent } from '../../src/coordinator/events';

const taskId = fc.constantFrom('t1', 't2', 't3');
const assignmentId = fc.constantFrom('a1', 'a2', 'a3', 'a4');
const outcome = fc.constantFrom('done' as const, 'failed' as const, 'cancelled' as const);

// Random events over a small id space, so that many are legal and many are not.
const eventArb: fc.Arbitrary<CoordinatorEventInput> = fc.oneof(
  fc.record({ type: fc.constant('task.created' as const), data: fc.record({ taskId, request: fc.string({ maxLength: 8 }) }) }),
  fc.record({ type: fc.constant('task.started' as const), data: fc.record({ taskId }) }),
  fc.record({ type: fc.constant('task.waiting' as const), data: fc.record({ taskId, reason: fc.string({ maxLength: 5 }) }) }),
  fc.record({ type: fc.constant('task.resumed' as const), data: fc.record({ taskId }) }),
  fc.record({ type: fc.constant('task.finished' as const), data: fc.record({ taskId, outcome }) }),
  fc.record({
    type: fc.constant('assignment.requested' as const),
    data: fc.record({ assignmentId, taskId, agentId: fc.constantFrom('s1', 's2'), mode: fc.constantFrom('sync' as const, 'async' as const), assignment: fc.string({ maxLength: 8 }) }),
  }),
  fc.record({ type: fc.constant('assignment.started' as const), data: fc.record({ assignmentId }) }),
  fc.record({ type: fc.constant('assignment.updated' as const), data: fc.record({ assignmentId, note: fc.string({ maxLength: 5 }) }) }),
  fc.record({ type: fc.constant('assignment.waiting' as const), data: fc.record({ assignmentId, reason: fc.string({ maxLength: 5 }) }) }),
  fc.record({ type: fc.constant('assignment.resumed' as const), data: fc.record({ assignmentId }) }),
  fc.record({ type: fc.constant('assignment.finished' as const), data: fc.record({ assignmentId, outcome, result: fc.jsonValue({ maxDepth: 1 }) }) }),
  fc.record({
    type: fc.constant('message.sent' as const),
    data: fc.record({ messageId: fc.constantFrom('m1', 'm2', 'm3'), taskId, from: fc.constant('s1'), to: fc.constant('main'), body: fc.string({ maxLength: 5 }) }),
  }),
);

describe('coordinator replay (property)', () => {
  it('rebuilds exactly the live state from the log', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(eventArb, { maxLength: 60 }), async (inputs) => {
        const dir = tempDir();
        let tick = 0;
        const clock = (): string => new Date(Date.UTC(2026, 0, 1) + tick++ * 1000).toISOString();
        const store = new SqliteStore({ path: `${dir.path}/cowork.db` });
        try {
          const live = await Coordinator.open(store, clock);
          let accepted = 0;
          for (const input of inputs) {
            try {
              await live.record(input);
              accepted++;
            } catch (error) {
              if (!isCoworkError(error)) throw error;
              expect(['invalid_transition', 'not_found', 'invalid_input']).toContain(error.code);
            }
          }
          const stored = await store.read((tx) => tx.events.list(0));
          expect(stored).toHaveLength(accepted);
          const liveState = JSON.parse(JSON.stringify(live.current));
          await store.close();

          const reopenedStore = new SqliteStore({ path: `${dir.path}/cowork.db` });
          const reopened = await Coordinator.open(reopenedStore);
          expect(JSON.parse(JSON.stringify(reopened.current))).toEqual(liveState);
          expect(JSON.parse(JSON.stringify(foldEvents(stored as unknown as CoordinatorEvent[])))).toEqual(liveState);
          await reopenedStore.close();
        } finally {
          await store.close();
          dir.cleanup();
        }
      }),
      { numRuns: 40 },
    );
  });
});
