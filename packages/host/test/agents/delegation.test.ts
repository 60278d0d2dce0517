/**
 * Invariants: async delegation returns at once; results that arrive while Main is inside a long
 * tool call enter Main's context only after that call, at the next boundary, each exactly once; a
 * subagent's request holds its assignment and bounded background and nothing else of Main's
 * history; `finish` is refused while work is open.
 */
import { definePlugin, defineTool } from '../../src/plugins/define-plugin';
import { reply } from '../../src/testkit/scripted-model-server';
import { caller, startRuntime, texts, type RuntimeHarness } from './runtime-harness';

describe('delegation and the Inbox', () => {
  let h: RuntimeHarness;
  afterEach(() => h.dispose());

  it('delivers three async results once each, after the long tool call that was running', async () => {
    let resultsPendingDuringTool = -1;
    const waitPlugin = definePlugin({
      name: 'waiter',
      version: '1.0.0',
      tools: [
        defineTool({
          name: 'long_task',
          description: 'Works for a while.',
          inputSchema: { type: 'object' },
          permissions: [],
          handler: async () => {
            // Stay inside this call until all three subagent results are in Main's Inbox.
            for (let i = 0; i < 400; i++) {
              const pending = await h.runtime.inbox.pending(taskId, 'main');
              if (pending.filter((m) => m.kind === 'result').length === 3) break;
              await new Promise((r) => setTimeout(r, 10));
            }
            resultsPendingDuringTool = (await h.runtime.inbox.pending(taskId, 'main')).length;
            return { content: 'long task done' };
          },
        }),
      ],
    });
    let taskId = '';
    let mainTurn = 0;
    h = await startRuntime(
      (body) => {
        const who = caller(body);
        if (who !== 'main') return reply.toolCalls([{ name: 'submit_result', arguments: { result: `result of ${who}` } }]);
        mainTurn++;
        if (mainTurn === 1) {
          return reply.toolCalls([
            { id: 'd1', name: 'delegate', arguments: { assignment: 'part A', mode: 'async', agent: 'alpha' } },
            { id: 'd2', name: 'delegate', arguments: { assignment: 'part B', mode: 'async', agent: 'beta' } },
            { id: 'd3', name: 'delegate', arguments: { assignment: 'part C', mode: 'async', agent: 'gamma' } },
            { id: 'l1', name: 'long_task', arguments: {} },
          ]);
        }
        return reply.toolCalls([{ id: 'f1', name: 'finish', arguments: { summary: 'all parts done' } }]);
      },
      { plugins: [waitPlugin] },
    );
    taskId = await h.runtime.startTask('build three parts');
    const result = await h.runtime.runTask(taskId);
    expect(result).toEqual({ status: 'done', summary: 'all parts done' });
    expect(resultsPendingDuringTool).toBe(3);

    // Main's second request: the long call's result first, then each subagent result once.
    const mainRequests = h.server.requests.filter((b) => caller(b) === 'main');
    const second = texts(mainRequests[1]!);
    const longResult = second.indexOf('long task done');
    const resultIdx = ['alpha', 'beta', 'gamma'].map((name) => second.findIndex((t) => t.includes(`result of ${name}-`)));
    expect(longResult).toBeGreaterThan(0);
    for (const i of resultIdx) expect(i).toBeGreaterThan(longResult);
    for (const name of ['alpha', 'beta', 'gamma']) expect(second.filter((t) => t.includes(`result of ${name}-`))).toHaveLength(1);

    // The saved context holds each result exactly once.
    const log = await h.host.store.read((tx) => tx.conversation.list(taskId, 'main'));
    const results = log.filter((r) => r.sourceMessageId?.startsWith('result:'));
    expect(results).toHaveLength(3);
    expect(new Set(results.map((r) => r.sourceMessageId)).size).toBe(3);
    const task = h.host.coordinator.current.tasks[taskId]!;
    expect(task.status).toBe('done');
    expect(task.assignmentIds.map((id) => h.host.coordinator.current.assignments[id]!.status)).toEqual(['done', 'done', 'done']);
  });

  it('gives a subagent only its assignment and bounded background, never Main history', async () => {
    const longBackground = `context ${'x'.repeat(10_000)}`;
    h = await startRuntime(
      (body) => {
        const who = caller(body);
        if (who !== 'main') return reply.toolCalls([{ name: 'submit_result', arguments: { result: 'ok' } }]);
        if (texts(body).some((t) => t.includes('"status":"done"'))) return reply.toolCalls([{ name: 'finish', arguments: { summary: 'done' } }]);
        return reply.toolCalls([{ id: 'd1', name: 'delegate', arguments: { assignment: 'ASSIGNMENT-TEXT', mode: 'sync', agent: 'helper', background: longBackground } }]);
      },
      { runtime: { maxBackgroundChars: 500 } },
    );
    const taskId = await h.runtime.startTask('SECRET-USER-REQUEST: make a report');
    await h.runtime.postUserMessage(taskId, 'SECRET-FOLLOW-UP');
    await expect(h.runtime.runTask(taskId)).resolves.toEqual({ status: 'done', summary: 'done' });

    const subRequest = h.server.requests.find((b) => caller(b).startsWith('helper-'))!;
    const all = JSON.stringify(subRequest.messages);
    expect(all).toContain('ASSIGNMENT-TEXT');
    expect(all).toContain('context xxx');
    expect(all).not.toContain('x'.repeat(600));
    expect(all).not.toContain('SECRET-USER-REQUEST');
    expect(all).not.toContain('SECRET-FOLLOW-UP');
    expect(subRequest.messages.map((m) => m.role)).toEqual(['system', 'user']);
    // Main's tools are not offered to the subagent.
    expect(subRequest.tools?.map((t) => t.function.name)).not.toContain('delegate');
  });

  it('refuses finish with the list while a subagent is still working, then accepts it', async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((r) => (release = r));
    let refusal = '';
    h = await startRuntime(async (body) => {
      const who = caller(body);
      if (who !== 'main') {
        await released;
        return reply.toolCalls([{ name: 'submit_result', arguments: { result: 'late result' } }]);
      }
      const seen = texts(body);
      if (seen.some((t) => t.includes('late result'))) return reply.toolCalls([{ name: 'finish', arguments: { summary: 'finally' } }]);
      if (seen.some((t) => t.includes('completion_gate'))) {
        refusal = seen.find((t) => t.includes('completion_gate'))!;
        release();
        return reply.text('Waiting for the subagent.');
      }
      if (seen.some((t) => t.includes('acknowledged'))) return reply.toolCalls([{ name: 'finish', arguments: { summary: 'too early' } }]);
      return reply.toolCalls([{ name: 'delegate', arguments: { assignment: 'slow work', mode: 'async', agent: 'slow' } }]);
    });
    const taskId = await h.runtime.startTask('do slow work');
    await expect(h.runtime.runTask(taskId)).resolves.toEqual({ status: 'done', summary: 'finally' });
    expect(JSON.parse(refusal)).toMatchObject({ refused: true, blockers: [expect.objectContaining({ kind: 'open_subtask' })] });
  });
});
