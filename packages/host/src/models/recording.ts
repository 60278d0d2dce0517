import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { CoworkError, isCoworkError, isErrorCode } from '../errors';
import { isPlainObject } from '../util/json';
import {
  RECORDING_VERSION,
  canonicalRequest,
  firstDifference,
  requestHash,
  type RecordedTurn,
} from './recording-format';
import type { ModelProvider, ModelRequest, ModelResponse } from './types';

/**
 * Wraps a provider and appends every turn to a JSON Lines file as it completes, so the session can
 * be replayed later with no model server. Coded errors (`model_unavailable`, ...) are recorded too,
 * since they steered the session; an abort is not, since it is not the model's answer.
 *
 * The file is appended to, never truncated: use a fresh path per session.
 */
export class RecordingProvider implements ModelProvider {
  readonly name: string;
  readonly maxContextTokens: number;
  readonly model: string | undefined;
  private turn = 0;

  constructor(
    private readonly inner: ModelProvider,
    private readonly path: string,
  ) {
    this.name = inner.name;
    this.maxContextTokens = inner.maxContextTokens;
    this.model = inner.model;
    mkdirSync(dirname(path), { recursive: true });
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    const turn = this.turn++;
    const recorded = canonicalRequest(request);
    const line: RecordedTurn = {
      v: RECORDING_VERSION,
      turn,
      provider: this.inner.name,
      maxContextTokens: this.inner.maxContextTokens,
      requestHash: requestHash(recorded),
      request: recorded,
    };
    try {
      const response = await this.inner.complete(request);
      this.append({ ...line, response });
      return response;
    } catch (error) {
      if (isCoworkError(error)) this.append({ ...line, error: { code: error.code, message: error.message, details: error.details } });
      throw error;
    }
  }

  private append(line: RecordedTurn): void {
    appendFileSync(this.path, `${JSON.stringify(line)}\n`);
  }
}

export interface ReplayOptions {
  /** Check each request against the recording (default true). */
  strict?: boolean;
  /** Overrides the context window recorded with the first turn. */
  maxContextTokens?: number;
}

/**
 * Plays a recording back: each call returns the recorded response (or throws the recorded error),
 * exactly as recorded, latency and usage included.
 *
 * Strict (the default): a request must match a recorded one that has not been played yet (same
 * messages and tools); the earliest such turn is played, so agents that call in parallel still
 * replay. Any other request, or one past the end, throws `replay_mismatch`. Not strict: turns are
 * played in recorded order whatever is asked.
 */
export class ReplayProvider implements ModelProvider {
  readonly name = 'replay';
  readonly maxContextTokens: number;
  /** The model the recording was made with, for the tokenizer. */
  readonly model: string | undefined;
  private readonly turns: RecordedTurn[];
  private readonly played: boolean[];
  private readonly strict: boolean;

  constructor(
    private readonly path: string,
    options: ReplayOptions = {},
  ) {
    this.turns = readRecording(path);
    this.played = this.turns.map(() => false);
    this.strict = options.strict ?? true;
    this.maxContextTokens = options.maxContextTokens ?? this.turns[0]?.maxContextTokens ?? 128_000;
    this.model = this.turns.find((turn) => turn.response)?.response?.model;
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    if (request.signal?.aborted) throw request.signal.reason;
    const index = this.pick(request);
    this.played[index] = true;
    const turn = this.turns[index]!;
    if (turn.error !== undefined) {
      const code = isErrorCode(turn.error.code) ? turn.error.code : 'internal';
      throw new CoworkError(code, turn.error.message, turn.error.details);
    }
    return structuredClone(turn.response!);
  }

  private pick(request: ModelRequest): number {
    const next = this.played.indexOf(false);
    if (next === -1) {
      throw new CoworkError('replay_mismatch', `the recording ${this.path} has no turn left (${this.turns.length} recorded)`, {
        path: this.path,
        recordedTurns: this.turns.length,
      });
    }
    if (!this.strict) return next;
    const actual = canonicalRequest(request);
    const hash = requestHash(actual);
    const match = this.turns.findIndex((turn, i) => !this.played[i] && turn.requestHash === hash);
    if (match !== -1) return match;
    const expected = this.turns[next]!;
    const where = firstDifference(expected.request, actual);
    throw new CoworkError('replay_mismatch', `request differs from recorded turn ${expected.turn} of ${this.path} at ${where}`, {
      path: this.path,
      turn: expected.turn,
      firstDifference: where,
      recordedHash: expected.requestHash,
      actualHash: hash,
    });
  }
}

/**
 * Reads a recording. A last line without its newline is a write torn by a crash and is skipped;
 * any other bad line is an error naming the line.
 */
function readRecording(path: string): RecordedTurn[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CoworkError('invalid_input', `cannot read the model recording ${path}`, { path }, { cause: error });
  }
  const lines = text.split('\n');
  const torn = lines.pop();
  const turns: RecordedTurn[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const turn = parseTurn(line);
    if (turn === undefined) {
      throw new CoworkError('invalid_input', `line ${index + 1} of the model recording ${path} is not a recorded turn`, {
        path,
        line: index + 1,
      });
    }
    turns.push(turn);
  });
  if (torn !== undefined && torn.trim() !== '') {
    const turn = parseTurn(torn);
    if (turn !== undefined) turns.push(turn);
  }
  return turns;
}

function parseTurn(line: string): RecordedTurn | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isPlainObject(value) || value.v !== RECORDING_VERSION || typeof value.requestHash !== 'string') return undefined;
  if (!isPlainObject(value.request) || (!isPlainObject(value.response) && !isPlainObject(value.error))) return undefined;
  return value as unknown as RecordedTurn;
}
