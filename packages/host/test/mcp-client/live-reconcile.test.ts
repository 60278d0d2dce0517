/**
 * A running host follows mcp.json: a server added by `cowork mcp add` in another process (the built
 * bin) or over /api/mcp/servers is mounted without a restart (tools registered, connected, answering);
 * one removed is unmounted (tools unregistered, connection closed, process gone). A malformed file
 * leaves the mounted set as it was and is reported.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { reply } from '../../src/testkit/scripted-model-server';
import { hostDir, requireCurrentBuild } from '../support/built-host';
import { body, startTestServer, type TestServer } from '../server/harness';
import { EVERYTHING, lastToolResult, startMcpHarness, until, type McpHarness } from './mcp-harness';

const run = promisify(execFile);
const cowork = (...args: string[]) => run(process.execPath, [join(hostDir, 'bin', 'cowork.js'), ...args], { env: { PATH: process.env.PATH, USER: 'tester' } });

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

let h: McpHarness | undefined;
let t: TestServer | undefined;
afterEach(async () => {
  await h?.dispose();
  await t?.dispose();
  h = t = undefined;
});

it('mounts a server the CLI adds from another process, and unmounts it when the CLI removes it', async () => {
  requireCurrentBuild();
  const seen: string[] = [];
  h = await startMcpHarness(() => ({}), async (request, index) => {
    if (index % 2 === 1) {
      seen.push(JSON.stringify(lastToolResult(request)));
      return reply.toolCalls([{ name: 'finish', arguments: { summary: 'ok' } }]);
    }
    return reply.toolCalls([{ name: 'live__echo', arguments: { message: `call ${index}` } }]);
  });
  const { host } = h;
  expect(host.mcp.list()).toEqual([]);

  const started = Date.now();
  await cowork('mcp', 'add', 'live', '--workspace', h.dir, '--', EVERYTHING);
  await until(() => host.mcp.server('live')?.connection.state === 'ready' && host.registry.tool('live__echo') !== undefined, 20_000);
  const mountedMs = Date.now() - started;
  expect(mountedMs).toBeLessThan(15_000);
  const pid = host.mcp.server('live')!.connection.pid!;
  expect(alive(pid)).toBe(true);
  const taskId = await h.runtime.startTask('echo through the server added while running');
  expect(await h.runtime.runTask(taskId)).toEqual({ status: 'done', summary: 'ok' });
  expect(seen[0]).toContain('Echo: call 0');

  // A malformed file changes nothing (and is listed as a problem).
  const good = readFileSync(join(h.dir, 'mcp.json'), 'utf8');
  writeFileSync(join(h.dir, 'mcp.json'), '{"mcpServers": {');
  await until(() => host.mcp.problems.some((p) => p.plugin === 'mcp.json'), 5_000);
  expect(host.registry.tool('live__echo')).toBeDefined();
  expect(host.mcp.server('live')!.connection.state).toBe('ready');
  writeFileSync(join(h.dir, 'mcp.json'), good);
  await until(() => !host.mcp.problems.some((p) => p.plugin === 'mcp.json'), 5_000);
  expect(host.mcp.server('live')!.connection.pid).toBe(pid); // the same entry: not restarted

  await cowork('mcp', 'remove', 'live', '--workspace', h.dir);
  await until(() => host.registry.tool('live__echo') === undefined && !alive(pid), 10_000);
  expect(host.mcp.server('live')).toBeUndefined();
  expect(host.registry.plugins().map((p) => p.name)).not.toContain('mcp.live');
  expect(host.mcp.list()).toEqual([]);
}, 90_000);

it('mounts and unmounts at once when /api/mcp/servers adds and removes', async () => {
  t = await startTestServer({}, { pollMonitors: true, externalPollMs: 0 });
  const host = t.host;
  const added = await t.request({ method: 'POST', url: '/api/mcp/servers', payload: { name: 'live', server: { command: EVERYTHING } } });
  expect(added.statusCode).toBe(201);
  expect(body<{ state: string }>(added).state).not.toBe('unloaded');
  await until(() => host.mcp.server('live')?.connection.state === 'ready', 20_000);
  const list = body<{ servers: { name: string; state: string; tools: string[] }[] }>(await t.request({ method: 'GET', url: '/api/mcp/servers' }));
  expect(list.servers[0]).toMatchObject({ name: 'live', state: 'ready', tools: expect.arrayContaining(['live__echo', 'live__get_sum']) });
  const registered = host.registry.tool('live__get_sum')!;
  const answer = await registered.tool.handler({ a: 20, b: 22 }, { operator: 'human:ann', signal: new AbortController().signal, host: undefined as never });
  expect(JSON.stringify(answer)).toContain('42');

  const pid = host.mcp.server('live')!.connection.pid!;
  const removed = await t.request({ method: 'DELETE', url: '/api/mcp/servers/live' });
  expect(removed.statusCode).toBe(200);
  // Tools go with the response; the process exits right after.
  expect(host.registry.tool('live__echo')).toBeUndefined();
  await until(() => !alive(pid), 10_000);
  expect(body<{ servers: unknown[] }>(await t.request({ method: 'GET', url: '/api/mcp/servers' })).servers).toEqual([]);
  expect(t.errors).toEqual([]);
}, 60_000);
