/**
 * Invariant: the completion gate counts the running jobs and active monitors a task owns. Started
 * through the agent tools, they carry the calling task; `finish` is refused with them listed, and
 * accepted once they ended. Another task's job or monitor does not block.
 */
import type { WireChatRequest } from '../../src/models/wire';
import { reply } from '../../src/testkit/scripted-model-server';
import { startRuntime, texts, type RuntimeHarness } from '../agents/runtime-harness';
import { killJobProcesses } from '../jobs/job-harness';

/** The JSON result of the newest tool call named `name` that the model saw. */
function toolResult(body: WireChatRequest, callName: string): Record<string, unknown> | undefined {
  const ids = new Set<string>();
  for (const m of body.messages) {
    if (m.role === 'assistant') for (const call of m.tool_calls ?? []) if (call.function.name === callName) ids.add(call.id);
  }
  const results = body.messages.filter((m) => m.role === 'tool' && ids.has(m.tool_call_id));
  const last = results[results.length - 1];
  return last ? (JSON.parse(String(last.content)) as Record<string, unknown>) : undefined;
}

describe('completion gate with jobs and monitors', () => {
  let h: RuntimeHarness;
  afterEach(async () => {
    killJobProcesses(await h.host.store.read((tx) => tx.jobs.list()));
    await h.dispose();
  });

  it("refuses finish while the task's job runs and its monitor is active, then accepts", async () => {
    const refusals: unknown[] = [];
    h = await startRuntime((body) => {
      const seen = texts(body).join('\n');
      const monitor = toolResult(body, 'create_monitor');
      const job = toolResult(body, 'start_job');
      const cancelled = toolResult(body, 'cancel_job');
      if (!monitor) {
        return reply.toolCalls([
          { name: 'create_monitor', arguments: { kind: 'interval', intervalSeconds: 3600, name: 'review' } },
          { name: 'start_job', arguments: { command: 'sleep', args: ['60'] } },
        ]);
      }
      if (!seen.includes('completion_gate')) return reply.toolCalls([{ name: 'finish', arguments: { summary: 'too early' } }]);
      if (!cancelled) {
        refusals.push(toolResult(body, 'finish'));
        return reply.toolCalls([
          { name: 'cancel_monitor', arguments: { monitorId: monitor.id } },
          { name: 'cancel_job', arguments: { jobId: job!.id, graceMs: 0 } },
        ]);
      }
      return reply.toolCalls([{ name: 'finish', arguments: { summary: 'done' } }]);
    });
    const other = await h.host.monitors.create({ kind: 'interval', intervalSeconds: 3600 }, { owner: { taskId: 'task_other' } });
    const taskId = await h.runtime.startTask('work in the background');
    await expect(h.runtime.runTask(taskId)).resolves.toEqual({ status: 'done', summary: 'done' });

    const [refusal] = refusals as { blockers: { kind: string; id: string }[] }[];
    const [job] = await h.host.jobs.list({ taskId });
    const [monitor] = await h.host.monitors.list({ taskId });
    expect(job).toMatchObject({ taskId, createdBy: 'agent:main', status: 'cancelled' });
    expect(monitor).toMatchObject({ taskId, agentId: 'main', status: 'cancelled' });
    expect(refusal!.blockers).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'running_job', id: job!.id }), expect.objectContaining({ kind: 'active_monitor', id: monitor!.id })]),
    );
    expect(refusal!.blockers.map((b) => b.id)).not.toContain(other.id);
    expect(await h.runtime.gate(taskId)).toEqual([]);
  });

  it('lists what a task holds open and clears as each ends', async () => {
    h = await startRuntime(() => reply.text('unused'));
    const taskId = await h.runtime.startTask('hold things open');
    const job = await h.host.jobs.start({ command: 'sleep', args: ['60'] }, { taskId });
    const monitor = await h.host.monitors.create({ kind: 'file', path: 'x.txt' }, { owner: { taskId } });
    await h.host.jobs.start({ command: 'sleep', args: ['60'] }, { taskId: 'task_other' });
    const kinds = async (): Promise<string[]> => (await h.runtime.gate(taskId)).filter((b) => b.kind !== 'unanswered_user_request').map((b) => `${b.kind} ${b.id}`);

    expect(await kinds()).toEqual([`running_job ${job.id}`, `active_monitor ${monitor.id}`]);
    await h.host.monitors.cancel(monitor.id);
    expect(await kinds()).toEqual([`running_job ${job.id}`]);
    await h.host.jobs.cancel(job.id, { graceMs: 0 });
    expect(await kinds()).toEqual([]);
  });

  it("cancelling a task cancels its monitors", async () => {
    h = await startRuntime(() => reply.text('unused'));
    const taskId = await h.runtime.startTask('cancel me');
    const monitor = await h.host.monitors.create({ kind: 'interval', intervalSeconds: 3600 }, { owner: { taskId } });
    await h.runtime.cancelTask(taskId);
    expect(await h.host.monitors.get(monitor.id)).toMatchObject({ status: 'cancelled' });
  });
});
