import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ResourceApi } from '@cowork/host';
import { trainerError } from '../errors';
import type { CheckpointContent } from '../kinds/checkpoint-kind';
import type { JobSpec } from './prepare';
import { PYTHON, serveScript, threadEnv } from './script';
import { readOfKind } from '../read-of-kind';

export interface ServeOptions {
  readonly port?: number;
  readonly maxTokens?: number;
  readonly modelName?: string;
}

export interface ServeSpec {
  readonly job: JobSpec;
  readonly baseUrl: string;
  readonly model: string;
}

export const DEFAULT_SERVE_PORT = 8765;

/**
 * The job that serves a checkpoint behind an OpenAI-compatible /v1/chat/completions
 * (python/serve.py): its file, checked against the checkpoint's hash before it listens.
 */
export async function serveCheckpoint(resources: ResourceApi, workspaceDir: string, checkpointId: string, options: ServeOptions = {}): Promise<ServeSpec> {
  const { content: checkpoint } = await readOfKind<CheckpointContent>(resources, checkpointId, 'trainer.checkpoint', 'the checkpoint');
  const file = join(workspaceDir, checkpoint.file);
  if (!existsSync(file)) throw trainerError('missing_data_file', `the checkpoint's weights ${checkpoint.file} are missing`, { resourceId: checkpointId, file: checkpoint.file });
  const port = options.port ?? DEFAULT_SERVE_PORT;
  const model = options.modelName ?? `trainer-${checkpointId}`;
  const args = [serveScript(), '--checkpoint', file, '--sha256', checkpoint.hash, '--port', String(port), '--model-name', model];
  if (options.maxTokens !== undefined) args.push('--max-tokens', String(options.maxTokens));
  return {
    job: { command: PYTHON, args, cwd: join('trainer', 'checkpoints'), name: `serve ${checkpointId}`, env: threadEnv(1) }, // serve.py's one thread
    baseUrl: `http://127.0.0.1:${port}/v1`,
    model,
  };
}
