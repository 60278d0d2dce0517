/**
 * Invariants: subagents can message each other (a peer's message arrives at the recipient's next
 * boundary); a subagent's first context carries the skill catalog (names and descriptions only) and
 * a skill's body is loaded on demand.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../../src/testkit/scripted-model-server';
import { caller, startRuntime, texts, type RuntimeHarness } from './runtime-harness';

describe('peer messages and skills', () => {
  let h: RuntimeHarness;
  afterEach(() => h.dispose());

  it('delivers a message from one subagent to another, and loads skills on demand', async () => {
    let taskId = '';
    h = await startRuntime(async (body) => {
      const who = caller(body);
      const seen = texts(body).join('\n');
      if (who.startsWith('alpha-')) {
        if (seen.includes('"sent":true')) return reply.toolCalls([{ name: 'submit_result', arguments: { result: 'alpha done' } }]);
        const beta = Object.values(h.host.coordinator.current.assignments).find((a) => a.agentId.startsWith('beta-'))!;
        return reply.toolCalls([{ name: 'send_message', arguments: { to: beta.agentId, body: 'PEER-NOTE: use metric units' } }]);
      }
      if (who.startsWith('beta-')) {
        if (seen.includes('PEER-NOTE')) return reply.toolCalls([{ name: 'submit_result', arguments: { result: 'beta got the note' } }]);
        if (seen.includes('SKILL-BODY')) {
          // Wait (outside any tool call) until alpha's note is in beta's Inbox, then take a turn.
          for (let i = 0; i < 500 && (await h.runtime.inbox.pending(taskId, who)).length === 0; i++) await new Promise((r) => setTimeout(r, 10));
          return reply.text('checking messages', { finishReason: 'length' });
        }
        return reply.toolCalls([{ name: 'load_skill', arguments: { name: 'units' } }]);
      }
      if ((seen.match(/\[result from /g) ?? []).length === 2) return reply.toolCalls([{ name: 'finish', arguments: { summary: 'both done' } }]);
      if (seen.includes('acknowledged')) return reply.text('waiting');
      return reply.toolCalls([
        { name: 'delegate', arguments: { assignment: 'measure', mode: 'async', agent: 'beta' } },
        { name: 'delegate', arguments: { assignment: 'tell beta about units', mode: 'async', agent: 'alpha' } },
      ]);
    });
    mkdirSync(join(h.host.workspaceDir, 'skills'), { recursive: true });
    writeFileSync(join(h.host.workspaceDir, 'skills', 'units.md'), '---\nname: units\ndescription: Which units to use.\n---\nSKILL-BODY: metric only\n');
    taskId = await h.runtime.startTask('two subagents that talk');
    await expect(h.runtime.runTask(taskId)).resolves.toEqual({ status: 'done', summary: 'both done' });

    const betaFirst = h.server.requests.find((b) => caller(b).startsWith('beta-'))!;
    expect(texts(betaFirst)[0]).toContain('- units: Which units to use.');
    expect(JSON.stringify(betaFirst.messages)).not.toContain('SKILL-BODY');
    const beta = Object.values(h.host.coordinator.current.assignments).find((a) => a.agentId.startsWith('beta-'))!;
    expect(beta.result).toMatchObject({ status: 'done', result: 'beta got the note' });
    const betaLog = await h.host.store.read((tx) => tx.conversation.list(taskId, beta.agentId));
    expect(betaLog.filter((r) => JSON.stringify(r.message).includes('PEER-NOTE'))).toHaveLength(1);
  });
});
