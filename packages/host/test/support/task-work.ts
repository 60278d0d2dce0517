import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AgentRuntime } from '../../src/agents/runtime';
import { ensureTaskFolders, taskPaths } from '../../src/agents/task-files';
import type { Host } from '../../src/host';
import { OpenAiCompatibleProvider } from '../../src/models/openai-provider';
import { definePlugin, defineTool } from '../../src/plugins/define-plugin';
import type { RunRecord } from '../../src/store/run-records';
import { reply, startScriptedModelServer } from '../../src/testkit/scripted-model-server';
import { caller } from '../agents/runtime-harness';

/**
 * Tasks with real work for the HTTP and CLI tests of work files and runs: a task whose Main wrote
 * files turn by turn through the real runtime (a scripted model over HTTP, the runtime's own
 * snapshots of work/), and runs whose sandboxed jobs wrote metrics.jsonl (the real Runs service).
 */

/** A tool that writes a file of the calling task's work/ folder. */
export const filesProbe = definePlugin({
  name: 'files-probe',
  version: '1.0.0',
  tools: [
    defineTool<{ path: string; text: string }>({
      name: 'write_file',
      description: 'Writes a file of work/.',
      inputSchema: { type: 'object', properties: { path: { type: 'string' }, text: { type: 'string' } }, required: ['path', 'text'] },
      permissions: [],
      handler: async (input, context) => {
        const target = join(taskPaths(context.host.workspaceDir, context.taskId!).work, input.path);
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, input.text);
        return { content: `wrote ${input.path}` };
      },
    }),
  ],
});

/**
 * Starts a task on `host` (which must load `filesProbe`) whose Main writes one file per turn, then
 * replies "done" (the task waits for the person); answers the task's id once it waits.
 */
export async function runWritingTask(host: Host, writes: readonly (readonly [string, string])[], request = 'write some files'): Promise<string> {
  const server = await startScriptedModelServer((body) => {
    if (caller(body) !== 'main') return reply.text('?');
    const answered = body.messages.filter((m) => m.role === 'tool').length;
    if (answered < writes.length) {
      const [path, text] = writes[answered]!;
      return reply.toolCalls([{ id: `w${answered}`, name: 'write_file', arguments: { path, text } }]);
    }
    return reply.text('done');
  });
  const provider = new OpenAiCompatibleProvider({ baseUrl: server.baseUrl, model: 'scripted', maxRetries: 0, maxContextTokens: 32_000 });
  const runtime = new AgentRuntime({ host, provider, maxOutputTokens: 1000 });
  try {
    const taskId = await runtime.startTask(request);
    const result = await runtime.runTask(taskId);
    if (result.status !== 'waiting') throw new Error(`the writing task ended ${JSON.stringify(result)}`);
    return taskId;
  } finally {
    await runtime.close();
    await server.close();
  }
}

/** Records a task with its folders and no model (as the route fuzz does). */
export async function recordTask(host: Host, taskId: string, request = 'train a model'): Promise<string> {
  ensureTaskFolders(taskPaths(host.workspaceDir, taskId));
  await host.coordinator.record({ type: 'task.created', data: { taskId, request } });
  return taskId;
}

/** Waits until every job of the task has ended. */
export async function jobsEnded(host: Host, taskId: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const jobs = await host.jobs.list({ taskId });
    if (jobs.length > 0 && jobs.every((j) => j.status !== 'running')) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the jobs did not end');
}

/**
 * Starts a run through the real Runs service: a job sandboxed in the task's work folder (in its own
 * `cwd`, so runs do not share a metrics.jsonl) runs `script` with sh; answers the run once its
 * jobs ended and its metrics were read.
 */
export async function finishedRun(host: Host, taskId: string, run: { name: string; script: string; cwd: string; params?: Record<string, number | string>; goal?: { metric: string; direction: 'min' | 'max' } }): Promise<RunRecord> {
  const work = taskPaths(host.workspaceDir, taskId).work;
  mkdirSync(join(work, run.cwd), { recursive: true });
  const started = await host.runs.start({
    taskId,
    name: run.name,
    params: run.params,
    goal: run.goal,
    job: { command: 'sh', args: ['-c', run.script], cwd: run.cwd },
    sandbox: { workDir: work, create: true },
    operator: 'agent:main',
  });
  await jobsEnded(host, taskId);
  for (let i = 0; i < 200; i++) {
    const read = await host.runs.get(taskId, started.id);
    if (read.status !== 'running') return read;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`run ${started.id} did not finish`);
}
