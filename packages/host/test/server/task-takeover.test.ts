/**
 * Invariants of a server's takeover of tasks (server/task-takeover.ts), with two hosts on one
 * workspace: a task whose host stopped cleanly (it released the lease) is left alone, and one whose
 * lease a dead holder left to expire is run here; a person's message this server could not deliver
 * because another host held the task is delivered once that host lets the lease go, and not before.
 */
import { AgentRuntime } from '../../src/agents/runtime';
import { taskLeaseKey } from '../../src/agents/task-lease';
import { Host } from '../../src/host';
import { OpenAiCompatibleProvider } from '../../src/models/openai-provider';
import type { WireChatRequest } from '../../src/models/wire';
import { createServer, type CoworkServer } from '../../src/server/create-server';
import { reply, startScriptedModelServer, type ScriptStep, type ScriptedModelServer } from '../../src/testkit/scripted-model-server';
import { until } from '../agents/crash/spawn-host';
import { texts } from '../agents/runtime-harness';
import { tempDir } from '../support/temp-host';
import { TOKEN } from './harness';

const LEASE_MS = 1000;
const POLL_MS = 100;

interface Setup {
  /** The host whose runtime runs the task first (it stands for another process or machine). */
  a: Host;
  runtimeA: AgentRuntime;
  /** The host whose server takes tasks over. */
  b: Host;
  server: CoworkServer;
  model: ScriptedModelServer;
  close(): Promise<void>;
}

async function setup(script: (body: WireChatRequest) => ScriptStep | Promise<ScriptStep>): Promise<Setup> {
  const dir = tempDir();
  const a = await Host.open({ workspaceDir: dir.path, pollMonitors: false, leases: { hostId: 'machine-a', durationMs: LEASE_MS } });
  const b = await Host.open({ workspaceDir: dir.path, pollMonitors: false, leases: { hostId: 'machine-b', durationMs: LEASE_MS } });
  const model = await startScriptedModelServer(script);
  const provider = new OpenAiCompatibleProvider({ baseUrl: model.baseUrl, model: 'scripted', maxRetries: 1, retryBaseDelayMs: 5 });
  const runtimeA = new AgentRuntime({ host: a, provider, maxOutputTokens: 500 });
  const server = await createServer({ host: b, token: TOKEN, provider, takeoverPollMs: POLL_MS, onError: (error) => console.error(error) });
  return {
    a,
    runtimeA,
    b,
    server,
    model,
    async close() {
      await server.close();
      await runtimeA.close();
      await model.close();
      await a.close();
      await b.close();
      dir.cleanup();
    },
  };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

it('leaves a task whose host stopped cleanly, and runs one whose dead holder left its lease to expire', async () => {
  const state = { hang: true };
  const s = await setup(async (body) => {
    if (state.hang) return reply.hang();
    return reply.toolCalls([{ name: 'finish', arguments: { summary: `done after ${body.messages.length} messages` } }]);
  });
  try {
    // A's run is stopped (Ctrl-C, a server closing): the task stays `running`, its lease released.
    const taskId = await s.runtimeA.startTask('some work');
    const stop = new AbortController();
    const run = s.runtimeA.runTask(taskId, stop.signal);
    await until(() => s.model.requests.length === 1, 'Main’s first model call on A');
    stop.abort();
    expect(await run).toEqual({ status: 'aborted' });
    state.hang = false;
    await sleep(POLL_MS * 8);
    expect(s.model.requests).toHaveLength(1);
    expect(s.server.tasks.isRunning(taskId)).toBe(false);

    // A holder on another machine that died mid-run: its lease, never released, ends; B runs the task.
    await s.a.store.transaction((tx) => tx.leases.acquire(taskLeaseKey(taskId), 'machine-x:4242:dead', 200));
    await until(async () => {
      await s.b.coordinator.refresh();
      return s.b.coordinator.current.tasks[taskId]?.status === 'done';
    }, 'B to take the task and finish it');
    expect(s.model.requests).toHaveLength(2);
  } finally {
    await s.close();
  }
}, 60_000);

it('delivers a message another host could not take: once that host lets the task go, not before', async () => {
  const s = await setup((body) => {
    const seen = texts(body).join('\n');
    if (seen.includes('NOTE-TO-MAIN')) return reply.toolCalls([{ name: 'finish', arguments: { summary: 'got the note' } }]);
    return reply.text('what next?');
  });
  try {
    const taskId = await s.runtimeA.startTask('wait for me');
    expect(await s.runtimeA.runTask(taskId)).toMatchObject({ status: 'waiting', reason: 'awaiting_user' });
    // A holds the task (as a host finishing a run does) when the person's message reaches B.
    const held = await s.a.leases.hold(taskLeaseKey(taskId), () => undefined);
    if (!('held' in held)) throw new Error('A should hold the task');
    await s.server.tasks.post(taskId, 'NOTE-TO-MAIN', undefined, 'human:user');
    await sleep(POLL_MS * 8);
    expect(s.model.requests).toHaveLength(1);

    // A lets the task go without delivering the message: B's next look runs it.
    await held.held.release();
    await until(async () => {
      await s.b.coordinator.refresh();
      return s.b.coordinator.current.tasks[taskId]?.status === 'done';
    }, 'B to deliver the message and finish');
    const log = await s.b.store.read((tx) => tx.conversation.list(taskId, 'main'));
    expect(log.filter((r) => JSON.stringify(r.message).includes('NOTE-TO-MAIN'))).toHaveLength(1);
    expect(s.model.requests).toHaveLength(2);
  } finally {
    await s.close();
  }
}, 60_000);
