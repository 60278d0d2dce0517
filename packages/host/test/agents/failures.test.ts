/**
 * Invariants: one subagent that hangs is timed out and reported while its siblings' results still
 * reach Main; a subagent over its token budget stops with a budget result; bad model output
 * (invalid JSON arguments, an unknown tool, a reply cut off at the output limit) goes back to the
 * model as a clear error; an HTTP 500 storm is retried a bounded number of times and leaves the task
 * waiting, never crashing the host; a subagent calling a tool it was not granted gets
 * `permission_denied`, and the denial is recorded.
 */
import { reply } from '../../src/testkit/scripted-model-server';
import { caller, startRuntime, texts, type RuntimeHarness } from './runtime-harness';

describe('failures stay contained', () => {
  let h: RuntimeHarness;
  afterEach(() => h.dispose());

  it('times out a hung subagent while its two siblings deliver', async () => {
    h = await startRuntime((body) => {
      const who = caller(body);
      if (who.startsWith('stuck-')) return reply.hang();
      if (who !== 'main') return reply.toolCalls([{ name: 'submit_result', arguments: { result: `ok from ${who}` } }]);
      const seen = texts(body).join('\n');
      if ((seen.match(/\[result from /g) ?? []).length === 3) return reply.toolCalls([{ name: 'finish', arguments: { summary: 'two of three' } }]);
      if (seen.includes('acknowledged')) return reply.text('waiting');
      return reply.toolCalls([
        { name: 'delegate', arguments: { assignment: 'a', mode: 'async', agent: 'one' } },
        { name: 'delegate', arguments: { assignment: 'b', mode: 'async', agent: 'stuck', timeoutSeconds: 0.5 } },
        { name: 'delegate', arguments: { assignment: 'c', mode: 'async', agent: 'two' } },
      ]);
    });
    const taskId = await h.runtime.startTask('three parts, one hangs');
    await expect(h.runtime.runTask(taskId)).resolves.toEqual({ status: 'done', summary: 'two of three' });
    const statuses = Object.values(h.host.coordinator.current.assignments).map((a) => [a.agentId.split('-')[0], a.status, (a.result as { status: string }).status]);
    expect(statuses).toEqual(
      expect.arrayContaining([
        ['one', 'done', 'done'],
        ['two', 'done', 'done'],
        ['stuck', 'failed', 'timeout'],
      ]),
    );
    const mainLog = await h.host.store.read((tx) => tx.conversation.list(taskId, 'main'));
    const delivered = mainLog.map((r) => JSON.stringify(r.message)).filter((t) => t.includes('[result from'));
    expect(delivered).toHaveLength(3);
    expect(delivered.join()).toContain('timeout');
  });

  it('stops a subagent at its token budget with a budget result', async () => {
    h = await startRuntime((body) => {
      const who = caller(body);
      if (who !== 'main') return reply.toolCalls([{ name: 'load_skill', arguments: { name: 'nothing' } }], { usage: { promptTokens: 400, completionTokens: 100 } });
      if (texts(body).some((t) => t.includes('budget_exhausted'))) return reply.toolCalls([{ name: 'finish', arguments: { summary: 'budget hit' } }]);
      return reply.toolCalls([{ name: 'delegate', arguments: { assignment: 'loop forever', mode: 'sync', agent: 'spender', maxTokens: 1200 } }]);
    });
    const taskId = await h.runtime.startTask('spend');
    await expect(h.runtime.runTask(taskId)).resolves.toMatchObject({ status: 'done' });
    const spender = Object.values(h.host.coordinator.current.assignments)[0]!;
    expect(spender.status).toBe('failed');
    expect(spender.result).toMatchObject({ status: 'budget_exhausted', result: { maxTokens: 1200, usedTokens: 1500 } });
    // Three calls of 500 tokens: the third crosses 1200, so there is no fourth.
    expect(h.server.requests.filter((b) => caller(b).startsWith('spender-'))).toHaveLength(3);
  });

  it('answers bad model output with clear errors and keeps going', async () => {
    let turn = 0;
    h = await startRuntime(() => {
      turn++;
      if (turn === 1) return reply.toolCalls([{ id: 'bad1', name: 'update_memory', arguments: '{"content": "unterminated' }]);
      if (turn === 2) return reply.toolCalls([{ id: 'bad2', name: 'teleport', arguments: {} }]);
      if (turn === 3) return reply.toolCalls([{ id: 'bad3', name: 'update_memory', arguments: { wrong: 1 } }]);
      if (turn === 4) return reply.text('This reply was cut of', { finishReason: 'length' });
      return reply.toolCalls([{ name: 'finish', arguments: { summary: 'recovered' } }]);
    });
    const taskId = await h.runtime.startTask('cope with bad output');
    await expect(h.runtime.runTask(taskId)).resolves.toEqual({ status: 'done', summary: 'recovered' });
    const toolResults = h.server.requests[4]!.messages.filter((m) => m.role === 'tool').map((m) => JSON.parse(String(m.content)).error?.code);
    expect(toolResults).toEqual(['invalid_json', 'unknown_tool', 'invalid_input']);
    expect(texts(h.server.requests[4]!).some((t) => t.includes('cut off at the output limit'))).toBe(true);
  });

  it('retries an HTTP 500 storm a bounded number of times, then leaves the task waiting', async () => {
    h = await startRuntime(() => reply.status(500), { maxRetries: 3 });
    const taskId = await h.runtime.startTask('the model is down');
    await expect(h.runtime.runTask(taskId)).resolves.toMatchObject({ status: 'waiting', reason: 'model_failed', error: 'model_unavailable' });
    expect(h.server.requests).toHaveLength(4);
    expect(h.host.coordinator.current.tasks[taskId]!.status).toBe('waiting');
    // The request is still in the Inbox, undelivered, or in the log: nothing was lost.
    const log = await h.host.store.read((tx) => tx.conversation.list(taskId, 'main'));
    expect(log.map((r) => JSON.stringify(r.message)).join()).toContain('the model is down');
  });

  it('denies and records a tool the subagent was not granted', async () => {
    h = await startRuntime((body) => {
      const who = caller(body);
      if (who !== 'main') {
        if (texts(body).some((t) => t.includes('permission_denied'))) return reply.toolCalls([{ name: 'submit_result', arguments: { result: 'gave up' } }]);
        return reply.toolCalls([{ name: 'commit_resource', arguments: { resourceId: 'r', baseRevision: 0, op: {} } }]);
      }
      if (texts(body).some((t) => t.includes('gave up'))) return reply.toolCalls([{ name: 'finish', arguments: { summary: 'ok' } }]);
      return reply.toolCalls([{ name: 'delegate', arguments: { assignment: 'try to commit', mode: 'sync', agent: 'sneaky' } }]);
    });
    const taskId = await h.runtime.startTask('permissions');
    await expect(h.runtime.runTask(taskId)).resolves.toMatchObject({ status: 'done' });
    const sneaky = Object.values(h.host.coordinator.current.assignments)[0]!;
    expect(sneaky.lastUpdate).toBe('permission_denied: commit_resource');
  });
});
