/**
 * Invariant: every observed kind (a job's log, a command's output, a resource's revision) emits
 * exactly one event per change of its observation and nothing while it stays the same.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { killJobProcesses, waitFor } from '../jobs/job-harness';
import { monitorMessages, monitorWorkspace, type MonitorWorkspace } from './monitor-harness';

let ws: MonitorWorkspace;
const TASK = 'task_kinds';
const owner = { owner: { taskId: TASK } };
beforeEach(async () => {
  ws = await monitorWorkspace();
});
afterEach(async () => {
  killJobProcesses(await ws.host.store.read((tx) => tx.jobs.list()));
  await ws.dispose();
});

async function unchanged(id: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) expect((await ws.host.monitors.check(id)).changed).toBe(false);
}

describe('job log monitor', () => {
  it('emits once when a matching line appears', async () => {
    const script = 'echo booting; while [ ! -f go ]; do sleep 0.05; done; echo "READY on 8080"; echo serving; sleep 60';
    const job = await ws.host.jobs.start({ command: 'sh', args: ['-c', script] });
    const monitor = await ws.host.monitors.create({ kind: 'job_log', jobId: job.id, pattern: '^READY', intervalSeconds: 3600 }, owner);
    expect(monitor.observation).toEqual({ matches: 0, lastMatch: null });
    await unchanged(monitor.id, 10);

    writeFileSync(join(ws.dir, 'go'), '');
    const changed = await waitFor(() => ws.host.monitors.check(monitor.id), (r) => r.changed);
    expect(changed.observation).toEqual({ matches: 1, lastMatch: 'READY on 8080' });
    await waitFor(() => ws.host.jobs.logs(job.id), (logs) => logs.lines.some((l) => l.text === 'serving'));
    await unchanged(monitor.id, 10);
    expect(await monitorMessages(ws.host, TASK, monitor.id)).toHaveLength(1);
  });

  it('refuses an unknown job and a bad pattern', async () => {
    await expect(ws.host.monitors.create({ kind: 'job_log', jobId: 'job_nope', pattern: 'x' }, owner)).rejects.toMatchObject({ code: 'not_found' });
    await expect(ws.host.monitors.create({ kind: 'job_log', jobId: 'job_nope', pattern: '(' }, owner)).rejects.toMatchObject({
      code: 'invalid_input',
      details: { field: 'pattern' },
    });
  });
});

describe('command monitor', () => {
  it("emits once per change of the command's exit code or output", async () => {
    const state = join(ws.dir, 'state.txt');
    writeFileSync(state, 'one\n');
    const monitor = await ws.host.monitors.create({ kind: 'command', command: 'cat', args: ['state.txt'], intervalSeconds: 3600 }, owner);
    expect(monitor.observation).toMatchObject({ exitCode: 0, signal: null, tail: 'one\n' });
    await unchanged(monitor.id, 10);

    writeFileSync(state, 'two\n');
    expect(await ws.host.monitors.check(monitor.id)).toMatchObject({ changed: true, observation: { exitCode: 0, tail: 'two\n' } });
    await unchanged(monitor.id, 5);
    rmSync(state);
    expect(await ws.host.monitors.check(monitor.id)).toMatchObject({ changed: true, observation: { exitCode: 1, tail: '' } });
    await unchanged(monitor.id, 5);
    expect(await monitorMessages(ws.host, TASK, monitor.id)).toHaveLength(2);
  });

  it('kills a command that runs past its timeout and observes the timeout', async () => {
    const monitor = await ws.host.monitors.create({ kind: 'command', command: 'sleep', args: ['30'], timeoutSeconds: 0.2, intervalSeconds: 3600 }, owner);
    expect(monitor.observation).toEqual({ error: 'timeout', timeoutMs: 200 });
  });

  it('refuses a missing program and a working directory outside the workspace', async () => {
    await expect(ws.host.monitors.create({ kind: 'command', command: 'no-such-program-xyz' }, owner)).rejects.toMatchObject({ code: 'command_not_found' });
    await expect(ws.host.monitors.create({ kind: 'command', command: 'true', cwd: '..' }, owner)).rejects.toMatchObject({
      code: 'invalid_input',
      details: { field: 'cwd' },
    });
  });
});

describe('resource monitor', () => {
  it('emits once per new revision', async () => {
    const resource = await ws.host.resources.create({ kind: 'text', operator: 'human:ann' });
    const monitor = await ws.host.monitors.create({ kind: 'resource', resourceId: resource.id, intervalSeconds: 3600 }, owner);
    expect(monitor.observation).toEqual({ revision: 0 });
    await unchanged(monitor.id, 10);
    await ws.host.resources.commit(resource.id, { baseRevision: 0, op: { type: 'set', text: 'a' }, operator: 'human:ann' });
    expect(await ws.host.monitors.check(monitor.id)).toMatchObject({ changed: true, observation: { revision: 1 } });
    await unchanged(monitor.id, 10);
    expect(await monitorMessages(ws.host, TASK, monitor.id)).toHaveLength(1);
    await expect(ws.host.monitors.create({ kind: 'resource', resourceId: 'res_missing' }, owner)).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('monitor input', () => {
  it('names the field that does not belong to the kind', async () => {
    await expect(ws.host.monitors.create({ kind: 'file', path: 'a.txt', url: 'http://x/' }, owner)).rejects.toMatchObject({
      code: 'invalid_input',
      details: { field: 'url' },
    });
    await expect(ws.host.monitors.create({ kind: 'file', path: 'a.txt', intervalSeconds: 0.5 }, owner)).rejects.toMatchObject({
      code: 'invalid_input',
      details: { field: 'intervalSeconds' },
    });
    await expect(ws.host.monitors.create({ kind: 'file', path: 'a.txt' }, { owner: { taskId: '' } })).rejects.toMatchObject({
      code: 'invalid_input',
      details: { field: 'taskId' },
    });
  });

  it('cancels for good: no more checks, and cancel again returns it unchanged', async () => {
    const monitor = await ws.host.monitors.create({ kind: 'file', path: 'a.txt' }, owner);
    const cancelled = await ws.host.monitors.cancel(monitor.id);
    expect(cancelled).toMatchObject({ status: 'cancelled', cancelledAt: expect.any(String) });
    await expect(ws.host.monitors.cancel(monitor.id)).resolves.toEqual(cancelled);
    await expect(ws.host.monitors.check(monitor.id)).rejects.toMatchObject({ code: 'invalid_transition' });
    await expect(ws.host.monitors.get('mon_missing')).rejects.toMatchObject({ code: 'not_found' });
    const host = await ws.restart();
    expect(await host.monitors.list({ status: 'active' })).toHaveLength(0);
  });
});
