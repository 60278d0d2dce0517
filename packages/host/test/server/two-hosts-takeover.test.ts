/**
 * Invariant: two `cowork serve` processes on one PostgreSQL database share a task. A WebSocket
 * client of host B sees the task events host A publishes while A runs the task (Main's turns,
 * model and tool calls, the subagents, the Inbox posts of their results), each once and in order,
 * and the coordinator's records numbered without a gap. When A is SIGKILLed mid-task, B notices
 * that A's lease expired, within the lease plus its takeover interval, takes the lease, resumes
 * the task from its log and finishes it, with each Inbox result in Main's context exactly once.
 * The model is the test's scripted OpenAI-compatible server; everything else is real.
 */
import { spawnTsx, type TsxChild } from '../support/tsx-child';
import { join } from 'node:path';
import { taskLeaseKey } from '../../src/agents/task-lease';
import { PostgresStore } from '../../src/store/postgres/postgres-store';
import type { WireChatRequest } from '../../src/models/wire';
import { reply, startScriptedModelServer, type ScriptStep } from '../../src/testkit/scripted-model-server';
import { caller, texts } from '../agents/runtime-harness';
import { until } from '../agents/crash/spawn-host';
import { usePostgresServer } from '../support/postgres';
import { tempDir } from '../support/temp-host';
import { TestClient, TOKEN, type Message } from './harness';

const pgServer = usePostgresServer();

const LEASE_MS = 3000;
const TAKEOVER_POLL_MS = 500;
/** Room for a loaded machine on top of the lease and one takeover interval. */
const SLACK_MS = 2000;

interface ServeProcess extends TsxChild {
  readonly url: Promise<string>;
}

/** `cowork serve` (serve-child.ts) as host `hostId` on `databaseUrl`, its model the scripted server. */
function serve(hostId: string, workspace: string, databaseUrl: string, modelUrl: string, extraEnv: Record<string, string> = {}): ServeProcess {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('COWORK_')) delete env[name];
  Object.assign(env, {
    COWORK_DATABASE_URL: databaseUrl,
    COWORK_HOST_ID: hostId,
    COWORK_LEASE_MS: String(LEASE_MS),
    COWORK_TAKEOVER_POLL_MS: String(TAKEOVER_POLL_MS),
    COWORK_TOKEN: TOKEN,
    COWORK_PLUGINS: '',
    COWORK_MODEL_BASE_URL: modelUrl,
    COWORK_MODEL: 'scripted',
    ...extraEnv,
  });
  const child = spawnTsx(join(__dirname, 'serve-child.ts'), ['--port', '0', '--workspace', workspace], { wholeEnv: env });
  const url = child.printed(/ at (http:\/\/127\.0\.0\.1:\d+)\n/, `${hostId} listening`).then((m) => m[1]!);
  return { ...child, url };
}

async function post(url: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await response.json()) as Record<string, unknown>;
  if (response.status >= 300) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** The task events a live client got, in order. */
function taskEvents(messages: Message[]): Record<string, unknown>[] {
  return messages.filter((m) => m.type === 'task_event').map((m) => m.event as Record<string, unknown>);
}

/**
 * Main delegates parts alpha and beta (async) once `go`; its next turn hangs while `hangMain` (the
 * host running it is killed there); the subagents answer only once Main hangs, so both results wait
 * in Main's Inbox; given both, Main finishes.
 */
function script(state: { go: boolean; hangMain: boolean; mainHanging: boolean }): (body: WireChatRequest) => Promise<ScriptStep> {
  return async (body) => {
    const who = caller(body);
    if (who !== 'main') {
      while (!state.mainHanging) await new Promise((r) => setTimeout(r, 10));
      return reply.toolCalls([{ name: 'submit_result', arguments: { result: `RESULT-${who.split('-')[0]}` } }]);
    }
    const seen = texts(body).join('\n');
    if (seen.includes('RESULT-alpha') && seen.includes('RESULT-beta')) return reply.toolCalls([{ name: 'finish', arguments: { summary: 'both parts in' } }]);
    if (!body.messages.some((m) => m.role === 'tool')) {
      while (!state.go) await new Promise((r) => setTimeout(r, 10));
      return reply.toolCalls([
        { id: 'd1', name: 'delegate', arguments: { assignment: 'part alpha', mode: 'async', agent: 'alpha' } },
        { id: 'd2', name: 'delegate', arguments: { assignment: 'part beta', mode: 'async', agent: 'beta' } },
      ]);
    }
    if (state.hangMain) {
      state.mainHanging = true;
      return reply.hang();
    }
    return reply.text('waiting for the parts');
  };
}

it('a client on host B sees host A’s task events; after A is SIGKILLed, B takes the task within its lease and finishes it with each result once', async () => {
  const dir = tempDir();
  const databaseUrl = await pgServer().createDatabase();
  const state = { go: false, hangMain: true, mainHanging: false };
  const model = await startScriptedModelServer(script(state));
  const workspace = join(dir.path, 'ws');
  const a = serve('machine-a', workspace, databaseUrl, model.baseUrl);
  const b = serve('machine-b', workspace, databaseUrl, model.baseUrl);
  let client: Awaited<ReturnType<typeof TestClient.connect>> | undefined;
  let observer: PostgresStore | undefined;
  try {
    const [urlA, urlB] = await Promise.all([a.url, b.url]);
    observer = await PostgresStore.open({ url: databaseUrl });
    const { taskId } = (await post(urlA, '/api/tasks', { request: 'two parts, in parallel' })) as { taskId: string };

    // A client of host B follows the task before Main's first turn on A.
    client = await TestClient.connect(`${urlB.replace('http', 'ws')}/ws`);
    client.send({ type: 'subscribe_task', taskId, requestId: 's1' });
    await client.next('task_subscribed', 's1');
    state.go = true;

    // A runs Main; both results wait in Main's Inbox while its next model call hangs.
    const results = async (): Promise<number> => (await observer!.read((tx) => tx.inbox.pending(taskId, 'main'))).filter((m) => m.kind === 'result').length;
    await until(async () => (await results()) === 2, 'both results in Main’s Inbox, Main hanging on A', 60_000);
    const leaseOnA = await observer.read((tx) => tx.leases.get(taskLeaseKey(taskId)));
    expect(leaseOnA?.holder).toMatch(/^machine-a:/);

    // What A published reached B's client: Main's turns on A, the subagents, the results' Inbox posts.
    await client.until((ms) => taskEvents(ms).filter((e) => e.type === 'inbox_posted' && e.kind === 'result').length === 2, 'both results posted, seen on B');
    const beforeKill = taskEvents(client.messages);
    expect(beforeKill.filter((e) => e.type === 'model' && e.agentId === 'main')).toHaveLength(1);
    expect(beforeKill.filter((e) => e.type === 'tool' && e.agentId === 'main' && e.name === 'delegate')).toHaveLength(2);
    expect(beforeKill.filter((e) => e.type === 'subagent_started').map((e) => String(e.agentId).split('-')[0]).sort()).toEqual(['alpha', 'beta']);
    const posted = beforeKill.filter((e) => e.type === 'inbox_posted' && e.kind === 'result').map((e) => e.messageId);
    expect(new Set(posted).size).toBe(2);
    // Main's turns in the order A ran them.
    expect(beforeKill.filter((e) => e.type === 'turn' && e.agentId === 'main').map((e) => e.turn)).toEqual([1, 2]);

    const killedAt = Date.now();
    a.proc.kill('SIGKILL');
    await a.exited;
    state.hangMain = false;

    // B notices A's lease ended and takes the task on its own.
    let takenAfterMs = -1;
    await until(async () => {
      const lease = await observer!.read((tx) => tx.leases.get(taskLeaseKey(taskId)));
      if (lease?.holder.startsWith('machine-b:')) takenAfterMs = Date.now() - killedAt;
      return takenAfterMs >= 0;
    }, 'host B to take the lease', LEASE_MS + TAKEOVER_POLL_MS + 30_000);
    expect(takenAfterMs).toBeLessThan(LEASE_MS + TAKEOVER_POLL_MS + SLACK_MS);

    await client.until((ms) => taskEvents(ms).some((e) => e.type === 'task_state' && e.status === 'done'), 'the task done, seen on B', 60_000);
    const log = await observer.read((tx) => tx.conversation.list(taskId, 'main'));
    const bodies = log.map((r) => JSON.stringify(r.message));
    expect(bodies.filter((text) => text.includes('RESULT-alpha'))).toHaveLength(1);
    expect(bodies.filter((text) => text.includes('RESULT-beta'))).toHaveLength(1);
    expect(await observer.read((tx) => tx.inbox.pending(taskId, 'main'))).toEqual([]);
    // The model's last request (Main's, from B) held each result once.
    const last = model.requests[model.requests.length - 1]!;
    expect(texts(last).join('\n').split('RESULT-alpha')).toHaveLength(2);
    expect(texts(last).join('\n').split('RESULT-beta')).toHaveLength(2);

    // Every record of the task reached the client on B once, numbered without a gap.
    const records = taskEvents(client.messages).filter((e) => e.type === 'record');
    const seqs = records.map((e) => e.seq as number);
    expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));
    expect(records.map((e) => e.recordType)).toEqual(expect.arrayContaining(['assignment.requested', 'assignment.finished', 'task.finished']));
    // The only task of the workspace: its last record is the log's last event.
    expect(seqs[seqs.length - 1]).toBe(await observer.read((tx) => tx.events.lastSeq()));
    // Each event A published reached B once.
    const fromA = taskEvents(client.messages).filter((e) => e.type === 'inbox_posted');
    expect(new Set(fromA.map((e) => e.messageId)).size).toBe(fromA.length);
  } catch (error) {
    process.stderr.write(`host A:\n${a.output()}\nhost B:\n${b.output()}\n`);
    throw error;
  } finally {
    await client?.close();
    a.proc.kill('SIGKILL');
    b.proc.kill('SIGTERM');
    await Promise.all([a.exited, b.exited]);
    await observer?.close();
    await model.close();
    dir.cleanup();
  }
}, 180_000);
