/**
 * Invariant: `cowork run` drives a task to its end against any OpenAI-compatible server and says
 * how it ended: progress on stderr and a summary on stdout (or one JSON document), exit 0 when done,
 * 6 while the task waits (and `--resume TASK --message` then finishes it), 130 after Ctrl-C (and the
 * task resumes), 2 with `model_not_configured` when no model is set. Nothing is lost by stopping:
 * the real bin, SIGKILLed while a subagent's reply is held, resumes with `run --resume` and finishes.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RunReport } from '../../src/cli/commands/run';
import type { WireChatRequest } from '../../src/models/wire';
import { reply, startScriptedModelServer, type ScriptStep, type ScriptedModelServer } from '../../src/testkit/scripted-model-server';
import { caller, texts } from '../agents/runtime-harness';
import { hostDir, requireCurrentBuild } from '../support/built-host';
import { jsonOf, runCli, tempDir, workspaceCli, type ErrorJson } from './cli-harness';

const dir = tempDir('cowork-run-');
afterAll(() => dir.cleanup());
let servers: ScriptedModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function serve(script: (body: WireChatRequest) => ScriptStep | Promise<ScriptStep>): Promise<ScriptedModelServer> {
  const server = await startScriptedModelServer(script);
  servers.push(server);
  return server;
}

function modelEnv(server: ScriptedModelServer): NodeJS.ProcessEnv {
  return { USER: 'tester', COWORK_MODEL_BASE_URL: server.baseUrl, COWORK_MODEL: 'scripted', COWORK_MODEL_MAX_RETRIES: '0' };
}

/** Main delegates part alpha (async), waits for its result, then finishes; alpha submits at once. */
function oneAsyncSubagent(body: WireChatRequest): ScriptStep {
  const who = caller(body);
  if (who !== 'main') return reply.toolCalls([{ name: 'submit_result', arguments: { result: `RESULT-${who.split('-')[0]}` } }]);
  const seen = texts(body).join('\n');
  if (seen.includes('RESULT-alpha')) return reply.toolCalls([{ name: 'finish', arguments: { summary: 'alpha is in' } }]);
  if (seen.includes('acknowledged')) return reply.text('waiting for alpha');
  return reply.toolCalls([{ id: 'd1', name: 'delegate', arguments: { assignment: 'part alpha', mode: 'async', agent: 'alpha' } }]);
}

let workspaces = 0;
const newWorkspace = (): string => join(dir.path, `ws${++workspaces}`);

describe('cowork run', () => {
  it('runs a task with an async subagent to done, with progress on stderr and a summary on stdout', async () => {
    const server = await serve(oneAsyncSubagent);
    const cli = workspaceCli(newWorkspace(), { env: modelEnv(server) });
    const run = await cli.run('run', 'build part alpha');
    expect(run.code).toBe(0);

    const agent = /subagent (alpha-\w+) started \(async\)/.exec(run.stderr)?.[1];
    expect(agent).toBeDefined();
    const taskId = /^task (\S+) started/.exec(run.stderr)?.[1];
    expect(taskId).toMatch(/^task_/);
    const progress = run.stderr.split('\n');
    expect(progress).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^turn 1 · main · context \d+(\.\d)?k? tokens$/),
        expect.stringMatching(/^ {2}main · tokens \+\S+ in \/ \+\S+ out$/),
        '  main → delegate (ok)',
        `subagent ${agent} started (async)`,
        `  ${agent} → submit_result (ok)`,
        `subagent ${agent} finished: done`,
        '  main → finish (ok)',
      ]),
    );

    const summary = run.stdout.split('\n');
    expect(summary.slice(0, 2)).toEqual([`task ${taskId}: done`, '  alpha is in']);
    expect(summary).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^turns: [23] \(main\)$/),
        'subagents:',
        expect.stringMatching(new RegExp(`^ {2}${agent}  async  done  1 turn, \\S+ in / \\S+ out  "part alpha"$`)),
        expect.stringMatching(/^tokens: \S+ in \/ \S+ out \(this run: \S+ in \/ \S+ out\)$/),
      ]),
    );
  });

  it('prints one JSON document and no progress with --json', async () => {
    const server = await serve(oneAsyncSubagent);
    const run = await runCli(['run', 'build part alpha', '--json', '--workspace', newWorkspace()], { env: modelEnv(server) });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const report = jsonOf<RunReport>(run);
    expect(report).toEqual({
      taskId: expect.stringMatching(/^task_/),
      outcome: { status: 'done', summary: 'alpha is in' },
      turns: expect.any(Number),
      subagents: [
        {
          assignmentId: expect.stringMatching(/^asg_/),
          agentId: expect.stringMatching(/^alpha-/),
          mode: 'async',
          status: 'done',
          assignment: 'part alpha',
          lastUpdate: null,
          resultStatus: 'done',
          turns: 1,
          tokens: { inputTokens: expect.any(Number), outputTokens: expect.any(Number) },
          updatedAt: expect.any(String),
        },
      ],
      tokens: { inputTokens: expect.any(Number), outputTokens: expect.any(Number) },
      tokensThisRun: report.tokens,
    });
    expect(report.tokens.inputTokens).toBeGreaterThan(0);
  });

  it('exits 2 with model_not_configured, naming the variables, when no model is set', async () => {
    const workspace = newWorkspace();
    const text = await runCli(['run', 'anything', '--workspace', workspace]);
    expect(text.code).toBe(2);
    expect(text.stderr).toMatch(/^error model_not_configured: no model is configured\. .*COWORK_MODEL_BASE_URL.*COWORK_MODEL.*COWORK_REPLAY=recording\.jsonl/);
    expect(text.stderr).toContain('hint: Set COWORK_MODEL_BASE_URL');
    expect(existsSync(workspace)).toBe(false);

    const json = await runCli(['run', 'anything', '--json', '--workspace', workspace], { env: { COWORK_MODEL: 'some-model' } });
    expect(json.code).toBe(2);
    expect(jsonOf<ErrorJson>(json).error).toMatchObject({ code: 'model_not_configured', missing: ['COWORK_MODEL_BASE_URL'] });
  });

  it('exits 6 while the task waits for the person, and --resume TASK --message finishes it', async () => {
    const server = await serve((body) => {
      const seen = texts(body).join('\n');
      if (seen.includes('blue, please')) return reply.toolCalls([{ name: 'finish', arguments: { summary: 'painted it blue' } }]);
      return reply.text('Which colour?');
    });
    const workspace = newWorkspace();
    const cli = workspaceCli(workspace, { env: modelEnv(server) });
    const first = await cli.run('run', 'paint the fence');
    expect(first.code).toBe(6);
    const taskId = /^task (\S+): waiting \(awaiting_user\); not finished$/m.exec(first.stdout)?.[1];
    expect(taskId).toBeDefined();
    expect(first.stdout).toContain("  Main's reply:\n    Which colour?\n");
    expect(first.stdout).toContain(`  continue with: cowork run --resume ${taskId} --message "<your answer>" --workspace ${workspace}\n`);

    const second = await cli.run('run', '--resume', taskId!, '--message', 'blue, please', '--json');
    expect(second.code).toBe(0);
    expect(jsonOf<RunReport>(second)).toMatchObject({ taskId, outcome: { status: 'done', summary: 'painted it blue' }, subagents: [] });
    // The person's message reached Main once, after its question.
    const last = texts(server.requests[server.requests.length - 1]!);
    expect(last.filter((t) => t.includes('blue, please'))).toHaveLength(1);
  });

  it('stops on Ctrl-C with exit 130, and the task resumes', async () => {
    let hang = true;
    let asked!: () => void;
    const mainAsked = new Promise<void>((resolveAsked) => (asked = resolveAsked));
    const server = await serve(() => {
      asked();
      return hang ? reply.hang() : reply.toolCalls([{ name: 'finish', arguments: { summary: 'done after all' } }]);
    });
    const cli = workspaceCli(newWorkspace(), { env: modelEnv(server) });
    const running = cli.run('run', 'a long think');
    await mainAsked;
    process.emit('SIGINT');
    const stopped = await running;
    expect(stopped.code).toBe(130);
    const taskId = /^task (\S+): interrupted; not finished, it can be resumed$/m.exec(stopped.stdout)?.[1];
    expect(taskId).toBeDefined();
    expect(stopped.stderr).toContain(`interrupted: task ${taskId} stopped; continue it with \`cowork run --resume ${taskId}`);
    expect(process.listenerCount('SIGINT')).toBe(0);

    hang = false;
    const resumed = await cli.json<RunReport>('run', '--resume', taskId!);
    expect(resumed.outcome).toEqual({ status: 'done', summary: 'done after all' });
  });

  it('checks its options before anything runs', async () => {
    const server = await serve(oneAsyncSubagent);
    const cli = workspaceCli(newWorkspace(), { env: modelEnv(server) });
    expect((await cli.run('run', 'x', '--message', 'hi', '--json')).code).toBe(2);
    expect((await cli.run('run', 'x', '--max-tokens', '0')).code).toBe(2);
    expect((await cli.run('run', '--resume', 'task_x', '--max-tokens', '10')).code).toBe(2);
    const unknown = await cli.run('run', '--resume', 'task_nope', '--json');
    expect({ code: unknown.code, error: jsonOf<ErrorJson>(unknown).error.code }).toEqual({ code: 4, error: 'not_found' });
    expect(server.requests).toHaveLength(0);
  });
});

describe('the cowork bin, killed mid-run', () => {
  const repoRoot = resolve(hostDir, '..', '..');

  beforeAll(requireCurrentBuild);

  it('resumes with `run --resume` after SIGKILL while a subagent reply is held', async () => {
    let holdSubagent = true;
    let subagentAsked!: () => void;
    const held = new Promise<void>((resolveHeld) => (subagentAsked = resolveHeld));
    const server = await serve(async (body) => {
      if (caller(body) !== 'main' && holdSubagent) {
        subagentAsked();
        return reply.hang();
      }
      return oneAsyncSubagent(body);
    });
    const workspace = newWorkspace();
    const env = { ...process.env, ...modelEnv(server) };
    delete env.COWORK_WORKSPACE;
    delete env.COWORK_PLUGINS;

    const first = spawnCowork(repoRoot, ['run', 'build part alpha', '--workspace', workspace], env);
    const taskId = (await first.stderrMatch(/^task (\S+) started/m))[1];
    await held;
    first.child.kill('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const left = await workspaceCli(workspace).json<{ status: string; assignments: { status: string }[] }>('task', taskId!);
    expect(left).toMatchObject({ status: 'running', assignments: [{ status: 'running' }] });

    holdSubagent = false;
    const second = spawnCowork(repoRoot, ['run', '--resume', taskId!, '--workspace', workspace], env);
    expect(await second.exited).toEqual({ code: 0, signal: null });
    expect(second.stdout()).toMatch(new RegExp(`^task ${taskId}: done\\n {2}alpha is in\\n`));
    expect(second.stderr()).toMatch(/^subagent alpha-\w+ started \(async\)$/m);

    const shown = await workspaceCli(workspace).json<{ status: string; assignments: { status: string }[]; gate: unknown[] }>('task', taskId!);
    expect(shown).toMatchObject({ status: 'done', assignments: [{ status: 'done' }], gate: [] });
  }, 60_000);
});

function spawnCowork(
  cwd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): {
  child: ReturnType<typeof spawn>;
  stdout: () => string;
  stderr: () => string;
  /** Resolves once stderr matches `pattern`. */
  stderrMatch: (pattern: RegExp) => Promise<RegExpExecArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
} {
  const child = spawn(process.execPath, ['packages/host/bin/cowork.js', ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) => child.on('close', (code, signal) => resolveExit({ code, signal })));
  const stderrMatch = (pattern: RegExp): Promise<RegExpExecArray> =>
    new Promise((resolveMatch, reject) => {
      const check = (): void => {
        const match = pattern.exec(stderr);
        if (match) {
          child.stderr.off('data', check);
          resolveMatch(match);
        }
      };
      child.stderr.on('data', check);
      void exited.then(() => reject(new Error(`cowork exited before stderr matched ${pattern}:\n${stderr}\n${stdout}`)));
      check();
    });
  return { child, stdout: () => stdout, stderr: () => stderr, stderrMatch, exited };
}
