import { asToolResult, defineTool, type Json } from '@cowork/host';
import { evaluateRound } from '../evaluation/evaluate-round';
import { prepareRound, readRound } from '../training/prepare';
import { serveCheckpoint } from '../training/serve';
import { syncRound } from '../training/sync';

/**
 * Prepares a round to train: writes its input and config, fixes its plan (draft → queued) and
 * answers the job to start. The plugin API gives tools no jobs, so the agent starts it with
 * `start_job` (a host job: supervised, it outlives the host) and follows it with trainer_sync_round.
 */
export const prepareRoundTool = defineTool<{ roundId: string }>({
  name: 'trainer_prepare_round',
  description:
    'Prepare a planned round to train: writes its training input and config under trainer/rounds/<id>/, moves it from draft to queued (its plan is then fixed), and returns {command, args, cwd, name}: start it with start_job, then call trainer_sync_round with the job id to record progress. Preparing again (after a crash) returns the same job, which resumes from its last checkpoint.',
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
  handler: (input, ctx) => asToolResult(async () => (await evaluateRound(ctx.host.resources, ctx.host.workspaceDir, ctx.operator, input)) as unknown as Json),
});
