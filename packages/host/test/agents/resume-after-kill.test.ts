/**
 * Invariant: kill the host with SIGKILL while two async subagents run, then resume the task: it
 * finishes, and Main's saved context holds each subagent result exactly once. Checked at several
 * kill points: before the results were acknowledged (posted), after they were posted but before
 * Main could take them (Main is inside a long tool call), and after delivery while Main's next
 * model turn is in flight.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Host } from '../../src/host';
import { reply, startScriptedModelServer } from '../../src/testkit/scripted-model-server';
import { checkReopened } from '../support/reopened-host';
import { tempDir } from '../support/temp-host';
import { caller, texts, twoPartsScript } from './runtime-harness';
import { spawnHost, until } from './crash/spawn-host';


type KillPoint = 'before_ack' | 'after_ack' | 'after_delivery';



describe('resume after SIGKILL', () => {
  it.each<KillPoint>(['before_ack', 'after_ack', 'after_delivery'])('keeps each result exactly once when killed %s', async (point) => {
    const dir = tempDir();
    const state = { releaseSubagents: point !== 'before_ack', hangMain: point === 'after_delivery' };
    const script = twoPartsScript(state);
    const server = await startScriptedModelServer(script);
    try {
      const first = spawnHost([dir.path, server.baseUrl], { HOLD_MS: point === 'after_ack' ? '60000' : '0' });
      await until(() => first.lines.some((l) => l.startsWith('task ')), 'the task id');
      const taskId = first.lines.find((l) => l.startsWith('task '))!.slice(5);
      const observer = await Host.open({ workspaceDir: dir.path });
      const resultsPosted = async (): Promise<number> =>
        (await observer.store.read((tx) => tx.inbox.pending(taskId, 'main'))).filter((m) => m.kind === 'result').length;
      const subRequests = (): number => server.requests.filter((b) => caller(b) !== 'main').length;
      const mainSawResults = (): boolean => server.requests.some((b) => caller(b) === 'main' && texts(b).join().includes('RESULT-beta') && texts(b).join().includes('RESULT-alpha'));

      if (point === 'before_ack') await until(() => subRequests() >= 2, 'both subagents to be asking the model');
      if (point === 'after_ack') await until(async () => (await resultsPosted()) === 2, 'both results in the Inbox');
      if (point === 'after_delivery') await until(mainSawResults, 'Main to be asked with both results');
      first.proc.kill('SIGKILL');
      await first.exited;
      await observer.close();

      state.releaseSubagents = true;
      state.hangMain = false;
      const second = spawnHost([dir.path, server.baseUrl, taskId]);
      expect(await second.exited).toBe(0);
      expect(second.lines.find((l) => l.startsWith('result '))).toBe('result {"status":"done","summary":"both parts in"}');

      await checkReopened(dir.path, async (check) => {
        const log = await check.store.read((tx) => tx.conversation.list(taskId, 'main'));
        const bodies = log.map((r) => JSON.stringify(r.message));
        expect(bodies.filter((b) => b.includes('RESULT-alpha'))).toHaveLength(1);
        expect(bodies.filter((b) => b.includes('RESULT-beta'))).toHaveLength(1);
        const state = check.coordinator.current;
        expect(state.tasks[taskId]!.status).toBe('done');
        // No duplicate subagent: exactly the two assignments, each done.
        expect(state.tasks[taskId]!.assignmentIds.map((id) => state.assignments[id]!.status)).toEqual(['done', 'done']);
      });
    } finally {
      await server.close();
      dir.cleanup();
    }
  }, 60_000);
});

describe('a call waiting for approval, across SIGKILL', () => {
  it('finds its approval again in the next process, and runs once when a person approves', async () => {
    const dir = tempDir();
    const launches = join(dir.path, 'launches.txt');
    const server = await startScriptedModelServer((body) =>
      body.messages.some((m) => m.role === 'tool') ? reply.toolCalls([{ name: 'finish', arguments: { summary: 'launched once' } }]) : reply.toolCalls([{ name: 'launch', arguments: {} }]),
    );
    const observer = await Host.open({ workspaceDir: dir.path });
    try {
      const first = spawnHost([dir.path, server.baseUrl], { LAUNCH_FILE: launches });
      await until(async () => (await observer.approvals.list({ status: 'pending' })).length === 1, 'the call to wait for approval');
      const taskId = first.lines.find((l) => l.startsWith('task '))!.slice(5);
      first.proc.kill('SIGKILL');
      await first.exited;
      const [waiting] = await observer.approvals.list();

      const second = spawnHost([dir.path, server.baseUrl, taskId], { LAUNCH_FILE: launches });
      // The resumed turn runs the same call under the same key: it waits on the same approval, not a new one.
      await new Promise((r) => setTimeout(r, 1000));
      expect(await observer.approvals.list()).toEqual([waiting]);
      expect(existsSync(launches)).toBe(false);
      await observer.approvals.decide(waiting!.id, 'approved', 'human:ann');
      expect(await second.exited).toBe(0);
      expect(second.lines.find((l) => l.startsWith('result '))).toBe('result {"status":"done","summary":"launched once"}');
      expect(readFileSync(launches, 'utf8').trim().split('\n')).toHaveLength(1);
      expect((await observer.approvals.list()).map((a) => [a.id, a.status, a.decidedBy])).toEqual([[waiting!.id, 'approved', 'human:ann']]);
    } finally {
      await observer.close();
      await server.close();
      dir.cleanup();
    }
  }, 60_000);
});
