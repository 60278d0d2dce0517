/**
 * Invariant: a call's cancellation is wired to the caller's signal for that call only. A task's
 * signal lives for hours of tool calls; each call's abort listener is removed when the call ends (the
 * SDK leaves its own on the signal it is given), and aborting the signal still cancels a call in flight.
 */
import { getEventListeners } from 'node:events';
import { McpConnection } from '../../src/mcp-client/connection';
import { EVERYTHING } from './mcp-harness';

let connection: McpConnection;
beforeAll(async () => {
  connection = new McpConnection('everything', { command: EVERYTHING });
  await connection.connect();
});
afterAll(() => connection.close());

it('leaves no listener on a task signal after 50 calls', async () => {
  const task = new AbortController();
  for (let i = 0; i < 50; i++) await connection.callTool('echo', { message: `call ${i}` }, { signal: task.signal });
  expect(getEventListeners(task.signal, 'abort')).toHaveLength(0);
});

it('cancels a call in flight when the task signal aborts, and the connection serves the next call', async () => {
  const task = new AbortController();
  const long = connection.callTool('trigger-long-running-operation', { duration: 10, steps: 5 }, { signal: task.signal });
  setTimeout(() => task.abort(), 200);
  await expect(long).rejects.toMatchObject({ details: { cancelled: true } });
  expect(getEventListeners(task.signal, 'abort')).toHaveLength(0);
  expect((await connection.callTool('echo', { message: 'after' })).content).toEqual([{ type: 'text', text: 'Echo: after' }]);
});
