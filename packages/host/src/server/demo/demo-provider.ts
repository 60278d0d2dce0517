import { join } from 'node:path';
import { ReplayProvider } from '../../models/recording';
import type { ModelProvider, ModelRequest, ModelResponse } from '../../models/types';

/** The recorded demo task shipped with the host (written by `record-demo.ts`). */
export const DEMO_RECORDING = join(__dirname, 'demo-recording.jsonl');

export interface DemoProviderOptions {
  /** Values for the `{{name}}` placeholders in the recorded tool-call arguments. */
  readonly values: Readonly<Record<string, string>>;
  /** Awaited before turn `n` (0-based, in recorded order) is handed to the runtime. */
  readonly beforeTurn?: (turn: number) => Promise<void>;
  readonly path?: string;
}

/**
 * Plays the recorded demo through the real runtime. The recording cannot hold the demo resource's
 * id, since every run creates a fresh resource with a new id; its tool-call arguments say
 * `{{resourceId}}` instead, and this provider fills in the run's values before the runtime sees a
 * response. `beforeTurn` lets the demo act at a fixed point of the story (the person's edit just
 * before Main commits) without racing the loop.
 */
export class DemoProvider implements ModelProvider {
  readonly name = 'recorded-demo';
  readonly maxContextTokens: number;
  private readonly replay: ReplayProvider;
  private turn = 0;

  constructor(private readonly options: DemoProviderOptions) {
    this.replay = new ReplayProvider(options.path ?? DEMO_RECORDING, { strict: false });
    this.maxContextTokens = this.replay.maxContextTokens;
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    const turn = this.turn++;
    await this.options.beforeTurn?.(turn);
    const response = await this.replay.complete(request);
    const toolCalls = response.message.toolCalls.map((call) => ({ ...call, arguments: this.fill(call.arguments) }));
    return { ...response, message: { content: response.message.content === null ? null : this.fill(response.message.content), toolCalls } };
  }

  private fill(text: string): string {
    // Values go into JSON strings: escape them as JSON does (ids never need it, but text might).
    return text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => {
      const value = this.options.values[name];
      return value === undefined ? whole : JSON.stringify(value).slice(1, -1);
    });
  }
}
