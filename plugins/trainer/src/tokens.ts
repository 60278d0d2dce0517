import { countTokens } from 'gpt-tokenizer';
import { renderSample } from './chat-template';
import type { ChatSample } from './sample';

/**
 * Token counters for the token-share report. `o200k_base` is a standard tokenizer (gpt-tokenizer,
 * offline), for figures comparable with other work; `pieces` is the trainer's own model's
 * tokenizer (python/pieces.py), for what a round actually trains on.
 */
export interface TokenCounter {
  readonly name: string;
  count(text: string): number;
}

const NO_SPECIALS = { disallowedSpecial: new Set<string>() };

/** Text is counted as plain text: a `<|...|>` someone typed is not a special token. */
export const o200kCounter: TokenCounter = { name: 'o200k_base', count: (text) => countTokens(text, NO_SPECIALS) };

/**
 * The trainer model's pieces, as python/pieces.py splits text: a `<|marker|>` (one piece, as the
 * model reads it), a JSON escape, a run of letters, digits and underscores, or one other character.
 * The `u` flag makes "one character" a code point, as a Python string's is.
 */
const PIECE = /<\|[a-z]+\|>|\\u[0-9a-fA-F]{4}|\\.|[A-Za-z0-9_]+|\s|./gsu;

export function splitPieces(text: string): string[] {
  return text.match(PIECE) ?? [];
}

export const pieceCounter: TokenCounter = { name: 'pieces', count: (text) => splitPieces(text).length };

export interface SampleTokens {
  /** Tokens the loss falls on (the assistant's turns). */
  readonly supervised: number;
  readonly total: number;
}

export function sampleTokens(sample: Pick<ChatSample, 'messages'>, counter: TokenCounter): SampleTokens {
  let supervised = 0;
  let total = 0;
  for (const segment of renderSample(sample)) {
    const n = counter.count(segment.text);
    total += n;
    if (segment.train) supervised += n;
  }
  return { supervised, total };
}
