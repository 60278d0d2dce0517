/**
 * Invariants: sleep_until without a wake condition is refused with no_wake_condition, and with one
 * it parks until the condition (a resource change here); a person's message sent while the task
 * runs is delivered at the next boundary; memory.md is always in Main's context, including after a
 * compaction; clear_context compacts after the turn, records what it summarised, and never separates
 * a tool call from its result; a failed compaction leaves the old context; a 500-turn session stays
 * within the context budget.
 */
import { buildContext, messageTokens } from '../../src/agents/context-builder';
import { REPLY_PRIMING_TOKENS } from '../../src/models/tokenizer';
import type { ChatMessage } from '../../src/models/types';
import { reply } from '../../src/testkit/scripted-model-server';
import { caller, startRuntime, texts, type RuntimeHarness } from './runtime-harness';

describe('parking, steering, memory and context', () => {
  let h: RuntimeHarness;
  afterEach(() => h?.dispose());

  it('refuses to park without a wake condition, and wakes on a resource change', async () => {
    let resourceId = '';
    let turn = 0;
    h = await startRuntime((body) => {
      turn++;
      if (turn === 1) return reply.toolCalls([{ name: 'sleep_until', arguments: {} }]);
      if (turn === 2) return reply.toolCalls([{ name: 'sleep_until', arguments: { resourceId, afterRevision: 0 } }]);
      return reply.toolCalls([{ name: 'finish', arguments: { summary: texts(body).join('|').includes('no_wake_condition') ? 'woke' : 'bad' } }]);
    });
    resourceId = (await h.host.resources.create({ kind: 'text', operator: 'human:ann' })).id;
    const taskId = await h.runtime.startTask('wait for the person to edit');
    const run = h.runtime.runTask(taskId);
    // Commit once the task is parked on the resource.
    for (let i = 0; i < 500 && h.host.coordinator.current.tasks[taskId]?.status !== 'waiting'; i++) await new Promise((r) => setTimeout(r, 10));
    expect(h.host.coordinator.current.tasks[taskId]!.waitingReason).toContain(resourceId);
    await h.host.resources.commit(resourceId, { baseRevision: 0, op: { type: 'append', text: 'edit' }, operator: 'human:ann' });
    await expect(run).resolves.toEqual({ status: 'done', summary: 'woke' });
  });

  it('queues a person message sent mid-run and delivers it at the next boundary', async () => {
    let taskId = '';
    let turn = 0;
    h = await startRuntime(async (body) => {
      turn++;
      if (turn === 1) {
        await h.runtime.postUserMessage(taskId, 'STEER: use blue');
        return reply.toolCalls([{ name: 'update_memory', arguments: { content: 'MEMORY: the user wants a chart' } }]);
      }
      const seen = texts(body).join('\n');
      return reply.toolCalls([{ name: 'finish', arguments: { summary: seen.includes('STEER: use blue') && seen.includes('MEMORY: the user wants a chart') ? 'steered' : 'missed' } }]);
    });
    taskId = await h.runtime.startTask('make a chart');
    await expect(h.runtime.runTask(taskId)).resolves.toEqual({ status: 'done', summary: 'steered' });
    // The steering message was not in the first request (it arrived during that turn).
    expect(texts(h.server.requests[0]!).join()).not.toContain('STEER');
  });

  it('compacts after the turn, records it, keeps memory in context, and keeps calls with their results', async () => {
    let turn = 0;
    let compactorCalls = 0;
    h = await startRuntime((body) => {
      if (caller(body) === 'compactor') {
        compactorCalls++;
        return reply.text('SUMMARY: wrote memory and did 6 steps');
      }
      turn++;
      if (turn === 1) return reply.toolCalls([{ name: 'update_memory', arguments: { content: 'MEMORY-LINE' } }]);
      if (turn <= 6) return reply.toolCalls([{ id: `c${turn}`, name: 'list_resources', arguments: {} }]);
      if (turn === 7) return reply.toolCalls([{ id: 'cc', name: 'clear_context', arguments: {} }]);
      return reply.toolCalls([{ name: 'finish', arguments: { summary: 'compacted' } }]);
    });
    const taskId = await h.runtime.startTask('long work');
    await expect(h.runtime.runTask(taskId)).resolves.toEqual({ status: 'done', summary: 'compacted' });
    expect(compactorCalls).toBe(1);
    const after = h.server.requests[h.server.requests.length - 1]!;
    const seen = texts(after).join('\n');
    expect(seen).toContain('SUMMARY: wrote memory');
    expect(seen).toContain('MEMORY-LINE');
    // Every tool result in the compacted context follows its own call.
    assertCallsPaired(after.messages as unknown as { role: string; tool_calls?: { id: string }[]; tool_call_id?: string }[]);
    const [compaction] = await h.host.store.read((tx) => tx.compactions.list(taskId, 'main'));
    expect(compaction).toMatchObject({ summary: 'SUMMARY: wrote memory and did 6 steps', dropped: expect.objectContaining({ toolCalls: expect.any(Number) }) });
    // The full log is still on disk.
    const log = await h.host.store.read((tx) => tx.conversation.list(taskId, 'main'));
    expect(log.length).toBeGreaterThan(14);
  });

  it('keeps the old context when compaction fails', async () => {
    let turn = 0;
    h = await startRuntime((body) => {
      if (caller(body) === 'compactor') return reply.status(400, { body: { error: { message: 'no' } } });
      turn++;
      if (turn <= 5) return reply.toolCalls([{ id: `c${turn}`, name: 'list_resources', arguments: {} }]);
      if (turn === 6) return reply.toolCalls([{ name: 'clear_context', arguments: {} }]);
      return reply.toolCalls([{ name: 'finish', arguments: { summary: 'still here' } }]);
    });
    const taskId = await h.runtime.startTask('compaction fails');
    await expect(h.runtime.runTask(taskId)).resolves.toEqual({ status: 'done', summary: 'still here' });
    expect(await h.host.store.read((tx) => tx.compactions.list(taskId, 'main'))).toEqual([]);
    expect(h.events.some((e) => e.type === 'compaction_failed')).toBe(true);
    expect(texts(h.server.requests[h.server.requests.length - 1]!).join()).toContain('compaction fails');
  });

  it('runs a 500-turn session within the context budget', async () => {
    let turn = 0;
    const budget = 6000;
    h = await startRuntime(
      (body) => {
        if (caller(body) === 'compactor') return reply.text(`summary at turn ${turn}`);
        turn++;
        if (turn >= 500) return reply.toolCalls([{ name: 'finish', arguments: { summary: 'long haul' } }]);
        return reply.toolCalls([{ id: `t${turn}`, name: 'update_memory', arguments: { content: `step ${turn}: ${'detail '.repeat(20)}` } }]);
      },
      { maxContextTokens: budget + 1000 },
    );
    const taskId = await h.runtime.startTask('a very long session');
    await expect(h.runtime.runTask(taskId)).resolves.toEqual({ status: 'done', summary: 'long haul' });
    const contextSizes = h.events.flatMap((e) => (e.type === 'turn' ? [e.contextTokens] : []));
    expect(contextSizes).toHaveLength(500);
    expect(Math.max(...contextSizes)).toBeLessThanOrEqual(budget);
    for (const request of h.server.requests) assertCallsPaired(request.messages as never);
  }, 120_000);
});

describe('context builder', () => {
  it('drops the oldest units first and never splits a call from its results', () => {
    const messages: ChatMessage[] = [];
    for (let i = 0; i < 50; i++) {
      messages.push({ role: 'assistant', content: null, toolCalls: [{ id: `a${i}`, name: 't', arguments: '{}' }, { id: `b${i}`, name: 't', arguments: '{}' }] });
      messages.push({ role: 'tool', toolCallId: `a${i}`, content: 'x'.repeat(200) });
      messages.push({ role: 'tool', toolCallId: `b${i}`, content: 'y'.repeat(200) });
    }
    const built = buildContext({ instructions: 'I', memory: 'M', projection: null, summary: null, messages, budgetTokens: 1500 });
    expect(built.tokens).toBeLessThanOrEqual(1500);
    expect(built.droppedMessages % 3).toBe(0);
    assertCallsPaired(built.messages.map((m) => (m.role === 'assistant' ? { role: m.role, tool_calls: m.toolCalls } : m.role === 'tool' ? { role: m.role, tool_call_id: m.toolCallId } : { role: m.role })));
    expect(built.messages.reduce((n, m) => n + messageTokens(m), REPLY_PRIMING_TOKENS)).toBe(built.tokens);
  });
});

/** Each tool message answers a call of the assistant message before it, and every call is answered. */
function assertCallsPaired(messages: { role: string; tool_calls?: { id: string }[]; tool_call_id?: string }[]): void {
  let open: Set<string> | undefined;
  for (const m of messages) {
    if (m.role === 'tool') {
      expect(open?.has(m.tool_call_id!)).toBe(true);
      open!.delete(m.tool_call_id!);
      continue;
    }
    if (open) expect([...open]).toEqual([]);
    open = m.role === 'assistant' && m.tool_calls ? new Set(m.tool_calls.map((c) => c.id)) : undefined;
  }
}
