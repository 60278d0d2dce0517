/**
 * Invariant: a command monitor an agent creates runs its command in the same sandbox as an agent's
 * job (jobs/sandbox.ts): it writes only in its task's work folder, does not see the workspace's
 * token or other tasks, gets no secret of the host's environment and no network unless granted.
 * The same command in an unsandboxed monitor (one the host creates for itself) does see them,
 * so the checks are real. Needs bwrap.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findBwrap } from '../../src/jobs/sandbox';
import { monitorTools } from '../../src/plugins/builtin/monitors-plugin';
import type { ToolContext, ToolDefinition } from '../../src/plugins/types';
import type { Json } from '../../src/store/records';
import { monitorWorkspace, type MonitorWorkspace } from './monitor-harness';

const TOKEN = `token-${process.pid}-${Date.now()}`;
const ENV_TOKEN = `envtoken-${process.pid}-${Date.now()}`;

let ws: MonitorWorkspace;
let dir: string;
let tools: Map<string, ToolDefinition>;
const saved = process.env.COWORK_TOKEN;
beforeEach(async () => {
  process.env.COWORK_TOKEN = ENV_TOKEN;
  ws = await monitorWorkspace();
  dir = realpathSync(ws.dir);
  tools = new Map(monitorTools(ws.host.monitors, ws.dir).map((tool) => [tool.name, tool]));
  writeFileSync(join(dir, 'server-token'), `${TOKEN}\n`);
  mkdirSync(join(dir, 'tasks', 'task_b', 'work'), { recursive: true });
  writeFileSync(join(dir, 'tasks', 'task_b', 'work', 'notes.txt'), 'other task\n');
});
afterEach(async () => {
  await ws.dispose();
  if (saved === undefined) delete process.env.COWORK_TOKEN;
  else process.env.COWORK_TOKEN = saved;
});

function call(input: Json, agentId = 'worker'): Promise<{ content: Json; isError?: boolean }> {
  const context: ToolContext = { operator: `agent:${agentId}`, taskId: 'task_a', agentId, signal: new AbortController().signal, host: { workspaceDir: ws.dir, resources: ws.host.resources } };
  return tools.get('create_monitor')!.handler(input, context);
}

const PROBE = (root: string): string =>
  [
    `cat ${root}/server-token`,
    `ls ${root}/tasks`,
    'printenv COWORK_TOKEN',
    `echo escaped > ${root}/escape.txt`,
    'echo inside > probe.txt && cat probe.txt',
  ].join('; ');

(findBwrap() ? describe : describe.skip)('command monitors of agents', () => {
  it("run their command sandboxed in the task's work folder", async () => {
    const created = await call({ kind: 'command', command: 'sh', args: ['-c', PROBE(dir)] });
    expect(created.isError).toBeUndefined();
    const monitor = await ws.host.monitors.get((created.content as { id: string }).id);
    const work = join(dir, 'tasks', 'task_a', 'work');
    expect(monitor.target).toMatchObject({ kind: 'command', cwd: work, sandbox: { workDir: work, hidden: [dir], network: false } });
    // The baseline observation is the command's first run.
    const tail = (monitor.observation as { tail: string }).tail;
    expect(tail).toContain('inside');
    expect(tail).not.toContain(TOKEN);
    expect(tail).not.toContain(ENV_TOKEN);
    expect(tail).not.toContain('task_b');
    expect(existsSync(join(dir, 'escape.txt'))).toBe(false);
    expect(readFileSync(join(work, 'probe.txt'), 'utf8')).toBe('inside\n');
  });

  it('see everything without the sandbox (so the checks above are real)', async () => {
    const monitor = await ws.host.monitors.create({ kind: 'command', command: 'sh', args: ['-c', PROBE(dir)], cwd: '.' }, { owner: { taskId: 'task_a' } });
    const tail = (monitor.observation as { tail: string }).tail;
    expect(tail).toContain(TOKEN);
    expect(tail).toContain(ENV_TOKEN);
    expect(tail).toContain('task_b');
    expect(existsSync(join(dir, 'escape.txt'))).toBe(true);
  });

  it('get network only with the grant, and a cwd only inside the work folder', async () => {
    expect(await call({ kind: 'command', command: 'true', network: true })).toMatchObject({
      isError: true,
      content: { error: { code: 'permission_denied', permission: 'network' } },
    });
    const main = await call({ kind: 'command', command: 'true', network: true }, 'main');
    expect((await ws.host.monitors.get((main.content as { id: string }).id)).target).toMatchObject({ sandbox: { network: true } });
    expect(await call({ kind: 'command', command: 'true', cwd: '../..' })).toMatchObject({
      isError: true,
      content: { error: { code: 'invalid_input', field: 'cwd', reason: 'outside_work_folder' } },
    });
    expect(await call({ kind: 'interval', intervalSeconds: 5, network: true })).toMatchObject({ isError: true, content: { error: { code: 'invalid_input', field: 'network' } } });
  });
});
