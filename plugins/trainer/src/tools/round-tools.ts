import { asToolResult, defineTool, type Json, type ToolContext, type ToolRunsApi } from '@cowork/host';
import { trainerError } from '../errors';
import { evaluateRound } from '../evaluation/evaluate-round';
import type { RoundEvaluation } from '../kinds/round-kind';
import { prepareRound, readRound } from '../training/prepare';
import { serveCheckpoint } from '../training/serve';
import { syncRound } from '../training/sync';

/**
 * Prepares a round to train: writes its input and config, fixes its plan (draft → queued) and
 * answers the job to start, for a person who starts it themselves (`cowork jobs start`); an agent
 * uses trainer_start_round, which starts it as a run of its task.
 */
export const prepareRoundTool = defineTool<{ roundId: string }>({
  name: 'trainer_prepare_round',
  description:
    'Prepare a planned round to train without starting it: writes its training input and config under trainer/rounds/<id>/, moves it from draft to queued (its plan is then fixed), and returns {command, args, cwd (relative to the workspace), name} for a person to run (cowork jobs start). To train it yourself use trainer_start_round.',
  inputSchema: { type: 'object', properties: { roundId: { type: 'string' } }, required: ['roundId'], additionalProperties: false },
  permissions: [{ access: 'commit' }, { access: 'read' }],
  handler: (input, ctx) =>
    asToolResult(async () => {
      const job = await prepareRound(ctx.host.resources, ctx.host.workspaceDir, input.roundId);
      const { revision, content } = await readRound(ctx.host.resources, input.roundId);
      if (content.status === 'draft') await ctx.host.resources.commit(input.roundId, { baseRevision: revision, op: { type: 'set_status', status: 'queued' }, operator: ctx.operator });
      return { roundId: input.roundId, job: job as unknown as Json };
    }),
});

function taskRuns(ctx: ToolContext, tool: string): ToolRunsApi {
  if (ctx.host.runs === undefined) throw trainerError('no_task', `${tool} records a run of your task: the call carries no task (a person runs trainer_prepare_round's job with cowork jobs start)`, {});
  return ctx.host.runs;
}

type RunView = { id: string; status: string; jobIds: string[]; params: { round?: string } };

/**
 * Prepares a round and starts its training job as a run of the calling task (the host supervises
 * it, it outlives the host; its loss and throughput are the run's metrics and in Main's digest),
 * then marks the round running with that job. While the round's run is running, calling again
 * answers it; after its job ended without a checkpoint (killed, failed), a new run's job resumes
 * from the round's last saved state. The n-th attempt's key is the round and n, so a call repeated
 * after a crash finds the job it started.
 */
export const startRoundTool = defineTool<{ roundId: string }>({
  name: 'trainer_start_round',
  description:
    "Train a planned round: writes its training input and config under trainer/rounds/<id>/, fixes its plan, starts the training job as a run of your task (loss and tokensPerSecond are its metrics; see list_runs and run_status) and marks the round running. Returns {roundId, runId, jobId, status}. While it runs, calling again answers the same run; call trainer_sync_round while it runs and after it ends to record progress and make the checkpoint. If its job ended without a checkpoint (killed, failed), calling again starts a new run that resumes from the last saved step.",
  inputSchema: { type: 'object', properties: { roundId: { type: 'string' } }, required: ['roundId'], additionalProperties: false },
  permissions: [{ access: 'commit' }, { access: 'read' }],
  handler: (input, ctx) =>
    asToolResult(async () => {
      const runs = taskRuns(ctx, 'trainer_start_round');
      const { roundId } = input;
      const { content: before } = await readRound(ctx.host.resources, roundId);
      const attempts = ((await runs.list()) as RunView[]).filter((r) => r.params?.round === roundId);
      const live = attempts.find((r) => r.status === 'running') ?? (before.status === 'succeeded' ? attempts[0] : undefined);
      if (live !== undefined) return { roundId, runId: live.id, jobId: live.jobIds[0] ?? null, status: before.status };
      const job = await prepareRound(ctx.host.resources, ctx.host.workspaceDir, roundId);
      const { content: round } = await readRound(ctx.host.resources, roundId);
      const params = { round: roundId, parent: round.parent as unknown as Json, dataset: round.dataset as unknown as Json, ...round.settings } as Json;
      const run = (await runs.startJob({
        name: job.name,
        params,
        goal: { metric: 'loss', direction: 'min' },
        job: { ...job, env: job.env === undefined ? undefined : { ...job.env } },
        metricsFile: 'out/metrics.jsonl',
        idempotencyKey: `trainer_start_round:${roundId}:${attempts.length}`,
      })) as RunView;
      const jobId = run.jobIds[0]!;
      const sync = await syncRound(ctx.host.resources, ctx.host.workspaceDir, roundId, ctx.operator, jobId);
      return { roundId, runId: run.id, jobId, status: sync.status };
    }),
});

/** Records a round's progress from its job's output; on completion, creates its checkpoint. */
export const syncRoundTool = defineTool<{ roundId: string; jobId?: string }>({
  name: 'trainer_sync_round',
  description:
    "Record a training round's progress from its job's output: marks it running with jobId, records loss and throughput for steps not yet recorded, and when training finished creates the trainer.checkpoint (hash, parent, data, steps, tokenizer) and marks the round succeeded. Safe to call repeatedly; call it after the job ends too. A job that failed for good: set the round's status to failed with commit_resource.",
  inputSchema: { type: 'object', properties: { roundId: { type: 'string' }, jobId: { type: 'string' } }, required: ['roundId'], additionalProperties: false },
  permissions: [{ access: 'commit' }, { access: 'read' }],
  handler: (input, ctx) => asToolResult(async () => (await syncRound(ctx.host.resources, ctx.host.workspaceDir, input.roundId, ctx.operator, input.jobId)) as unknown as Json),
});

/** The job that serves a checkpoint behind /v1/chat/completions (python/serve.py). */
export const serveCheckpointTool = defineTool<{ checkpointId: string; port?: number; maxTokens?: number; modelName?: string }>({
  name: 'trainer_serve_checkpoint',
  description:
    "Answer the job that serves a trainer.checkpoint behind an OpenAI-compatible API (POST /v1/chat/completions with tool calls, GET /v1/models) on 127.0.0.1:port (default 8765), plus its baseUrl and model name: start it with start_job, then point a model provider (COWORK_MODEL_BASE_URL) at baseUrl. The server checks the weights' hash and exits non-zero, with the reason in its log, when the checkpoint does not load.",
  inputSchema: {
    type: 'object',
    properties: {
      checkpointId: { type: 'string' },
      port: { type: 'integer', minimum: 1, maximum: 65535 },
      maxTokens: { type: 'integer', minimum: 1, maximum: 4096 },
      modelName: { type: 'string', minLength: 1 },
    },
    required: ['checkpointId'],
    additionalProperties: false,
  },
  permissions: [{ access: 'read' }],
  handler: (input, ctx) => asToolResult(async () => (await serveCheckpoint(ctx.host.resources, ctx.host.workspaceDir, input.checkpointId, input)) as unknown as Json),
});

/** Scores a round's held-out benchmark run, compares it with other rounds, and writes its report. */
export const evaluateRoundTool = defineTool<{ roundId: string; run: string; compare?: Record<string, string> }>({
  name: 'trainer_evaluate_round',
  description:
    "Record a succeeded round's held-out evaluation: run is the folder a benchmark run of its served checkpoint wrote (cowork bench run trainer-families --split heldout, with the model pointed at trainer_serve_checkpoint's baseUrl), relative to the workspace. Scores each task family (all-pass rate with a 95% bootstrap interval over tasks, rubric score), the differences from the rounds in compare ({\"parent\": roundId, \"control\": roundId}, each evaluated already), writes the report page trainer/reports/<roundId>.html and records both on the round.",
  inputSchema: {
    type: 'object',
    properties: {
      roundId: { type: 'string' },
      run: { type: 'string', minLength: 1 },
      compare: { type: 'object', additionalProperties: { type: 'string', minLength: 1 } },
    },
    required: ['roundId', 'run'],
    additionalProperties: false,
  },
  permissions: [{ access: 'commit' }, { access: 'read' }],
  handler: (input, ctx) =>
    asToolResult(async () => {
      const evaluation = await evaluateRound(ctx.host.resources, ctx.host.workspaceDir, ctx.operator, input);
      const run = ctx.host.runs === undefined ? null : await recordEvaluationRun(ctx.host.runs, input.roundId, evaluation, ctx.idempotencyKey);
      return { ...evaluation, runId: run } as unknown as Json;
    }),
});

/** A metric name from a family's (letters, digits and `_ . - / :` only). */
const metricName = (text: string): string => text.replace(/[^A-Za-z0-9_.\-/:]/g, '_').slice(0, 48);

/** The held-out evaluation as a finished run of the task: all-pass rate and rubric score, overall and per family. */
async function recordEvaluationRun(runs: ToolRunsApi, roundId: string, evaluation: RoundEvaluation & { report: string }, key: string | undefined): Promise<string> {
  const figures: Record<string, number> = { all_pass: evaluation.overall.rate, rubric: evaluation.overall.score, invalid: evaluation.overall.invalid };
  for (const family of evaluation.families) {
    figures[`all_pass/${metricName(family.family)}`] = family.rate;
    figures[`rubric/${metricName(family.family)}`] = family.score;
  }
  const run = (await runs.recordResult({
    name: `evaluate ${roundId}`,
    params: { round: roundId, run: evaluation.run, suite: evaluation.suite, model: evaluation.model, report: evaluation.report },
    goal: { metric: 'all_pass', direction: 'max' },
    metrics: [figures],
    idempotencyKey: key === undefined ? undefined : `${key}:${roundId}`,
  })) as { id: string };
  return run.id;
}
