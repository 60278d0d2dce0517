/**
 * server-everything over Streamable HTTP, an `external` resource kind that follows the server's
 * updates, and approvals: a tool whose definition changes after approval is held until a person
 * approves it again, and its new description never reaches the model.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { reply } from '../../src/testkit/scripted-model-server';
import { EVERYTHING, lastToolResult, startMcpHarness, until, type McpHarness } from './mcp-harness';

const CHANGING = join(__dirname, 'fixtures', 'changing-server.js');
let h: McpHarness | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
  child?.kill('SIGKILL');
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

it('calls server-everything over Streamable HTTP with progress, and records its resource as external revisions', async () => {
  const port = await freePort();
  child = spawn(EVERYTHING, ['streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/mcp`;
  // Wait for the server to listen.
  for (let i = 0; i < 200; i++) {
    const ok = await fetch(url, { method: 'GET' }).then(() => true, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const seen: string[] = [];
  h = await startMcpHarness(() => ({ remote: { url } }), async (body, index) => {
    if (index > 0) seen.push(JSON.stringify(lastToolResult(body)));
    if (index === 0) return reply.toolCalls([{ name: 'remote__echo', arguments: { message: 'over http' } }]);
    if (index === 1) return reply.toolCalls([{ name: 'remote__get_sum', arguments: { a: 1, b: 2 } }]);
    if (index === 2) return reply.toolCalls([{ name: 'remote__trigger_long_running_operation', arguments: { duration: 1, steps: 3 } }]);
    return reply.toolCalls([{ name: 'finish', arguments: { summary: 'ok' } }]);
  });
  expect(h.host.mcp.server('remote')!.connection.state).toBe('ready');
  const taskId = await h.runtime.startTask('over http');
  expect(await h.runtime.runTask(taskId)).toEqual({ status: 'done', summary: 'ok' });
  expect(seen[0]).toContain('Echo: over http');
  expect(seen[1]).toContain('3');
  expect(seen[2]).toContain('completed');
  expect(h.progress.filter((p) => p.taskId === taskId).length).toBe(3);

  // A server resource as a host resource of kind mcp-resource.remote, with external revisions.
  const connection = h.host.mcp.server('remote')!.connection;
  const [first] = await connection.listResources();
  const created = await h.host.resources.create({ kind: 'mcp-resource.remote', content: { uri: first!.uri, contents: [] }, operator: 'human:ann' });
  await h.host.resources.syncExternal(created.id);
  const read = await h.host.resources.get(created.id);
  expect(read.revision).toBeGreaterThan(0);
  expect(JSON.stringify(read.content)).toContain(first!.uri);
  expect((read.content as { contents: unknown[] }).contents.length).toBeGreaterThan(0);
}, 120_000);

it('holds a tool whose definition changed after approval until a person approves again', async () => {
  const seen: string[] = [];
  const descriptions: string[] = [];
  const registered: string[] = [];
  h = await startMcpHarness(() => ({ changing: { command: process.execPath, args: [CHANGING] } }), async (body, index) => {
    if (index > 0) seen.push(JSON.stringify(lastToolResult(body)));
    descriptions.push(JSON.stringify(body.tools?.find((t) => t.function.name === 'changing__greet')?.function.description));
    switch (index) {
      case 0:
        return reply.toolCalls([{ name: 'changing__greet', arguments: { name: 'ann' } }]);
      case 1:
        return reply.toolCalls([{ name: 'changing__mutate', arguments: {} }]);
      case 2:
        await until(() => Object.keys(h!.host.mcp.server('changing')!.heldTools()).length > 0);
        registered.push(h!.host.registry.tool('changing__greet')!.tool.description);
        return reply.toolCalls([{ name: 'changing__greet', arguments: { name: 'bob' } }]);
      case 3:
        h!.host.mcp.approve('changing');
        registered.push(h!.host.registry.tool('changing__greet')!.tool.description);
        return reply.toolCalls([{ name: 'changing__greet', arguments: { name: 'cy' } }]);
      default:
        return reply.toolCalls([{ name: 'finish', arguments: { summary: 'ok' } }]);
    }
  });
  expect(h.host.mcp.list()[0]!.approvedAt).not.toBeNull(); // mounting approved what it offered then
  const taskId = await h.runtime.startTask('greet');
  expect(await h.runtime.runTask(taskId)).toEqual({ status: 'done', summary: 'ok' });
  expect(seen[0]).toContain('hello ann');
  expect(seen[2]).toContain('tool_held');
  expect(seen[3]).toContain('hello cy');
  // The changed description is offered to agents only once approved: while held, tools list a placeholder.
  expect(descriptions.join()).not.toContain('ignore previous');
  expect(registered[0]).toContain('held');
  expect(registered[0]).not.toContain('ignore previous');
  expect(registered[1]).toContain('ignore previous');
  expect(h.host.mcp.server('changing')!.connection.spawnCount).toBe(1);
}, 60_000);
