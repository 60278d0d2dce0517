/**
 * Invariant: one host process at a time runs a task. A second process resuming a task that a live
 * process runs is refused with `task_leased`, naming the holder, and runs nothing; once the holder
 * is SIGKILLed, a process on the same machine takes the task over at once (the holder's pid is
 * gone), and a host on another machine (another host id, here on PostgreSQL) takes it once the
 * lease has expired; the task then finishes with each subagent result in Main's context once.
 */
import { Host } from '../../src/host';
import { reply, startScriptedModelServer } from '../../src/testkit/scripted-model-server';
import { usePostgresServer } from '../support/postgres';
import { tempDir } from '../support/temp-host';
import { twoPartsScript } from './runtime-harness';
import { spawnHost, until } from './crash/spawn-host';

const pgServer = usePostgresServer();

/** The child's coded error (its `error {...}` line), if it printed one. */
function errorOf(lines: string[]): { code: string; holder?: string; leaseExpiresAt?: string } | undefined {
  const line = lines.find((l) => l.startsWith('error '));
  return line === undefined ? undefined : (JSON.parse(line.slice(6)) as { error: { code: string; holder?: string; leaseExpiresAt?: string } }).error;
}

it('refuses a second process resuming a running task, and a process on the same machine takes it over at once after SIGKILL', async () => {
  const dir = tempDir();
  // Main calls the long `hold` tool, then finishes once it has the tool's answer.
  const server = await startScriptedModelServer((body) =>
    body.messages.some((m) => m.role === 'tool') ? reply.toolCalls([{ name: 'finish', arguments: { summary: 'held and done' } }]) : reply.toolCalls([{ id: 'h1', name: 'hold', arguments: {} }]),
  );
  try {
    const first = spawnHost([dir.path, server.baseUrl], { HOLD_MS: '600000' });
    await until(() => server.requests.length >= 1 && first.lines.some((l) => l.startsWith('task ')), 'Main to be inside its tool call');
    const taskId = first.lines.find((l) => l.startsWith('task '))!.slice(5);

    const second = spawnHost([dir.path, server.baseUrl, taskId], { HOLD_MS: '0' });
    expect(await second.exited).toBe(1);
    expect(errorOf(second.lines)).toMatchObject({ code: 'task_leased', holder: expect.stringMatching(new RegExp(`:${first.proc.pid}:`)), leaseExpiresAt: expect.any(String) });
    // The refused process asked the model nothing: only the first one's turn.
    expect(server.requests).toHaveLength(1);

    first.proc.kill('SIGKILL');
    await first.exited;
    const third = spawnHost([dir.path, server.baseUrl, taskId], { HOLD_MS: '0' });
    expect(await third.exited).toBe(0);
    expect(third.lines.find((l) => l.startsWith('result '))).toBe('result {"status":"done","summary":"held and done"}');
  } finally {
    await server.close();
    dir.cleanup();
  }
}, 60_000);

it('on PostgreSQL, another host takes a SIGKILLed host’s task after its lease expired and finishes it with each result once', async () => {
  const dir = tempDir();
  const databaseUrl = await pgServer().createDatabase();
  const script = twoPartsScript({ releaseSubagents: true });
  const server = await startScriptedModelServer(script);
  const env = { DATABASE_URL: databaseUrl, LEASE_MS: '3000' };
  try {
    const first = spawnHost([dir.path, server.baseUrl], { ...env, HOST_ID: 'machine-a', HOLD_MS: '600000' });
    await until(() => first.lines.some((l) => l.startsWith('task ')), 'the task id');
    const taskId = first.lines.find((l) => l.startsWith('task '))!.slice(5);
    const observer = await Host.open({ workspaceDir: dir.path, databaseUrl, pollMonitors: false });
    const posted = async (): Promise<number> => (await observer.store.read((tx) => tx.inbox.pending(taskId, 'main'))).filter((m) => m.kind === 'result').length;
    await until(async () => (await posted()) === 2, 'both results in the Inbox, Main inside its tool call');
    first.proc.kill('SIGKILL');
    await first.exited;

    // Host B (another machine) cannot know A is gone: it is refused until A's lease has expired.
    const refusals: ({ code: string; holder?: string } | undefined)[] = [];
    let done: string | undefined;
    while (done === undefined) {
      const next = spawnHost([dir.path, server.baseUrl, taskId], { ...env, HOST_ID: 'machine-b', HOLD_MS: '0' });
      if ((await next.exited) === 0) done = next.lines.find((l) => l.startsWith('result '));
      else refusals.push(errorOf(next.lines));
    }
    expect(done).toBe('result {"status":"done","summary":"both parts in"}');
    for (const refusal of refusals) expect(refusal).toMatchObject({ code: 'task_leased', holder: expect.stringMatching(/^machine-a:/) });

    const log = await observer.store.read((tx) => tx.conversation.list(taskId, 'main'));
    const bodies = log.map((r) => JSON.stringify(r.message));
    expect(bodies.filter((b) => b.includes('RESULT-alpha'))).toHaveLength(1);
    expect(bodies.filter((b) => b.includes('RESULT-beta'))).toHaveLength(1);
    await observer.coordinator.refresh();
    const state = observer.coordinator.current;
    expect(state.tasks[taskId]!.status).toBe('done');
    expect(state.tasks[taskId]!.assignmentIds.map((id) => state.assignments[id]!.status)).toEqual(['done', 'done']);
    await observer.close();
  } finally {
    await server.close();
    dir.cleanup();
  }
}, 120_000);
