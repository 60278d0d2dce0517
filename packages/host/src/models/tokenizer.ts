import type { ChatMessage, ToolSpec } from './types';

/**
 * Token counts with a real BPE tokenizer (`gpt-tokenizer`, which ships its vocabularies), for the
 * context builder, the budgets, and usage when a server reports none.
 *
 * The encoding follows the configured model's family (COWORK_MODEL): `o200k_base` for gpt-4o,
 * gpt-4.1, gpt-4.5, gpt-5, the o-series and gpt-oss; `cl100k_base` for gpt-3.5 and gpt-4, and for
 * every other name (open models served by vLLM, llama.cpp and the like have their own tokenizers,
 * which the host does not ship; cl100k is a documented stand-in that is within about 10-20% of them
 * on English text and code, much closer than characters divided by four on CJK text or numbers).
 *
 * Chat framing follows OpenAI's published rule: 3 tokens a message plus its role, 3 to prime the
 * reply. How tool calls and tool definitions are framed is not published, so they are counted as
 * the text sent on the wire (call name, id and arguments; each definition's JSON) plus a few tokens
 * each, which errs high rather than low.
 */
export type TokenEncodingName = 'o200k_base' | 'cl100k_base';

export interface Tokenizer {
  readonly encoding: TokenEncodingName | 'chars/4';
  /** Tokens of a plain text. */
  countText(text: string): number;
  /** Tokens one message takes in a chat request, framing included. */
  countMessage(message: ChatMessage): number;
  /** Tokens a list of messages takes in a request: the messages and the reply priming. */
  countMessages(messages: readonly ChatMessage[]): number;
  /** Tokens the tool definitions sent with a request take (0 for none). */
  countTools(tools: readonly ToolSpec[]): number;
}

/** Framing tokens of one chat message (`<|start|>role<|message|>…<|end|>` less the role). */
export const MESSAGE_OVERHEAD_TOKENS = 3;
/** Tokens that prime the assistant's reply at the end of every request. */
export const REPLY_PRIMING_TOKENS = 3;
/** Framing counted for each tool call and each tool definition (errs high). */
const TOOL_OVERHEAD_TOKENS = 3;
/** Tokens around the whole tools section of a request. */
const TOOLS_SECTION_TOKENS = 12;

const O200K_MODEL = /^(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|o1|o3|o4|codex)/;

/**
 * The encoding for a model name. The family is read from the name after any provider prefix
 * (`openai/gpt-4o` is gpt-4o); unknown names and no name get `cl100k_base`.
 */
export function encodingForModel(model: string | null | undefined): TokenEncodingName {
  const name = (model ?? '').trim().toLowerCase().split('/').pop() ?? '';
  return O200K_MODEL.test(name) ? 'o200k_base' : 'cl100k_base';
}

interface Encoding {
  countTokens(text: string, options: { disallowedSpecial: Set<string> }): number;
}

/** User text may contain `<|endoftext|>` and the like: count it as plain text, never throw. */
const PLAIN = { disallowedSpecial: new Set<string>() };

const encodings = new Map<TokenEncodingName, Encoding>();

/** Loads an encoding on first use (o200k takes about 0.3 s, cl100k about 0.1 s). */
function loadEncoding(name: TokenEncodingName): Encoding {
  let encoding = encodings.get(name);
  if (!encoding) {
    /* eslint-disable @typescript-eslint/no-require-imports */
    encoding = (name === 'o200k_base' ? require('gpt-tokenizer/encoding/o200k_base') : require('gpt-tokenizer/encoding/cl100k_base')) as Encoding;
    /* eslint-enable @typescript-eslint/no-require-imports */
    encodings.set(name, encoding);
  }
  return encoding;
}

/** At most this many characters of text are kept as cache keys per encoding (oldest go first). */
const CACHE_MAX_CHARS = 32_000_000;
/** What an entry costs beyond its characters, in characters, for the bound above. */
const CACHE_ENTRY_CHARS = 64;

/** Texts at least this long are counted paragraph by paragraph (see PARAGRAPH_BREAK). */
const PARAGRAPH_SPLIT_CHARS = 1024;
/**
 * After a blank line, before a character that can only start a new pre-token: cl100k's and o200k's
 * splitting regexes never join text across it (a '/' can join the newlines before it, so not
 * there), so a text's count is the sum of its paragraphs' counts, exactly. A context's head text
 * changes every turn (the projection's token total) while its long instructions do not: counted
 * whole, its BPE cost 0.3 ms a turn (bench:turns); by paragraph, only the changed ones are counted.
 */
const PARAGRAPH_BREAK = /(?<=\n\n)(?=[^\s/])/;

/**
 * Counts over a text function, with the chat framing, and a cache keyed by the text itself: the
 * context builder recounts the same logged messages every turn, read afresh from the store (so new
 * objects each time), and a Map lookup hashes a string far faster than BPE encodes it.
 */
class CountingTokenizer implements Tokenizer {
  private readonly cache = new Map<string, number>();
  private cachedChars = 0;
  private readonly tools = new WeakMap<readonly ToolSpec[], number>();
  private readonly messages = new WeakMap<ChatMessage, number>();

  constructor(
    readonly encoding: Tokenizer['encoding'],
    private readonly count: (text: string) => number,
    /** Whether counts add up over PARAGRAPH_BREAK (true of the BPE encodings, not of chars/4's rounding). */
    private readonly byParagraph: boolean,
  ) {}

  countText(text: string): number {
    // Short texts too: gpt-tokenizer takes a few microseconds even for 'tool', a lookup far less.
    const hit = this.cache.get(text);
    if (hit !== undefined) return hit;
    if (this.byParagraph && text.length >= PARAGRAPH_SPLIT_CHARS) {
      const paragraphs = text.split(PARAGRAPH_BREAK);
      // Not cached whole: a text that changes every turn would only push out the paragraphs.
      if (paragraphs.length > 1) return paragraphs.reduce((sum, paragraph) => sum + this.countText(paragraph), 0);
    }
    const tokens = this.count(text);
    this.cache.set(text, tokens);
    this.cachedChars += text.length + CACHE_ENTRY_CHARS;
    while (this.cachedChars > CACHE_MAX_CHARS) {
      const oldest = this.cache.keys().next().value as string;
      this.cache.delete(oldest);
      this.cachedChars -= oldest.length + CACHE_ENTRY_CHARS;
    }
    return tokens;
  }

  countMessage(message: ChatMessage): number {
    // The context loader keeps a task's parsed messages across turns: the same objects come back
    // every turn, and one lookup here spares hashing each of their texts again.
    const known = this.messages.get(message);
    if (known !== undefined) return known;
    const tokens = this.countMessageParts(message);
    this.messages.set(message, tokens);
    return tokens;
  }

  private countMessageParts(message: ChatMessage): number {
    let tokens = MESSAGE_OVERHEAD_TOKENS + this.countText(message.role);
    switch (message.role) {
      case 'assistant':
        if (message.content) tokens += this.countText(message.content);
        for (const call of message.toolCalls ?? []) {
          tokens += TOOL_OVERHEAD_TOKENS + this.countText(call.id) + this.countText(call.name) + this.countText(call.arguments);
        }
        return tokens;
      case 'tool':
        return tokens + this.countText(message.toolCallId) + this.countText(message.content);
      default:
        return tokens + this.countText(message.content);
    }
  }

  countMessages(messages: readonly ChatMessage[]): number {
    return messages.reduce((sum, m) => sum + this.countMessage(m), REPLY_PRIMING_TOKENS);
  }

  countTools(tools: readonly ToolSpec[]): number {
    if (tools.length === 0) return 0;
    const known = this.tools.get(tools);
    if (known !== undefined) return known;
    // Each definition as the wire sends it (see wire.ts).
    const tokens = tools.reduce(
      (sum, tool) =>
        sum +
        TOOL_OVERHEAD_TOKENS +
        this.countText(JSON.stringify({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } })),
      TOOLS_SECTION_TOKENS,
    );
    this.tools.set(tools, tokens);
    return tokens;
  }
}

const tokenizers = new Map<TokenEncodingName, Tokenizer>();

/** The tokenizer for a model name (see `encodingForModel`); one per encoding, shared. */
export function tokenizerFor(model?: string | null): Tokenizer {
  const name = encodingForModel(model);
  let tokenizer = tokenizers.get(name);
  if (!tokenizer) {
    tokenizer = new CountingTokenizer(name, (text) => loadEncoding(name).countTokens(text, PLAIN), true);
    tokenizers.set(name, tokenizer);
  }
  return tokenizer;
}

/**
 * The old estimate, characters divided by four, with the same framing: for comparisons and
 * benchmarks only. Budgets count with `tokenizerFor`.
 */
export const charEstimateTokenizer: Tokenizer = new CountingTokenizer('chars/4', (text) => Math.ceil(text.length / 4), false);
