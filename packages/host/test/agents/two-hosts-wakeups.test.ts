/**
 * Invariant: on PostgreSQL, what happens on one host wakes what waits on another. Main parked on
 * host A until an Inbox message wakes when a person's message is posted through host B; Main
 * parked until a resource moves wakes when host B commits to it; host B's coordinator folds in the
 * records host A appends, and tells its listeners, without being asked to refresh. Neither host
 * polls for these: each is an announcement (LISTEN/NOTIFY) and a read of the rows.
 */
import { AgentRuntime } from '../../src/agents/runtime';
import { Host } from '../../src/host';
import { OpenAiCompatibleProvider } from '../../src/models/openai-provider';
import type { WireChatRequest } from '../../src/models/wire';
import { reply, startScriptedModelServer, type ScriptStep, type ScriptedModelServer } from '../../src/testkit/scripted-model-server';
import { usePostgresServer } from '../support/postgres';
import { tempDir } from '../support/temp-host';
import { until } from './crash/spawn-host';
import { texts } from './runtime-harness';

const pgServer = usePostgresServer();

interface TwoHosts {
  a: Host;
  b: Host;
  model: ScriptedModelServer;
  runtime(host: Host): AgentRuntime;
  close(): Promise<void>;
}

/** Two hosts (machines a and b) on one new database and workspace, and runtimes over `script`. */
async function twoHosts(script: (body: WireChatRequest) => ScriptStep): Promise<TwoHosts> {
  const dir = tempDir();
  const databaseUrl = await pgServer().createDatabase();
  const a = await Host.open({ workspaceDir: dir.path, databaseUrl, pollMonitors: false, leases: { hostId: 'machine-a' } });
  const b = await Host.open({ workspaceDir: dir.path, databaseUrl, pollMonitors: false, leases: { hostId: 'machine-b' } });
  const model = await startScriptedModelServer(script);
  const runtimes: AgentRuntime[] = [];
  return {
    a,
    b,
    model,
    runtime(host) {
      const provider = new OpenAiCompatibleProvider({ baseUrl: model.baseUrl, model: 'scripted', maxRetries: 1, retryBaseDelayMs: 5 });
      const runtime = new AgentRuntime({ host, provider, maxOutputTokens: 500 });
      runtimes.push(runtime);
      return runtime;
    },
    async close() {
      for (const runtime of runtimes) await runtime.close();
      await model.close();
      await a.close();
      await b.close();
      dir.cleanup();
    },
  };
}

/** Main parks with `wake` on its first turn, and finishes once it sees `note` (or any later turn). */
function parkThenFinish(wake: Record<string, unknown>, note: string): (body: WireChatRequest) => ScriptStep {
  return (body) => {
    if (!body.messages.some((m) => m.role === 'tool')) return reply.toolCalls([{ id: 's1', name: 'sleep_until', arguments: wake }]);
    return reply.toolCalls([{ name: 'finish', arguments: { summary: texts(body).join('\n').includes(note) ? `woken by ${note}` : 'woken' } }]);
  };
}

/** Resolves with the run's result, or fails after `ms` (a wake-up that never came). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms).unref())]);
}

/** Waits until Main of `taskId` is parked (its log says so, as host `observer` reads it). */
async function parked(observer: Host, taskId: string): Promise<void> {
  await until(async () => {
    await observer.coordinator.refresh();
    return (observer.coordinator.current.tasks[taskId]?.waitingReason ?? '').startsWith('parked:');
  }, 'Main to park');
}

it('a person’s message posted through host B wakes Main parked on host A until an Inbox message', async () => {
  const hosts = await twoHosts(parkThenFinish({ inbox: true }, 'NOTE-FROM-B'));
  try {
    const onA = hosts.runtime(hosts.a);
    const taskId = await onA.startTask('wait for a note');
    const run = onA.runTask(taskId);
    await parked(hosts.b, taskId);
    await hosts.runtime(hosts.b).postUserMessage(taskId, 'NOTE-FROM-B');
    expect(await within(run, 15_000, 'Main on A to wake')).toEqual({ status: 'done', summary: 'woken by NOTE-FROM-B' });
  } finally {
    await hosts.close();
  }
}, 60_000);

it('a commit made on host B wakes Main parked on host A until the resource moves', async () => {
  let resourceId = '';
  const hosts = await twoHosts((body) => parkThenFinish({ resourceId, afterRevision: 0 }, 'never')(body));
  try {
    resourceId = (await hosts.a.resources.create({ kind: 'text', operator: 'human:ann' })).id;
    const onA = hosts.runtime(hosts.a);
    const taskId = await onA.startTask('wait for the text to change');
    const run = onA.runTask(taskId);
    await parked(hosts.b, taskId);
    await hosts.b.resources.commit(resourceId, { baseRevision: 0, op: { type: 'append', text: 'changed on B' }, operator: 'human:ann' });
    expect(await within(run, 15_000, 'Main on A to wake')).toEqual({ status: 'done', summary: 'woken' });
  } finally {
    await hosts.close();
  }
}, 60_000);

it('host B’s coordinator tells its listeners of the records host A appends, in order, without a refresh', async () => {
  const hosts = await twoHosts(() => reply.text('unused'));
  try {
    const seen: number[] = [];
    const stop = hosts.b.coordinator.subscribe((event) => seen.push(event.seq));
    const appended: number[] = [];
    for (let i = 0; i < 5; i++) appended.push((await hosts.a.coordinator.record({ type: 'task.created', data: { taskId: `task_${i}`, request: `r${i}` } })).seq);
    await until(() => seen.length === appended.length, 'B to hear of every record');
    expect(seen).toEqual(appended);
    expect(Object.keys(hosts.b.coordinator.current.tasks)).toHaveLength(5);
    stop();
  } finally {
    await hosts.close();
  }
}, 60_000);
