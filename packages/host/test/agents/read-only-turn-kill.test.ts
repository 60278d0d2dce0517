/**
 * Invariant: a turn whose calls are all read-only is saved in one write, the model's answer with
 * the calls' results. Killed with SIGKILL while such a call runs, the store holds nothing of that
 * turn (no answer without its results, no model call), and the resumed task asks the model again
 * and finishes with exactly one answer and one result for the call. A call that is not read-only
 * (`hold`) still has its answer saved before it runs, so the resumed loop runs it without asking.
 * A read-only turn's write does not wait for its flush (`flush: 'later'`), which a power loss could
 * undo but a killed process cannot: saved before the kill, it is there after it.
 */
import { Host } from '../../src/host';
import { reply, startScriptedModelServer } from '../../src/testkit/scripted-model-server';
import { checkReopened } from '../support/reopened-host';
import { tempDir } from '../support/temp-host';
import { caller } from './runtime-harness';
import { spawnHost, until } from './crash/spawn-host';

describe('a read-only turn across SIGKILL', () => {
  it.each([
    { tool: 'peek', holdVariable: 'PEEK_MS', readOnly: true, saved: 'with its result' },
    { tool: 'hold', holdVariable: 'HOLD_MS', readOnly: false, saved: 'before the call' },
  ] as const)('killed during $tool: the answer is saved $saved', async ({ tool, holdVariable, readOnly }) => {
    const dir = tempDir();
    const server = await startScriptedModelServer((body) =>
      body.messages.some((m) => m.role === 'tool') ? reply.toolCalls([{ name: 'finish', arguments: { summary: 'looked once' } }]) : reply.toolCalls([{ name: tool, arguments: {} }]),
    );
    try {
      const first = spawnHost([dir.path, server.baseUrl], { [holdVariable]: '60000' });
      await until(() => first.lines.includes('peeking') || (!readOnly && server.requests.length === 1 && first.lines.some((l) => l.startsWith('task '))), `the ${tool} call to run`);
      const taskId = first.lines.find((l) => l.startsWith('task '))!.slice(5);
      if (!readOnly) {
        // The answer is saved before the call runs: wait for it, then kill inside the call.
        await untilHoldAnswerSaved(dir.path, taskId);
      }
      first.proc.kill('SIGKILL');
      await first.exited;

      await checkReopened(dir.path, async (check) => {
        const log = await check.store.read((tx) => tx.conversation.list(taskId, 'main'));
        const calls = await check.store.read((tx) => tx.modelCalls.totals(taskId, 'main'));
        const answers = log.filter((r) => (r.message as { role?: string }).role === 'assistant');
        expect([answers.length, calls.calls]).toEqual(readOnly ? [0, 0] : [1, 1]);
        expect(log.filter((r) => (r.message as { role?: string }).role === 'tool')).toEqual([]);
      });

      const mainAsked = (): number => server.requests.filter((b) => caller(b) === 'main').length;
      const askedBefore = mainAsked();
      const second = spawnHost([dir.path, server.baseUrl, taskId]);
      expect(await second.exited).toBe(0);
      expect(second.lines.find((l) => l.startsWith('result '))).toBe('result {"status":"done","summary":"looked once"}');
      // Read-only: asked again for the lost answer, then after the result. Otherwise: only after the result.
      expect(mainAsked() - askedBefore).toBe(readOnly ? 2 : 1);

      await checkReopened(dir.path, async (after) => {
        const log = await after.store.read((tx) => tx.conversation.list(taskId, 'main'));
        const bodies = log.map((r) => JSON.stringify(r.message));
        expect(bodies.filter((b) => b.includes(`"name":"${tool}"`))).toHaveLength(1);
        expect(log.filter((r) => (r.message as { role?: string }).role === 'tool')).toHaveLength(2); // the call's result and finish's
      });
    } finally {
      await server.close();
      dir.cleanup();
    }
  }, 60_000);

  it("keeps a saved read-only turn, written without waiting for its flush, through SIGKILL", async () => {
    const dir = tempDir();
    const toolResults = (body: { messages: { role: string }[] }): number => body.messages.filter((m) => m.role === 'tool').length;
    const server = await startScriptedModelServer((body) =>
      toolResults(body) === 0 ? reply.toolCalls([{ name: 'peek', arguments: {} }]) : toolResults(body) === 1 ? reply.toolCalls([{ name: 'hold', arguments: {} }]) : reply.toolCalls([{ name: 'finish', arguments: { summary: 'peeked, held' } }]),
    );
    try {
      const first = spawnHost([dir.path, server.baseUrl], { PEEK_MS: '0', HOLD_MS: '60000' });
      await until(() => first.lines.some((l) => l.startsWith('task ')), 'the task');
      const taskId = first.lines.find((l) => l.startsWith('task '))!.slice(5);
      // The hold answer is saved (flushed) after the peek turn's write (not flushed): kill inside hold.
      await untilHoldAnswerSaved(dir.path, taskId);
      first.proc.kill('SIGKILL');
      await first.exited;

      await checkReopened(dir.path, async (check) => {
        const log = await check.store.read((tx) => tx.conversation.list(taskId, 'main'));
        const shapes = log.map((r) => {
          const message = r.message as { role: string; toolCalls?: { name: string }[] };
          return message.role === 'assistant' ? `assistant ${message.toolCalls?.map((c) => c.name).join(',')}` : message.role;
        });
        expect(shapes).toEqual(['user', 'assistant peek', 'tool', 'assistant hold']);
        expect((await check.store.read((tx) => tx.modelCalls.totals(taskId, 'main'))).calls).toBe(2);
      });
    } finally {
      await server.close();
      dir.cleanup();
    }
  }, 60_000);
});

/** Waits, from a host of its own on the workspace, until Main's answer calling `hold` is in the log. */
async function untilHoldAnswerSaved(workspaceDir: string, taskId: string): Promise<void> {
  const observer = await Host.open({ workspaceDir });
  try {
    await until(async () => (await observer.store.read((tx) => tx.conversation.list(taskId, 'main'))).some((r) => JSON.stringify(r.message).includes('"hold"')), 'the saved hold answer');
  } finally {
    await observer.close();
  }
}
