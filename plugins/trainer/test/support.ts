import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isCoworkError, type Json } from '@cowork/host';
import { taskRunsApi, type Host } from '@cowork/host/embed';
import { openTempHost, type TempHost } from '@cowork/host/testkit';
import { plugin } from '../src/index';
import type { LoadedRun, RunRecordView } from '../src/run-record';

export type Msg =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; toolCalls?: { id: string; name: string; arguments: string }[] }
  | { role: 'tool'; toolCallId: string; content: string };

/** A run record in the runner's format, with a given conversation for Main. */
export function record(task: string, messages: readonly Msg[], options: { pass?: boolean; status?: 'scored' | 'invalid'; request?: string; suite?: string } = {}): RunRecordView & Record<string, unknown> {
  const pass = options.pass ?? true;
  const first = messages[0];
  return {
    format: 'cowork-bench-run/1', suite: options.suite ?? 'fixture', task, trial: 0,
    request: options.request ?? (first?.role === 'user' ? first.content : task), outcome: 'done', summary: null,
    entries: messages.map((message, i) => ({ agentId: 'main', turn: i + 1, message: message as unknown as Json, at: '2026-01-01T00:00:00Z' })),
    tokens: { input: 0, output: 0 }, budget: { tokens: null, turns: null, seconds: null }, startedAt: '', endedAt: '', resources: {},
    status: options.status ?? 'scored',
    items: options.status === 'invalid' ? [] : [{ id: 'ok', points: 2, earned: pass ? 2 : 0, pass }],
  };
}

export function loaded(r: RunRecordView, split: LoadedRun['split'] = 'dev'): LoadedRun {
  return { source: `records/${r.task}.0.json`, split, record: r };
}

/** A read_resource call, its result and a final answer. */
export function readAndAnswer(request: string, answer: string, args = '{"resourceId":"res_1"}', name = 'read_resource'): Msg[] {
  return [
    { role: 'user', content: request },
    { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name, arguments: args }] },
    { role: 'tool', toolCallId: 'c1', content: '{"revision":0,"content":{"text":"port = 4242\\n"}}' },
    { role: 'assistant', content: answer },
  ];
}

/** Writes records as a run folder (results.json with splits, records/). */
export function writeRunFolder(dir: string, records: readonly (RunRecordView & Record<string, unknown>)[], splits: Record<string, 'dev' | 'heldout'> = {}): void {
  mkdirSync(join(dir, 'records'), { recursive: true });
  for (const r of records) writeFileSync(join(dir, 'records', `${r.task}.0.json`), JSON.stringify(r));
  writeFileSync(join(dir, 'results.json'), JSON.stringify({ format: 'cowork-bench-results/1', trials: records.map((r) => ({ task: r.task, split: splits[r.task] ?? 'dev' })) }));
}

export async function trainerHost(): Promise<TempHost> {
  return openTempHost({ plugins: [plugin], prefix: 'trainer-test-' });
}

export const PERSON = 'human:ann' as const;

/** Calls a plugin tool as the host's tool loop would, as a person. */
export async function callTool(host: Host, name: string, input: unknown, options: { taskId?: string } = {}): Promise<{ content: Json; isError?: boolean }> {
  const registered = host.registry.tool(name);
  if (!registered) throw new Error(`no tool ${name}`);
  // With a task, the call records the task's runs as an agent's would.
  const runs = options.taskId === undefined ? undefined : taskRunsApi(host.runs, { taskId: options.taskId, operator: PERSON });
  const result = await registered.tool.handler(input as never, { operator: PERSON, signal: new AbortController().signal, host: { workspaceDir: host.workspaceDir, resources: host.resources, runs } });
  return result as { content: Json; isError?: boolean };
}

export async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean, what: string, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A smoke checkpoint through the plugin's own path: generate, collect, filter, plan, prepare, the
 * training job (a few dozen steps), sync. Answers the checkpoint's id and hash.
 */
export async function smokeCheckpoint(host: TempHost, steps = 24): Promise<{ id: string; hash: string }> {
  const call = async (name: string, input: unknown) => (await callTool(host, name, input)).content as Record<string, Json>;
  await call('trainer_generate', { family: 'read_value', split: 'train', count: 24, seed: 1, out: 'runs/train' });
  const { datasetId } = (await call('trainer_collect', { runs: ['runs/train'] })) as { datasetId: string };
  await call('trainer_filter', { datasetId });
  const { roundId } = (await call('trainer_plan_round', { name: 'smoke', datasetId, settings: { steps, batch: 8, lr: 0.003 } })) as { roundId: string };
  const spec = (await call('trainer_prepare_round', { roundId })).job as unknown as { command: string; args: string[]; cwd: string; name: string };
  const job = await host.jobs.start(spec);
  const ended = await until(() => host.jobs.get(job.id), (j) => j.status !== 'running', 'the training job to end', 120_000);
  if (ended.status !== 'succeeded') throw new Error(`the smoke training job ${ended.status}: ${JSON.stringify(await host.jobs.logs(job.id))}`);
  const done = await call('trainer_sync_round', { roundId, jobId: job.id });
  return done.checkpoint as { id: string; hash: string };
}

/** Runs Python code with the plugin's python/ folder on the path (Debian's torch), stdin given; its stdout. */
export function py(code: string, input: string): string {
  const result = spawnSync('/usr/bin/python3', ['-c', `import sys; sys.path.insert(0, ${JSON.stringify(join(__dirname, '..', 'python'))})\n${code}`], { input, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr);
  return result.stdout;
}

/** The coded error a promise rejects with (its code, message and details); throws when it resolves. */
export async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string; details: Record<string, unknown> }> {
  try {
    await promise;
  } catch (error) {
    if (isCoworkError(error)) return { code: error.code, message: error.message, details: error.details as Record<string, unknown> };
    throw error;
  }
  throw new Error('expected a failure');
}
