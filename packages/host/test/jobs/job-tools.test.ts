/**
 * Invariant: the job tools pass the plugin loader's checks, drive the job service, and report a
 * call that failed (an unknown command, an unknown job) as an `isError` result carrying the coded
 * error, not as a thrown exception.
 */
import { join } from 'node:path';
import { definePlugin } from '../../src/plugins/define-plugin';
import { PluginRegistry } from '../../src/plugins/registry';
import type { ToolContext, ToolDefinition } from '../../src/plugins/types';
import { jobTools } from '../../src/plugins/builtin/jobs-plugin';
import type { Json } from '../../src/store/records';
import { jobsFixture, waitFor, type JobsFixture } from './job-harness';

let fx: JobsFixture;
let tools: Map<string, ToolDefinition>;
beforeEach(async () => {
  fx = await jobsFixture();
  tools = new Map(jobTools(fx.service).map((tool) => [tool.name, tool]));
});
afterEach(async () => {
  await fx.dispose();
});

function call(name: string, input: Json, idempotencyKey?: string, who: Partial<ToolContext> = {}): Promise<{ content: Json; isError?: boolean }> {
  const context: ToolContext = {
    operator: 'agent:worker',
    idempotencyKey,
    taskId: 'task_tools',
    agentId: 'worker',
    ...who,
    signal: new AbortController().signal,
    host: { workspaceDir: fx.dir, resources: undefined as never },
  };
  return tools.get(name)!.handler(input, context);
}

describe('job tools', () => {
  it('pass the loader checks', () => {
    const registry = new PluginRegistry();
    const plugin = definePlugin({ name: 'jobs', version: '0.1.0', tools: jobTools(fx.service) });
    expect(registry.check(plugin)).toEqual([]);
    expect([...tools.keys()]).toEqual(['start_job', 'job_status', 'job_logs', 'cancel_job']);
  });

  it('start, watch, read and cancel a job', async () => {
    const input = { command: 'sh', args: ['-c', 'echo ready; echo warn >&2; exec sleep 30'], name: 'server' };
    const started = await call('start_job', input, 'k1');
    expect(started).toEqual({ content: expect.objectContaining({ status: 'running', name: 'server', exitCode: null }) });
    const id = (started.content as { id: string }).id;
    expect((await call('start_job', input, 'k1')).content).toMatchObject({ id });
    expect((await call('start_job', { command: 'true' }, 'k1')).content).toMatchObject({ error: { code: 'idempotency_key_reused' } });

    expect((await call('job_status', { jobId: id })).content).toMatchObject({ id, status: 'running', pid: expect.any(Number) });
    expect((await call('job_status', {})).content).toEqual({ jobs: [expect.objectContaining({ id })] });
    const logs = await waitFor(
      () => call('job_logs', { jobId: id, search: 'rea' }),
      (result) => (result.content as { matches: number }).matches === 1,
    );
    expect(logs.content).toMatchObject({ status: 'running', stream: 'stdout', lines: [{ n: 1, text: 'ready' }] });
    expect((await call('job_logs', { jobId: id, stream: 'stderr' })).content).toMatchObject({ lines: [{ n: 1, text: 'warn' }] });

    expect((await call('cancel_job', { jobId: id, graceMs: 2000 })).content).toMatchObject({ id, status: 'cancelled' });
  });

  it("run a job sandboxed in its task's work folder; network only with the grant (Main's)", async () => {
    const started = await call('start_job', { command: 'sh', args: ['-c', 'pwd'] });
    const workDir = join(fx.dir, 'tasks', 'task_tools', 'work');
    // `pwd` may have ended by the time start_job answers: running or already succeeded.
    expect(started.content).toMatchObject({ status: expect.stringMatching(/^(running|succeeded)$/), cwd: workDir, sandbox: { workDir, network: false } });
    expect(await call('start_job', { command: 'true', network: true })).toMatchObject({
      isError: true,
      content: { error: { code: 'permission_denied', permission: 'network', agentId: 'worker' } },
    });
    const main = await call('start_job', { command: 'true', network: true }, undefined, { agentId: 'main', operator: 'agent:main' });
    expect(main.content).toMatchObject({ status: expect.any(String), sandbox: { workDir, network: true } });
  });

  it('refuse to start an agent\'s job when bwrap is missing, rather than run it unsandboxed', async () => {
    const saved = process.env.COWORK_BWRAP;
    process.env.COWORK_BWRAP = join(fx.dir, 'no-such-bwrap');
    try {
      expect(await call('start_job', { command: 'true' })).toMatchObject({
        isError: true,
        content: { error: { code: 'sandbox_unavailable', missing: 'bwrap', hint: expect.stringContaining('bubblewrap') } },
      });
      expect(await fx.service.list()).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.COWORK_BWRAP;
      else process.env.COWORK_BWRAP = saved;
    }
  });

  it('report failures as error results with the code', async () => {
    expect(await call('start_job', { command: 'no-such-command-4711' })).toMatchObject({
      isError: true,
      content: { error: { code: 'command_not_found', hint: expect.any(String) } },
    });
    expect(await call('start_job', { command: 'true', cwd: '..' })).toMatchObject({
      isError: true,
      content: { error: { code: 'invalid_input', field: 'cwd', reason: 'outside_work_folder' } },
    });
    expect(await call('start_job', { command: 'true' }, undefined, { taskId: undefined })).toMatchObject({
      isError: true,
      content: { error: { code: 'invalid_input', field: 'taskId' } },
    });
    for (const name of ['job_status', 'job_logs', 'cancel_job']) {
      expect(await call(name, { jobId: 'job_nope' })).toMatchObject({ isError: true, content: { error: { code: 'not_found' } } });
    }
  });
});
