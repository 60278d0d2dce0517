/**
 * Invariant: `cowork tasks` and `cowork task TASK` show what the durable records say, without a
 * model: each task's status, its assignments with their outcomes, the Inbox messages not yet
 * delivered and the completion gate (a queued request is an unanswered user request; a subagent
 * left running by Ctrl-C is an open subtask; a finished task's gate is open). An unknown task is
 * exit 4 with `not_found`.
 */
import { join } from 'node:path';
import { AgentRuntime } from '../../src/agents/runtime';
import type { RunReport } from '../../src/cli/commands/run';
import type { TaskRow } from '../../src/cli/commands/tasks';
import type { TaskView } from '../../src/cli/task-view';
import { Host } from '../../src/host';
import type { ModelProvider } from '../../src/models';
import { reply, startScriptedModelServer, type ScriptedModelServer } from '../../src/testkit/scripted-model-server';
import { caller, texts } from '../agents/runtime-harness';
import { jsonOf, tempDir, workspaceCli, type ErrorJson } from './cli-harness';

/** Only records a task: starting one calls no model. */
const NO_MODEL: ModelProvider = { name: 'none', maxContextTokens: 0, complete: () => Promise.reject(new Error('no model in this test')) };

const dir = tempDir('cowork-tasks-');
const workspace = join(dir.path, 'ws');
let server: ScriptedModelServer;
let holdSubagents = false;
let subagentAsked: () => void = () => undefined;

beforeAll(async () => {
  // Main delegates part alpha (async) and finishes once its result is in; alpha answers unless held.
  server = await startScriptedModelServer((body) => {
    const who = caller(body);
    if (who !== 'main') {
      subagentAsked();
      return holdSubagents ? reply.hang() : reply.toolCalls([{ name: 'submit_result', arguments: { result: 'RESULT-alpha' } }]);
    }
    const seen = texts(body).join('\n');
    if (seen.includes('RESULT-alpha')) return reply.toolCalls([{ name: 'finish', arguments: { summary: 'alpha is in' } }]);
    if (seen.includes('acknowledged')) return reply.text('waiting for alpha');
    return reply.toolCalls([{ id: 'd1', name: 'delegate', arguments: { assignment: 'part alpha\nwith details', mode: 'async', agent: 'alpha' } }]);
  });
});
afterAll(async () => {
  await server.close();
  dir.cleanup();
});

const cli = (): ReturnType<typeof workspaceCli> =>
  workspaceCli(workspace, { env: { USER: 'tester', COWORK_MODEL_BASE_URL: server.baseUrl, COWORK_MODEL: 'scripted', COWORK_MODEL_MAX_RETRIES: '0' } });

describe('cowork tasks and cowork task', () => {
  let queued = '';
  let done = '';
  let interrupted = '';

  it('lists no tasks in a new workspace', async () => {
    expect((await cli().run('tasks')).stdout).toBe('no tasks\n');
    expect(await cli().json('tasks')).toEqual({ tasks: [] });
  });

  it('shows a queued task: its request waits in the Inbox and holds the gate', async () => {
    const host = await Host.open({ workspaceDir: workspace });
    try {
      queued = await new AgentRuntime({ host, provider: NO_MODEL }).startTask('write the intro\nand keep it short');
    } finally {
      await host.close();
    }
    const view = await cli().json<TaskView>('task', queued);
    expect(view).toMatchObject({
      taskId: queued,
      status: 'queued',
      request: 'write the intro\nand keep it short',
      turns: 0,
      assignments: [],
      inbox: [{ messageId: `request:${queued}`, recipient: 'main', kind: 'user', sender: 'user' }],
      gate: [{ kind: 'unanswered_user_request', id: `request:${queued}` }],
      tokens: { inputTokens: 0, outputTokens: 0 },
    });
    const text = (await cli().run('task', queued)).stdout.split('\n');
    expect(text).toEqual(
      expect.arrayContaining([
        `${queued}  queued`,
        '  request:',
        '    write the intro',
        `    request:${queued}  to main  user from user  ${view.inbox[0]!.createdAt}`,
        `    unanswered_user_request request:${queued}: write the intro and keep it short`,
      ]),
    );
  });

  it('shows a finished task with its assignment and an open gate', async () => {
    done = jsonOf<RunReport>(await cli().run('run', 'build part alpha', '--json')).taskId;
    const view = await cli().json<TaskView>('task', done);
    expect(view).toMatchObject({
      status: 'done',
      summary: 'alpha is in',
      waitingReason: null,
      assignments: [{ agentId: expect.stringMatching(/^alpha-/), mode: 'async', status: 'done', resultStatus: 'done', assignment: 'part alpha' }],
      inbox: [],
      gate: [],
    });
    expect(view.tokens.inputTokens).toBeGreaterThan(0);
    const text = (await cli().run('task', done)).stdout;
    expect(text).toContain('  completion gate: open (finish would be accepted)\n');
    expect(text).toMatch(/^ {4}alpha-\w+ {2}async {2}done {2}1 turn, \S+ in \/ \S+ out {2}"part alpha"$/m);
  });

  it('shows a subagent left running by Ctrl-C as an open subtask', async () => {
    holdSubagents = true;
    const asked = new Promise<void>((resolveAsked) => (subagentAsked = resolveAsked));
    const running = cli().run('run', 'build part alpha again');
    await asked;
    process.emit('SIGINT');
    const stopped = await running;
    expect(stopped.code).toBe(130);
    interrupted = /^task (\S+): interrupted/m.exec(stopped.stdout)![1]!;

    const view = await cli().json<TaskView>('task', interrupted);
    const assignmentId = view.assignments[0]?.assignmentId;
    expect(view).toMatchObject({
      status: 'running',
      assignments: [{ status: 'running', resultStatus: null }],
      gate: [{ kind: 'open_subtask', id: assignmentId, detail: expect.stringMatching(/^alpha-\w+ is running: part alpha/) }],
    });
  });

  it('lists every task, oldest first, with its status and number of assignments', async () => {
    const { tasks } = await cli().json<{ tasks: TaskRow[] }>('tasks');
    expect(tasks).toEqual([
      { taskId: queued, status: 'queued', waitingReason: null, request: 'write the intro', createdAt: expect.any(String), assignments: 0 },
      { taskId: done, status: 'done', waitingReason: null, request: 'build part alpha', createdAt: expect.any(String), assignments: 1 },
      { taskId: interrupted, status: 'running', waitingReason: null, request: 'build part alpha again', createdAt: expect.any(String), assignments: 1 },
    ]);
    const text = (await cli().run('tasks')).stdout.split('\n');
    expect(text[1]).toMatch(new RegExp(`^${done} {2}done {2}\\S+ {2}1 assignment {2}"build part alpha"$`));
  });

  it('exits 4 with not_found for an unknown task', async () => {
    const text = await cli().run('task', 'task_nope');
    expect(text.code).toBe(4);
    expect(text.stderr).toMatch(/^error not_found: no task "task_nope"/);
    const json = await cli().run('task', 'task_nope', '--json');
    expect({ code: json.code, error: jsonOf<ErrorJson>(json).error }).toMatchObject({ code: 4, error: { code: 'not_found', taskId: 'task_nope' } });
  });
});
