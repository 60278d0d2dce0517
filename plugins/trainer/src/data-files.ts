import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '@cowork/host';
import { trainerError } from './errors';
import { sha256 } from './hash';
import type { ChatSample } from './sample';

/**
 * Sample files in the workspace, named by the SHA-256 of their text (`trainer/pools/<hash>.jsonl`
 * for collected samples, `trainer/datasets/<hash>.jsonl` for filtered ones). Each is written whole
 * (atomic, fsynced) before the commit that names it, so a dataset never refers to half a file; a
 * file whose commit failed stays behind unreferenced, and an equal file is simply rewritten.
 */
export interface DataFile {
  /** Relative to the workspace. */
  readonly file: string;
  readonly hash: string;
  readonly samples: number;
}

export function writeSamples(workspaceDir: string, area: 'pools' | 'datasets', samples: readonly ChatSample[]): DataFile {
  const text = samples.map((s) => JSON.stringify(s)).join('\n') + '\n';
  const hash = sha256(text);
  const file = join('trainer', area, `${hash}.jsonl`);
  const path = join(workspaceDir, file);
  mkdirSync(dirname(path), { recursive: true });
  if (!existsSync(path)) writeFileAtomic(path, text);
  return { file, hash, samples: samples.length };
}

/** Reads a sample file back and checks it still has the hash its dataset recorded. */
export function readSamples(workspaceDir: string, data: DataFile): ChatSample[] {
  let text: string;
  try {
    text = readFileSync(join(workspaceDir, data.file), 'utf8');
  } catch {
    throw trainerError('missing_data_file', `the sample file ${data.file} is missing from the workspace`, { file: data.file });
  }
  if (sha256(text) !== data.hash) throw trainerError('missing_data_file', `the sample file ${data.file} no longer has hash ${data.hash}`, { file: data.file });
  return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as ChatSample);
}
