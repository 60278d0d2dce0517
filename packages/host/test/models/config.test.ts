/**
 * Invariant: the model configuration comes from COWORK_* variables (flags win), every malformed
 * value is refused as invalid_input naming the variable, and a host with no model configured
 * fails as model_not_configured saying which variables to set, never with a crash.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createModelProvider, modelConfigFromEnv } from '../../src/models/config';
import { OpenAiCompatibleProvider } from '../../src/models/openai-provider';
import { RecordingProvider, ReplayProvider } from '../../src/models/recording';
import { tempDir } from '../support/temp-host';

const dir = tempDir('cowork-model-config-');
afterAll(() => dir.cleanup());

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('modelConfigFromEnv', () => {
  it('reads every variable and lets overrides win', () => {
    const config = modelConfigFromEnv(
      {
        COWORK_MODEL_BASE_URL: 'http://127.0.0.1:8000/v1',
        COWORK_MODEL: 'qwen',
        COWORK_API_KEY: 'sk-x',
        COWORK_MODEL_TIMEOUT_MS: '5000',
        COWORK_MODEL_MAX_RETRIES: '0',
        COWORK_MAX_CONTEXT_TOKENS: '32768',
        COWORK_MAX_OUTPUT_TOKENS: '2048',
        COWORK_REASONING_EFFORT: 'medium',
        COWORK_RECORD: '',
      },
      { model: 'glm', maxOutputTokens: undefined },
    );
    expect(config).toEqual({
      baseUrl: 'http://127.0.0.1:8000/v1',
      model: 'glm',
      apiKey: 'sk-x',
      timeoutMs: 5000,
      maxRetries: 0,
      maxContextTokens: 32768,
      maxOutputTokens: 2048,
      reasoningEffort: 'medium',
    });
  });

  it.each([
    ['COWORK_MODEL_TIMEOUT_MS', 'soon'],
    ['COWORK_MAX_CONTEXT_TOKENS', '0'],
    ['COWORK_MODEL_MAX_RETRIES', '-1'],
    ['COWORK_MAX_OUTPUT_TOKENS', '1.5'],
    ['COWORK_REASONING_EFFORT', 'max'],
    ['COWORK_MODEL_BASE_URL', 'localhost:8000'],
    ['COWORK_REPLAY_STRICT', 'maybe'],
  ])('refuses %s=%s as invalid_input naming the variable', (variable, value) => {
    expect(thrown(() => modelConfigFromEnv({ [variable]: value }))).toMatchObject({ code: 'invalid_input', details: { variable, value } });
  });

  it('refuses a bad override, naming the field', () => {
    expect(thrown(() => modelConfigFromEnv({}, { timeoutMs: -5 }))).toMatchObject({ code: 'invalid_input', details: { variable: 'timeoutMs' } });
  });

  it('refuses replaying and recording at once', () => {
    expect(thrown(() => modelConfigFromEnv({ COWORK_REPLAY: 'a.jsonl', COWORK_RECORD: 'b.jsonl' }))).toMatchObject({ code: 'invalid_input' });
  });
});

describe('createModelProvider', () => {
  it('fails as model_not_configured, naming the variables to set', () => {
    expect(thrown(() => createModelProvider(modelConfigFromEnv({})))).toMatchObject({
      code: 'model_not_configured',
      details: { missing: ['COWORK_MODEL_BASE_URL', 'COWORK_MODEL'] },
    });
    expect(thrown(() => createModelProvider({ baseUrl: 'http://127.0.0.1:1/v1' }))).toMatchObject({
      code: 'model_not_configured',
      details: { missing: ['COWORK_MODEL'] },
    });
  });

  it('builds the HTTP provider, a recorder around it, or a replay', () => {
    const http = { baseUrl: 'http://127.0.0.1:1/v1', model: 'm', maxContextTokens: 4096 };
    const plain = createModelProvider(http);
    expect(plain).toBeInstanceOf(OpenAiCompatibleProvider);
    expect(plain.maxContextTokens).toBe(4096);
    expect(createModelProvider({ ...http, recordPath: join(dir.path, 'rec.jsonl') })).toBeInstanceOf(RecordingProvider);
    const recording = join(dir.path, 'empty.jsonl');
    writeFileSync(recording, '');
    expect(createModelProvider(modelConfigFromEnv({ COWORK_REPLAY: recording }))).toBeInstanceOf(ReplayProvider);
  });
});
