import { countTokens } from 'gpt-tokenizer';
import { renderSample } from './chat-template';
import type { ChatSample } from './sample';

/**
 * Token counters for the token-share report. `o200k_base` is a standard tokenizer (gpt-tokenizer,
 * offline), for figures comparable with other work; `bytes` is the trainer's own model's
 * tokenizer (UTF-8 bytes), for what a round actually trains on.
 */
export interface TokenCounter {
  readonly name: string;
  count(text: string): number;
}

const NO_SPECIALS = { disallowedSpecial: new Set<string>() };

/** Text is counted as plain text: a `<|...|>` someone typed is not a special token. */
export const o200kCounter: TokenCounter = { name: 'o200k_base', count: (text) => countTokens(text, NO_SPECIALS) };
export const byteCounter: TokenCounter = { name: 'bytes', count: (text) => Buffer.byteLength(text, 'utf8') };

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
