/**
 * Invariant: a monitor emits an event only when its observation changes, and polling never calls
 * the model. 1,000 polls of an unchanged file give 0 events and 0 model calls; one change gives
 * exactly one event; a host restart after the change gives none (the last observation is durable).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentRuntime } from '../../src/agents/runtime';
import { Host } from '../../src/host';
import { OpenAiCompatibleProvider } from '../../src/models/openai-provider';
import { reply, startScriptedModelServer, type ScriptedModelServer } from '../../src/testkit/scripted-model-server';
import { waitFor } from '../jobs/job-harness';
import { monitorMessages, monitorWorkspace, nextEvents, type MonitorWorkspace } from './monitor-harness';

let ws: MonitorWorkspace;
let server: ScriptedModelServer;
beforeEach(async () => {
  ws = await monitorWorkspace();
  // A model is there to be called; the monitor must never call it.
  server = await startScriptedModelServer(() => reply.text('should not be asked'));
});
afterEach(async () => {
  await server.close();
  await ws.dispose();
});

async function startTask(): Promise<{ taskId: string; runtime: AgentRuntime }> {
  const provider = new OpenAiCompatibleProvider({ baseUrl: server.baseUrl, model: 'scripted', maxContextTokens: 32_000 });
  const runtime = new AgentRuntime({ host: ws.host, provider });
  return { taskId: await runtime.startTask('watch a file'), runtime };
}

describe('file monitor', () => {
  it('gives 0 events and 0 model calls for 1,000 unchanged polls, 1 event for one change, none after a restart', async () => {
    const { taskId, runtime } = await startTask();
    const file = join(ws.dir, 'watched.txt');
    writeFileSync(file, 'v1');
    const monitor = await ws.host.monitors.create({ kind: 'file', path: 'watched.txt', intervalSeconds: 3600 }, { owner: { taskId } });
    expect(monitor.observation).toMatchObject({ exists: true, size: 2 });

    for (let i = 0; i < 1000; i++) expect((await ws.host.monitors.check(monitor.id)).changed).toBe(false);
    expect(await monitorMessages(ws.host, taskId, monitor.id)).toHaveLength(0);
    expect(server.requests).toHaveLength(0);
    expect(await ws.host.store.read((tx) => tx.modelCalls.totals(taskId))).toMatchObject({ inputTokens: 0, outputTokens: 0 });

    writeFileSync(file, 'v2');
    expect(await ws.host.monitors.check(monitor.id)).toMatchObject({ changed: true, seq: 1 });
    for (let i = 0; i < 100; i++) expect((await ws.host.monitors.check(monitor.id)).changed).toBe(false);
    const messages = await monitorMessages(ws.host, taskId, monitor.id);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ recipient: 'main', sender: `monitor:${monitor.id}`, body: { monitorId: monitor.id, seq: 1 } });

    await runtime.close();
    const host = await ws.restart();
    for (let i = 0; i < 100; i++) expect((await host.monitors.check(monitor.id)).changed).toBe(false);
    expect(await monitorMessages(host, taskId, monitor.id)).toHaveLength(1);
    expect(server.requests).toHaveLength(0);
  });

  it('polls on its own schedule and stays quiet across a restart', async () => {
    const taskId = 'task_scheduled';
    const file = join(ws.dir, 'out.txt');
    const monitor = await ws.host.monitors.create({ kind: 'file', path: 'out.txt', intervalSeconds: 1 }, { owner: { taskId } });
    expect(monitor.observation).toEqual({ exists: false });

    const appeared = nextEvents(ws.host, monitor.id);
    writeFileSync(file, 'done');
    const [event] = await appeared;
    expect(event!.monitor.observation).toMatchObject({ exists: true, size: 4 });
    expect(event!.previous).toEqual({ exists: false });

    const host = await ws.restart();
    const reopenedAt = new Date().toISOString();
    const quiet: unknown[] = [];
    host.monitors.onEvent((e) => quiet.push(e));
    // Two scheduled polls after the restart, seen through the unwritten lastCheckedAt.
    await waitFor(() => host.monitors.get(monitor.id), (m) => (m.lastCheckedAt ?? '') > reopenedAt);
    const first = (await host.monitors.get(monitor.id)).lastCheckedAt!;
    await waitFor(() => host.monitors.get(monitor.id), (m) => (m.lastCheckedAt ?? '') > first);
    expect(quiet).toHaveLength(0);
    expect(await monitorMessages(host, taskId, monitor.id)).toHaveLength(1);

    const gone = nextEvents(host, monitor.id);
    rmSync(file);
    expect((await gone)[0]!.monitor.observation).toEqual({ exists: false });
    expect(await monitorMessages(host, taskId, monitor.id)).toHaveLength(2);
  });

  it('fires once when two hosts on one workspace see the same change', async () => {
    const taskId = 'task_two_hosts';
    writeFileSync(join(ws.dir, 'shared.txt'), 'a');
    const monitor = await ws.host.monitors.create({ kind: 'file', path: 'shared.txt', intervalSeconds: 3600 }, { owner: { taskId } });
    const second = await Host.open({ workspaceDir: ws.dir });
    try {
      writeFileSync(join(ws.dir, 'shared.txt'), 'b');
      const results = await Promise.all([ws.host.monitors.check(monitor.id), second.monitors.check(monitor.id)]);
      expect(results.filter((r) => r.changed)).toHaveLength(1);
      // The loser took the winner's observation: neither fires again for the same content.
      expect((await second.monitors.check(monitor.id)).changed).toBe(false);
      expect((await ws.host.monitors.check(monitor.id)).changed).toBe(false);
      expect(await monitorMessages(ws.host, taskId, monitor.id)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('refuses a path outside the workspace', async () => {
    await expect(ws.host.monitors.create({ kind: 'file', path: '../elsewhere.txt' }, { owner: { taskId: 't' } })).rejects.toMatchObject({
      code: 'invalid_input',
      details: { field: 'path', reason: 'outside_workspace' },
    });
  });
});

describe('a short-lived host', () => {
  it('does not poll stored monitors when told not to (a CLI command), and the long-lived host does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cowork-poll-'));
    try {
      const first = await Host.open({ workspaceDir: dir });
      writeFileSync(join(dir, 'watched.txt'), 'v1');
      await first.coordinator.record({ type: 'task.created', data: { taskId: 't', request: 'r' } });
      const monitor = await first.monitors.create({ kind: 'file', path: 'watched.txt', intervalSeconds: 1 }, { owner: { taskId: 't' } });
      await first.close();
      writeFileSync(join(dir, 'watched.txt'), 'v2');

      const quiet = await Host.open({ workspaceDir: dir, pollMonitors: false });
      await new Promise((r) => setTimeout(r, 1600));
      expect(await quiet.store.read((tx) => tx.inbox.pending('t'))).toEqual([]);
      await quiet.close();

      const serving = await Host.open({ workspaceDir: dir });
      for (let i = 0; i < 100 && (await serving.store.read((tx) => tx.inbox.pending('t'))).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect((await serving.store.read((tx) => tx.inbox.pending('t'))).map((m) => m.messageId)).toEqual([`monitor:${monitor.id}:1`]);
      await serving.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
