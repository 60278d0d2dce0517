/**
 * Invariant: the monitor tools pass the plugin loader's checks and act for the calling task and
 * agent: a monitor they create belongs to them, a repeated call (same idempotency key) creates
 * nothing new, another task's monitor reads as missing, and a call that failed (an invalid cron
 * expression, no task) is an `isError` result carrying the coded error.
 */
import { definePlugin } from '../../src/plugins/define-plugin';
import { PluginRegistry } from '../../src/plugins/registry';
import type { ToolContext, ToolDefinition } from '../../src/plugins/types';
import { monitorTools } from '../../src/plugins/builtin/monitors-plugin';
import type { Json } from '../../src/store/records';
import { monitorWorkspace, type MonitorWorkspace } from './monitor-harness';

let ws: MonitorWorkspace;
let tools: Map<string, ToolDefinition>;
beforeEach(async () => {
  ws = await monitorWorkspace();
  tools = new Map(monitorTools(ws.host.monitors, ws.dir).map((tool) => [tool.name, tool]));
});
afterEach(() => ws.dispose());

function call(name: string, input: Json, caller: { taskId?: string; agentId?: string; idempotencyKey?: string } = {}): Promise<{ content: Json; isError?: boolean }> {
  const context: ToolContext = {
    operator: `agent:${caller.agentId ?? 'main'}`,
    signal: new AbortController().signal,
    host: { workspaceDir: ws.dir, resources: ws.host.resources },
    ...caller,
  };
  return tools.get(name)!.handler(input, context);
}

describe('monitor tools', () => {
  it('pass the loader checks', () => {
    const plugin = definePlugin({ name: 'monitors', version: '0.1.0', tools: [...tools.values()] });
    expect(new PluginRegistry().check(plugin)).toEqual([]);
    expect([...tools.keys()]).toEqual(['create_monitor', 'list_monitors', 'cancel_monitor']);
  });

  it('create for the calling task and agent, once per idempotency key', async () => {
    const caller = { taskId: 'task_a', agentId: 'scout-1', idempotencyKey: 'task_a/scout-1/3/c1' };
    const created = await call('create_monitor', { kind: 'file', path: 'notes.md', name: 'notes' }, caller);
    expect(created.isError).toBeUndefined();
    expect(created.content).toMatchObject({ kind: 'file', name: 'notes', watches: 'file notes.md', status: 'active', agentId: 'scout-1', intervalSeconds: 60, events: 0 });
    const id = (created.content as { id: string }).id;
    expect((await call('create_monitor', { kind: 'file', path: 'notes.md', name: 'notes' }, caller)).content).toMatchObject({ id });
    expect(await ws.host.monitors.get(id)).toMatchObject({ taskId: 'task_a', agentId: 'scout-1', createdBy: 'agent:scout-1' });

    expect((await call('list_monitors', {}, { taskId: 'task_a' })).content).toEqual({ monitors: [expect.objectContaining({ id })] });
    expect((await call('list_monitors', {}, { taskId: 'task_b' })).content).toEqual({ monitors: [] });
    expect(await call('cancel_monitor', { monitorId: id }, { taskId: 'task_b' })).toMatchObject({ isError: true, content: { error: { code: 'not_found' } } });
    expect((await call('cancel_monitor', { monitorId: id }, { taskId: 'task_a' })).content).toMatchObject({ id, status: 'cancelled', nextDueAt: null });
    expect((await call('list_monitors', { status: 'cancelled' }, { taskId: 'task_a' })).content).toEqual({ monitors: [expect.objectContaining({ id })] });
  });

  it('return coded errors the model can act on', async () => {
    expect(await call('create_monitor', { kind: 'cron', cron: '0 9 * * MONDAY' }, { taskId: 'task_a' })).toEqual({
      isError: true,
      content: { error: expect.objectContaining({ code: 'invalid_input', field: 'cron', cronField: 'day-of-week', hint: expect.any(String) }) },
    });
    expect(await call('create_monitor', { kind: 'interval', intervalSeconds: 5 })).toMatchObject({ isError: true, content: { error: { code: 'invalid_input', field: 'taskId' } } });
    expect(await ws.host.monitors.list()).toEqual([]);
  });
});
