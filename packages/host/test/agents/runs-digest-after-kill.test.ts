/**
 * Invariant (issue 17): a job started with start_run that writes metrics gives its run those
 * metrics, and Main's next context shows them in the runs digest ("Runtime state"). After a SIGKILL
 * of the host while Main's following model turn is in flight, and a resume in a new process, Main's
 * first request carries the same digest, byte for byte, and the workspace holds exactly one run
 * (the resumed turn does not start the run again).
 *
 * The host runs in a child process (crash/run-child.ts); the scripted model is served from this
 * process, so every request body Main sends is seen here.
 */
import type { WireChatRequest } from '../../src/models/wire';
import { reply, startScriptedModelServer, type ScriptStep } from '../../src/testkit/scripted-model-server';
import { checkReopened } from '../support/reopened-host';
import { tempDir } from '../support/temp-host';
import { caller, texts } from './runtime-harness';
import { spawnHost, until } from './crash/spawn-host';


/** Two metrics.jsonl lines, then the job exits. */
const METRICS = 'printf \'{"step":1,"loss":0.5,"acc":0.7}\\n{"step":2,"loss":0.25,"acc":0.8}\\n\' >> metrics.jsonl';



/**
 * The runs digest as Main's request carries it: the end of the "## Runtime state" section, from its
 * `Runs (` line (the digest's head when the task has runs). Undefined when the request has none.
 */
function digestOf(body: WireChatRequest): string | undefined {
  for (const text of texts(body)) {
    const at = text.indexOf('## Runtime state\n');
    if (at < 0) continue;
    const rest = text.slice(at + '## Runtime state\n'.length);
    const end = rest.indexOf('\n\n## ');
    const section = end < 0 ? rest : rest.slice(0, end);
    const head = section.search(/^Runs \(/m);
    return head < 0 ? undefined : section.slice(head).trimEnd();
  }
  return undefined;
}

/** The digest once the run has ended with both metrics lines read. */
const complete = (digest: string | undefined): digest is string => digest !== undefined && / succeeded; /.test(digest) && digest.includes('loss 0.25 @2');

describe('the runs digest across SIGKILL and --resume', () => {
  it('is byte-identical in Main\'s first request after resume, holds the metrics, and the workspace has one run', async () => {
    const dir = tempDir();
    let resumed = false;
    /** Main's request that first showed the finished run, and the one after it (held, in flight at the kill). */
    let shown: { index: number; digest: string } | undefined;
    let held: { index: number; digest: string | undefined } | undefined;
    let afterResume: { index: number; digest: string | undefined } | undefined;
    const script = async (body: WireChatRequest, index: number): Promise<ScriptStep> => {
      if (caller(body) !== 'main') return reply.text('?');
      const digest = digestOf(body);
      if (resumed) {
        afterResume ??= { index, digest };
        return reply.toolCalls([{ name: 'finish', arguments: { summary: 'baseline measured' } }]);
      }
      if (!body.messages.some((m) => m.role === 'tool')) {
        return reply.toolCalls([{ id: 'run1', name: 'start_run', arguments: { name: 'baseline', params: { lr: 0.1 }, command: 'sh', args: ['-c', METRICS] } }]);
      }
      if (shown === undefined) {
        if (complete(digest)) {
          shown = { index, digest };
          return reply.toolCalls([{ name: 'list_runs', arguments: {} }]);
        }
        // The job has not ended (or its lines are not read) yet: another turn, a little later.
        return reply.delayed(50, reply.toolCalls([{ name: 'list_runs', arguments: {} }]));
      }
      held ??= { index, digest };
      return reply.hang();
    };
    const server = await startScriptedModelServer(script);
    try {
      const first = spawnHost([dir.path, server.baseUrl], { HOLD_MS: '0' });
      await until(() => first.lines.some((l) => l.startsWith('task ')), 'the task id');
      const taskId = first.lines.find((l) => l.startsWith('task '))!.slice(5);
      await until(() => held !== undefined, "Main's turn after the digest to be in flight");
      first.proc.kill('SIGKILL');
      expect(await first.exited).toBeNull();

      resumed = true;
      const second = spawnHost([dir.path, server.baseUrl, taskId], { HOLD_MS: '0' });
      expect(await second.exited).toBe(0);
      expect(second.lines.find((l) => l.startsWith('result '))).toBe('result {"status":"done","summary":"baseline measured"}');

      expect(shown).toBeDefined();
      expect(afterResume).toBeDefined();
      const before = shown!.digest;
      // The held turn (in flight at the kill) showed the same digest.
      expect(held!.digest).toBe(before);
      // Main's first request after resume: the same digest, byte for byte.
      expect(afterResume!.index).toBeGreaterThan(held!.index);
      expect(afterResume!.digest).toBe(before);

      await checkReopened(
        dir.path,
        async (check) => {
          // Exactly one run (and one job): the resumed turn did not start it again.
          const runs = await check.store.read((tx) => tx.runs.list(taskId));
          expect(runs).toHaveLength(1);
          const run = runs[0]!;
          expect(run).toMatchObject({ name: 'baseline', status: 'succeeded', params: { lr: 0.1 }, problemCount: 0 });
          expect(run.metrics.loss).toEqual({ last: 0.25, lastStep: 2, best: 0.25, bestStep: 2, direction: 'min', count: 2 });
          expect(run.metrics.acc).toEqual({ last: 0.8, lastStep: 2, best: 0.8, bestStep: 2, direction: 'max', count: 2 });
          expect(await check.jobs.list({ taskId })).toHaveLength(1);
          // The digest carries the metrics: the whole text, as Main saw it before and after the kill.
          expect(before).toBe(
            [
              'Runs (1, newest first):',
              `- "baseline" (${run.id}) succeeded; acc 0.8 @2 (best 0.8 @2, max), loss 0.25 @2 (best 0.25 @2, min)`,
              `Best: acc 0.8 (max) in "baseline" (${run.id}); loss 0.25 (min) in "baseline" (${run.id})`,
            ].join('\n'),
          );
          expect(check.coordinator.current.tasks[taskId]!.status).toBe('done');
        },
        { pollMonitors: false },
      );
    } finally {
      await server.close();
      dir.cleanup();
    }
  }, 90_000);
});
