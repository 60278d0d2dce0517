/**
 * Invariant: the host records, per task, agent and resource, the revision the agent last read. A
 * `read_resource` without `sinceRevision` lists exactly the changes others made since then (a
 * first read shows the content and no changes), for Main and subagents alike; the record is
 * durable, so a reopened host goes on from it; each person's saved selection is in the view.
 */
import { Host } from '../../src/host';
import { AgentRuntime } from '../../src/agents/runtime';
import { OpenAiCompatibleProvider } from '../../src/models/openai-provider';
import type { WireChatRequest } from '../../src/models/wire';
import { reply, startScriptedModelServer, type ScriptStep } from '../../src/testkit/scripted-model-server';
import { LastSeen } from '../../src/agents/last-seen';
import { openTempHost, tempDir } from '../support/temp-host';
import { caller, startRuntime, type RuntimeHarness } from './runtime-harness';

interface ReadResult {
  revision: number;
  content: { text: string };
  changesSince: number | null;
  changesByOthers: { revision: number; operator: string; op: unknown }[];
  selections: { person: string; selection: unknown }[];
}

/** The tool results of a request, oldest first, parsed. */
function toolResults(body: WireChatRequest): unknown[] {
  return body.messages.filter((m) => m.role === 'tool').map((m) => JSON.parse(typeof m.content === 'string' ? m.content : 'null') as unknown);
}

/** A text resource at revision 3 (three commits by the owner). */
async function textAtRevision3(host: Host): Promise<string> {
  const r = await host.resources.create({ kind: 'text', content: { text: 'a' }, operator: 'human:owner' });
  for (let i = 0; i < 3; i++) await host.resources.commit(r.id, { baseRevision: i, op: { type: 'append', text: `${i}` }, operator: 'human:owner' });
  return r.id;
}

/** Two commits by ann on top of the head, and her selection. */
async function annCommitsTwice(host: Host, id: string): Promise<void> {
  const head = (await host.resources.get(id)).revision;
  await host.resources.commit(id, { baseRevision: head, op: { type: 'append', text: ' x' }, operator: 'human:ann' });
  await host.resources.commit(id, { baseRevision: head + 1, op: { type: 'append', text: ' y' }, operator: 'human:ann' });
  await host.resources.setSelection(id, 'human:ann', { range: [0, 3] });
}

const read = (resourceId: string, id: string, extra: Record<string, unknown> = {}): ScriptStep =>
  reply.toolCalls([{ id, name: 'read_resource', arguments: { resourceId, ...extra } }]);

describe('what each agent last saw', () => {
  let h: RuntimeHarness | undefined;
  afterEach(async () => {
    await h?.dispose();
    h = undefined;
  });

  it("Main's second read without sinceRevision shows exactly the two changes a person made since its first", async () => {
    let id = '';
    const seen: ReadResult[] = [];
    h = await startRuntime(async (body) => {
      const results = toolResults(body) as ReadResult[];
      switch (results.length) {
        case 0:
          return read(id, 'r1');
        case 1:
          await annCommitsTwice(h!.host, id);
          return read(id, 'r2');
        case 2:
          // Its own commit: never a change by others, and the record moves past it.
          return reply.toolCalls([{ id: 'c1', name: 'commit_resource', arguments: { resourceId: id, baseRevision: 5, op: { type: 'append', text: ' mine' } } }]);
        case 3:
          return read(id, 'r3');
        case 4:
          return read(id, 'r4', { sinceRevision: 3 });
        default:
          seen.push(...(results.filter((r) => 'changesByOthers' in (r as object))));
          return reply.toolCalls([{ id: 'f', name: 'finish', arguments: { summary: 'read' } }]);
      }
    });
    id = await textAtRevision3(h!.host);
    const taskId = await h!.runtime.startTask('read it twice');
    expect(await h!.runtime.runTask(taskId)).toEqual({ status: 'done', summary: 'read' });

    const [first, second, third, explicit] = seen;
    // First read: the content at revision 3, no changes listed.
    expect(first).toMatchObject({ revision: 3, changesSince: null, changesByOthers: [], content: { text: 'a012' } });
    // Second: exactly ann's two commits, and her selection.
    expect(second).toMatchObject({ revision: 5, changesSince: 3 });
    expect(second!.changesByOthers.map((c) => [c.revision, c.operator, c.op])).toEqual([
      [4, 'human:ann', { type: 'append', text: ' x' }],
      [5, 'human:ann', { type: 'append', text: ' y' }],
    ]);
    expect(second!.selections).toEqual([expect.objectContaining({ person: 'human:ann', selection: { range: [0, 3] } })]);
    // After its own commit (revision 6): nothing new by others.
    expect(third).toMatchObject({ revision: 6, changesSince: 6, changesByOthers: [] });
    // An explicit revision still wins.
    expect(explicit!.changesByOthers.map((c) => c.revision)).toEqual([4, 5]);
    expect(await h!.host.store.read((tx) => tx.lastSeen.get(taskId, 'main', id))).toMatchObject({ revision: 6 });
  });

  it("a subagent's reads go from its own last read, kept apart from Main's", async () => {
    let id = '';
    let subagentSecond: ReadResult | undefined;
    h = await startRuntime(async (body) => {
      const who = caller(body);
      const results = toolResults(body);
      if (who === 'main') {
        if (results.length === 0) {
          return reply.toolCalls([{ id: 'd', name: 'delegate', arguments: { assignment: 'read it twice', mode: 'sync', agent: 'reader', resources: [{ access: 'read', resourceId: id }] } }]);
        }
        return reply.toolCalls([{ id: 'f', name: 'finish', arguments: { summary: 'done' } }]);
      }
      if (results.length === 0) return read(id, 's1');
      if (results.length === 1) {
        await annCommitsTwice(h!.host, id);
        return read(id, 's2');
      }
      subagentSecond = results[1] as ReadResult;
      return reply.toolCalls([{ id: 'sub', name: 'submit_result', arguments: { result: 'read' } }]);
    });
    id = await textAtRevision3(h!.host);
    const taskId = await h!.runtime.startTask('delegate a reader');
    expect(await h!.runtime.runTask(taskId)).toEqual({ status: 'done', summary: 'done' });
    expect(subagentSecond).toMatchObject({ revision: 5, changesSince: 3 });
    expect(subagentSecond!.changesByOthers.map((c) => [c.revision, c.operator])).toEqual([[4, 'human:ann'], [5, 'human:ann']]);
    expect(subagentSecond!.selections.map((s) => s.person)).toEqual(['human:ann']);
    const state = h!.host.coordinator.current;
    const agentId = state.assignments[state.tasks[taskId]!.assignmentIds[0]!]!.agentId;
    expect(await h!.host.store.read((tx) => tx.lastSeen.get(taskId, agentId, id))).toMatchObject({ revision: 5 });
    // Main never read it.
    expect(await h!.host.store.read((tx) => tx.lastSeen.get(taskId, 'main', id))).toBeUndefined();
  });

  it('is durable: after the host is reopened, Main goes on from what it read before', async () => {
    const dir = tempDir();
    let id = '';
    const reads: ReadResult[] = [];
    const server = await startScriptedModelServer(async (body) => {
      const results = toolResults(body).filter((r) => typeof r === 'object' && r !== null && 'changesByOthers' in r) as ReadResult[];
      const lastIsTool = body.messages[body.messages.length - 1]?.role === 'tool';
      if (!lastIsTool) return read(id, `r${results.length}`);
      reads.push(results[results.length - 1]!);
      return reply.text('read; waiting for you');
    });
    const open = async (): Promise<{ host: Host; runtime: AgentRuntime }> => {
      const host = await Host.open({ workspaceDir: dir.path });
      const provider = new OpenAiCompatibleProvider({ baseUrl: server.baseUrl, model: 'scripted', maxRetries: 0, retryBaseDelayMs: 5, maxRetryDelayMs: 20, maxContextTokens: 32_000 });
      return { host, runtime: new AgentRuntime({ host, provider, maxOutputTokens: 1000 }) };
    };
    try {
      let { host, runtime } = await open();
      id = await textAtRevision3(host);
      const taskId = await runtime.startTask('read it');
      await runtime.runTask(taskId);
      await annCommitsTwice(host, id);
      await runtime.close();
      await host.close();

      ({ host, runtime } = await open());
      await runtime.postUserMessage(taskId, 'read it again');
      await runtime.runTask(taskId);
      await runtime.close();
      await host.close();

      expect(reads.map((r) => [r.revision, r.changesSince, r.changesByOthers.map((c) => c.revision)])).toEqual([
        [3, null, []],
        [5, 3, [4, 5]],
      ]);
      expect(reads[1]!.selections.map((s) => s.person)).toEqual(['human:ann']);
    } finally {
      await server.close();
      dir.cleanup();
    }
  });

  it('a read run again under the same call key (a resumed turn) shows the same changes again', async () => {
    const host = await openTempHost();
    try {
      const id = await textAtRevision3(host);
      const seen = new LastSeen(host.store, () => new Date());
      const by = (callKey: string) => ({ taskId: 't', agentId: 'main', callKey });
      expect(await seen.since(by('k1'), id)).toBeUndefined();
      await seen.saw(by('k1'), id, 3);
      // The same call again: its result never reached the conversation, so it starts where it started.
      expect(await seen.since(by('k1'), id)).toBeUndefined();
      expect(await seen.since(by('k2'), id)).toBe(3);
      await seen.saw(by('k2'), id, 5);
      expect(await seen.since(by('k2'), id)).toBe(3);
      expect(await seen.since(by('k3'), id)).toBe(5);
      // Never back: a slower read of an older revision leaves the record where it is.
      await seen.saw(by('k3'), id, 4);
      expect(await seen.revision('t', 'main', id)).toBe(5);
      // A commit on a base the agent had not seen leaves the others' changes before it to be shown.
      await seen.committed(by('k4'), id, 7, 8);
      expect(await seen.revision('t', 'main', id)).toBe(5);
      await seen.committed(by('k5'), id, 5, 6);
      expect(await seen.revision('t', 'main', id)).toBe(6);
    } finally {
      await host.dispose();
    }
  });
});
