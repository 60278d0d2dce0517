import { CoworkError } from '../errors';
import { OpenAiCompatibleProvider } from './openai-provider';
import { RecordingProvider, ReplayProvider } from './recording';
import type { ModelProvider, ReasoningEffort } from './types';

/** Model settings, from the environment and command-line flags. Unset fields take the providers' defaults. */
export interface ModelConfig {
  baseUrl?: string;
  model?: string;
  apiKey?: string;
  timeoutMs?: number;
  maxRetries?: number;
  maxContextTokens?: number;
  maxOutputTokens?: number;
  reasoningEffort?: ReasoningEffort;
  /** Play this recording instead of calling a server. */
  replayPath?: string;
  /** Check replayed requests against the recording (default true). */
  replayStrict?: boolean;
  /** Record every turn to this file (JSON Lines, appended). */
  recordPath?: string;
}

/** The environment variable behind each field, for error messages and help text. */
export const MODEL_ENV = {
  baseUrl: 'COWORK_MODEL_BASE_URL',
  model: 'COWORK_MODEL',
  apiKey: 'COWORK_API_KEY',
  timeoutMs: 'COWORK_MODEL_TIMEOUT_MS',
  maxRetries: 'COWORK_MODEL_MAX_RETRIES',
  maxContextTokens: 'COWORK_MAX_CONTEXT_TOKENS',
  maxOutputTokens: 'COWORK_MAX_OUTPUT_TOKENS',
  reasoningEffort: 'COWORK_REASONING_EFFORT',
  replayPath: 'COWORK_REPLAY',
  replayStrict: 'COWORK_REPLAY_STRICT',
  recordPath: 'COWORK_RECORD',
} as const satisfies Record<keyof ModelConfig, string>;

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Reads the model settings from `env`; `overrides` (from flags) win over it where they are set.
 * An empty variable counts as unset. A malformed value throws `invalid_input` naming the variable
 * (or the override field).
 */
export function modelConfigFromEnv(env: Env, overrides: ModelConfig = {}): ModelConfig {
  const config: ModelConfig = {
    baseUrl: text(env, 'baseUrl'),
    model: text(env, 'model'),
    apiKey: text(env, 'apiKey'),
    timeoutMs: integer(env, 'timeoutMs', 1),
    maxRetries: integer(env, 'maxRetries', 0),
    maxContextTokens: integer(env, 'maxContextTokens', 1),
    maxOutputTokens: integer(env, 'maxOutputTokens', 1),
    reasoningEffort: effort(env),
    replayPath: text(env, 'replayPath'),
    replayStrict: flag(env, 'replayStrict'),
    recordPath: text(env, 'recordPath'),
  };
  for (const [key, value] of Object.entries(overrides) as [keyof ModelConfig, unknown][]) {
    if (value !== undefined) Object.assign(config, { [key]: value });
  }
  checkOverrides(overrides);
  if (config.baseUrl !== undefined && !isHttpUrl(config.baseUrl)) {
    const name = overrides.baseUrl !== undefined ? 'baseUrl' : MODEL_ENV.baseUrl;
    throw badValue(name, config.baseUrl, 'an http(s) URL like http://127.0.0.1:8000/v1');
  }
  if (config.replayPath !== undefined && config.recordPath !== undefined) {
    throw new CoworkError('invalid_input', `set ${MODEL_ENV.replayPath} or ${MODEL_ENV.recordPath}, not both`, {
      variables: [MODEL_ENV.replayPath, MODEL_ENV.recordPath],
    });
  }
  return dropUndefined(config);
}

/**
 * The provider the configuration asks for: a replay when `replayPath` is set, else the HTTP
 * provider, wrapped in a recorder when `recordPath` is set. Throws `model_not_configured` when
 * there is neither a recording nor a base URL and model name.
 */
export function createModelProvider(config: ModelConfig): ModelProvider {
  if (config.replayPath !== undefined) {
    return new ReplayProvider(config.replayPath, { strict: config.replayStrict, maxContextTokens: config.maxContextTokens });
  }
  if (config.baseUrl === undefined || config.model === undefined) {
    const missing: string[] = [];
    if (config.baseUrl === undefined) missing.push(MODEL_ENV.baseUrl);
    if (config.model === undefined) missing.push(MODEL_ENV.model);
    throw new CoworkError('model_not_configured', `no model is configured: set ${missing.join(' and ')} (or ${MODEL_ENV.replayPath})`, {
      missing,
    });
  }
  const provider = new OpenAiCompatibleProvider({
    baseUrl: config.baseUrl,
    model: config.model,
    apiKey: config.apiKey,
    timeoutMs: config.timeoutMs,
    maxRetries: config.maxRetries,
    maxContextTokens: config.maxContextTokens,
    maxOutputTokens: config.maxOutputTokens,
    reasoningEffort: config.reasoningEffort,
  });
  return config.recordPath === undefined ? provider : new RecordingProvider(provider, config.recordPath);
}

const EFFORTS: readonly ReasoningEffort[] = ['low', 'medium', 'high'];
const MIN: Partial<Record<keyof ModelConfig, number>> = { timeoutMs: 1, maxRetries: 0, maxContextTokens: 1, maxOutputTokens: 1 };

function text(env: Env, key: keyof typeof MODEL_ENV): string | undefined {
  const value = env[MODEL_ENV[key]]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function integer(env: Env, key: keyof typeof MODEL_ENV, min: number): number | undefined {
  const raw = text(env, key);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min) {
    throw badValue(MODEL_ENV[key], raw, `a whole number of at least ${min}`);
  }
  return value;
}

function effort(env: Env): ReasoningEffort | undefined {
  const raw = text(env, 'reasoningEffort');
  if (raw === undefined) return undefined;
  if (!(EFFORTS as readonly string[]).includes(raw)) throw badValue(MODEL_ENV.reasoningEffort, raw, EFFORTS.join(', '));
  return raw as ReasoningEffort;
}

function flag(env: Env, key: keyof typeof MODEL_ENV): boolean | undefined {
  const raw = text(env, key)?.toLowerCase();
  if (raw === undefined) return undefined;
  if (['1', 'true', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'no'].includes(raw)) return false;
  throw badValue(MODEL_ENV[key], raw, 'true or false');
}

// Flags are parsed by the CLI, but a number that slipped through wrong is caught here too.
function checkOverrides(overrides: ModelConfig): void {
  for (const [key, min] of Object.entries(MIN) as [keyof ModelConfig, number][]) {
    const value = overrides[key];
    if (value !== undefined && (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min)) {
      throw badValue(key, String(value), `a whole number of at least ${min}`);
    }
  }
  if (overrides.reasoningEffort !== undefined && !EFFORTS.includes(overrides.reasoningEffort)) {
    throw badValue('reasoningEffort', String(overrides.reasoningEffort), EFFORTS.join(', '));
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function badValue(name: string, value: string, expected: string): CoworkError {
  return new CoworkError('invalid_input', `${name} is ${JSON.stringify(value)}; expected ${expected}`, { variable: name, value, expected });
}

function dropUndefined(config: ModelConfig): ModelConfig {
  return Object.fromEntries(Object.entries(config).filter(([, value]) => value !== undefined)) as ModelConfig;
}
