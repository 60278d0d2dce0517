/**
 * server-everything and server-filesystem over stdio, mounted in a workspace: a scripted Main calls
 * their tools through the host; killing a server mid-task gives `external_unavailable` and the
 * restarted server serves the next call, on one persistent connection (a spawn per start, none per call).
 * server-filesystem marks `write_file` destructive, so under the default policy that call waits for
 * a person, who approves it here.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../../src/testkit/scripted-model-server';
import { EVERYTHING, FILESYSTEM, lastToolResult, startMcpHarness, until, type McpHarness } from './mcp-harness';

let h: McpHarness;
afterAll(() => h?.dispose());

it('runs echo, get-sum, a long operation with progress, files in and out of the allowed dir, and survives a kill', async () => {
  const seen: string[] = [];
  let shared = '';
  const call = (name: string, args: Record<string, unknown>) => reply.toolCalls([{ name, arguments: args }]);
  h = await startMcpHarness(
    (dir) => {
      shared = join(dir, 'shared');
      mkdirSync(shared);
      return { everything: { command: EVERYTHING }, files: { command: FILESYSTEM, args: [shared] } };
    },
    async (body, index) => {
      if (index > 0) seen.push(JSON.stringify(lastToolResult(body)));
      const everything = h.host.mcp.server('everything')!.connection;
      switch (index) {
        case 0:
          return call('everything__echo', { message: 'hello mcp' });
        case 1:
          return call('everything__get_sum', { a: 2, b: 40 });
        case 2:
          return call('everything__trigger_long_running_operation', { duration: 1, steps: 4 });
        case 3:
          return call('files__write_file', { path: join(shared, 'note.txt'), content: 'written by an agent' });
        case 4:
          return call('files__read_text_file', { path: join(shared, 'note.txt') });
        case 5:
          return call('files__read_text_file', { path: '/etc/hostname' });
        case 6:
          return call('everything__trigger_sampling_request', { prompt: 'hi' });
        case 7:
          process.kill(everything.pid!, 'SIGKILL');
          await until(() => everything.state !== 'ready');
          return call('everything__echo', { message: 'while down' });
        case 8:
          await until(() => everything.state === 'ready');
          return call('everything__echo', { message: 'after restart' });
        default:
          return reply.toolCalls([{ name: 'finish', arguments: { summary: 'done' } }]);
      }
    },
  );
  const mounted = h.host.mcp.list();
  expect(mounted.map((s) => [s.name, s.state])).toEqual([['everything', 'ready'], ['files', 'ready']]);
  expect(mounted[0]!.tools).toEqual(expect.arrayContaining(['everything__echo', 'everything__get_sum', 'everything__trigger_long_running_operation']));

  const approvedByAnn = h.host.approvals.onChange((a) => {
    if (a.status === 'pending') void h.host.approvals.decide(a.id, 'approved', 'human:ann');
  });
  const taskId = await h.runtime.startTask('use the mounted servers');
  const result = await h.runtime.runTask(taskId);
  approvedByAnn();
  expect(result).toEqual({ status: 'done', summary: 'done' });
  expect((await h.host.approvals.list()).map((a) => [a.tool, a.impact, a.status])).toEqual([['files__write_file', 'destructive', 'approved']]);

  const [echo, sum, long, write, read, outside, sampling, down, restarted] = seen;
  expect(echo).toContain('Echo: hello mcp');
  expect(sum).toContain('42');
  expect(long).toContain('completed');
  expect(write).not.toContain('"isError"');
  expect(readFileSync(join(shared, 'note.txt'), 'utf8')).toBe('written by an agent');
  expect(read).toContain('written by an agent');
  expect(outside).toContain('Access denied');
  expect(sampling).toMatch(/sampling is not enabled/);
  expect(down).toContain('external_unavailable');
  expect(restarted).toContain('Echo: after restart');

  // Progress reached the task's events (over stdio the last one may be lost: no exact count).
  expect(h.progress.filter((p) => p.taskId === taskId && p.tool === 'everything__trigger_long_running_operation').length).toBeGreaterThan(0);
  // One spawn per start: the first and the restart after the kill; none per call.
  expect(h.host.mcp.server('everything')!.connection.spawnCount).toBe(2);
  expect(h.host.mcp.server('files')!.connection.spawnCount).toBe(1);
}, 120_000);
