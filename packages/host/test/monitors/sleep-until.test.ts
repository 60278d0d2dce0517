/**
 * Invariant: `sleep_until {monitorId}` parks Main until that monitor's next event, and the event
 * is what Main reads when it wakes; the model is not called while it sleeps. Parking on a monitor
 * that is not active (unknown, cancelled) is refused instead of sleeping forever.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WireChatRequest } from '../../src/models/wire';
import { reply } from '../../src/testkit/scripted-model-server';
import { startRuntime, texts, type RuntimeHarness } from '../agents/runtime-harness';

/** The JSON results of the tool calls named `name` that the model saw, oldest first. */
function toolResults(body: WireChatRequest, name: string): Record<string, unknown>[] {
  const ids = new Set<string>();
  for (const m of body.messages) {
    if (m.role === 'assistant') for (const call of m.tool_calls ?? []) if (call.function.name === name) ids.add(call.id);
  }
  return body.messages.filter((m) => m.role === 'tool' && ids.has(m.tool_call_id)).map((m) => JSON.parse(String(m.content)) as Record<string, unknown>);
}

describe('sleep_until a monitor', () => {
  let h: RuntimeHarness;
  afterEach(() => h.dispose());

  it("wakes Main on the monitor's event, and refuses to park on a cancelled one", async () => {
    let written = false;
    h = await startRuntime(
      (body) => {
        const [monitor] = toolResults(body, 'create_monitor');
        const sleeps = toolResults(body, 'sleep_until');
        if (!monitor) return reply.toolCalls([{ name: 'create_monitor', arguments: { kind: 'file', path: 'result.txt', intervalSeconds: 1, name: 'result' } }]);
        if (sleeps.length === 0) return reply.toolCalls([{ name: 'sleep_until', arguments: { monitorId: monitor.id } }]);
        if (toolResults(body, 'cancel_monitor').length === 0) return reply.toolCalls([{ name: 'cancel_monitor', arguments: { monitorId: monitor.id } }]);
        if (sleeps.length === 1) return reply.toolCalls([{ name: 'sleep_until', arguments: { monitorId: monitor.id } }]);
        return reply.toolCalls([{ name: 'finish', arguments: { summary: 'saw the result' } }]);
      },
      {
        runtime: {
          onEvent: (event) => {
            if (event.type !== 'tool' || event.name !== 'sleep_until' || written) return;
            // Main is about to park: the result appears only now.
            written = true;
            writeFileSync(join(h.host.workspaceDir, 'result.txt'), 'the answer');
          },
        },
      },
    );
    const taskId = await h.runtime.startTask('wait for result.txt');
    await expect(h.runtime.runTask(taskId)).resolves.toEqual({ status: 'done', summary: 'saw the result' });

    const [, parked, woke, , last] = h.server.requests;
    expect(toolResults(parked!, 'create_monitor')[0]).toMatchObject({ kind: 'file', status: 'active' });
    // The request after parking is the one that carries the monitor's event: nothing called the model in between.
    const [monitor] = await h.host.monitors.list({ taskId, status: 'cancelled' });
    const event = texts(woke!).find((t) => t.includes(`monitor:${monitor!.id}:1`));
    expect(event).toContain('"exists":true');
    expect(toolResults(woke!, 'sleep_until')[0]).toMatchObject({ parked: true, monitorId: monitor!.id });
    expect(toolResults(last!, 'sleep_until')[1]).toMatchObject({ parked: false, reason: 'monitor_not_active' });
    expect(h.server.requests).toHaveLength(5);
  });
});
