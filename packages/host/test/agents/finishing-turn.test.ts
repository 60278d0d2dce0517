/**
 * Invariant: `finish` and `submit_result` change nothing themselves (their effect is the caller's
 * own write: the task's end, the subagent's result), so a turn of them is saved as a read-only turn
 * is, in one write that waits for no flush; the task's end is then the turn's only flush. The turn's
 * answer and result are in the log, and a refused `finish` goes back to the model as before.
 */
import type { WireChatRequest } from '../../src/models/wire';
import { reply } from '../../src/testkit/scripted-model-server';
import { caller, startRuntime, type RuntimeHarness } from './runtime-harness';

interface WriteCounters {
  readonly transactions: number;
  readonly durable: number;
}

function writeCounters(h: RuntimeHarness): WriteCounters {
  const { transactions, durable } = (h.host.store as unknown as { groupCommitStats: WriteCounters }).groupCommitStats;
  return { transactions, durable };
}

describe('a finishing turn', () => {
  let h: RuntimeHarness;
  afterEach(() => h.dispose());

  it("is one write that waits for no flush; the task's end is its only flush", async () => {
    let before: WriteCounters | undefined;
    h = await startRuntime((body: WireChatRequest) => {
      if (caller(body) !== 'main') return reply.text('?');
      // Asked for the finishing turn: nothing of it is saved yet.
      before = writeCounters(h);
      return reply.toolCalls([{ id: 'f1', name: 'finish', arguments: { summary: 'nothing to do' } }]);
    });
    const taskId = await h.runtime.startTask('finish at once');
    await expect(h.runtime.runTask(taskId)).resolves.toEqual({ status: 'done', summary: 'nothing to do' });
    const after = writeCounters(h);
    // The turn (the answer with its result) and the task's end: two writes, one flush.
    expect({ transactions: after.transactions - before!.transactions, durable: after.durable - before!.durable }).toEqual({ transactions: 2, durable: 1 });

    const log = await h.host.store.read((tx) => tx.conversation.list(taskId, 'main'));
    const last = log.slice(-2).map((r) => r.message as { role: string; toolCalls?: { name: string }[]; content?: unknown });
    expect(last[0]).toMatchObject({ role: 'assistant', toolCalls: [expect.objectContaining({ name: 'finish' })] });
    expect(last[1]).toMatchObject({ role: 'tool' });
    expect(JSON.parse(String(last[1]!.content))).toEqual({ finished: true });
    expect(h.host.coordinator.current.tasks[taskId]!.status).toBe('done');
  });

  it("hands a subagent's result to Main through a submit turn saved the same way", async () => {
    h = await startRuntime((body: WireChatRequest) => {
      const who = caller(body);
      if (who !== 'main') return reply.toolCalls([{ id: 's1', name: 'submit_result', arguments: { result: `made by ${who}` } }]);
      const seen = body.messages.map((m) => (typeof m.content === 'string' ? m.content : ''));
      const result = seen.find((t) => t.includes('made by helper'));
      if (result) return reply.toolCalls([{ id: 'f1', name: 'finish', arguments: { summary: 'got it' } }]);
      return reply.toolCalls([{ id: 'd1', name: 'delegate', arguments: { assignment: 'make it', mode: 'async', agent: 'helper' } }]);
    });
    const taskId = await h.runtime.startTask('delegate once');
    await expect(h.runtime.runTask(taskId)).resolves.toEqual({ status: 'done', summary: 'got it' });
    const assignment = Object.values(h.host.coordinator.current.assignments).find((a) => a.taskId === taskId)!;
    expect(assignment.status).toBe('done');
    const subLog = await h.host.store.read((tx) => tx.conversation.list(taskId, assignment.agentId));
    const submitted = subLog.filter((r) => (r.message as { role: string }).role === 'tool').map((r) => JSON.parse(String((r.message as { content: unknown }).content)));
    expect(submitted).toEqual([{ submitted: true }]);
  });
});
