/**
 * Invariant: a recorded session replays with no model server: the same requests get the same
 * responses (and the same coded errors), in order; in strict replay a request that differs from
 * the recording, or one past its end, fails as replay_mismatch instead of returning a wrong turn.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OpenAiCompatibleProvider } from '../../src/models/openai-provider';
import { RecordingProvider, ReplayProvider } from '../../src/models/recording';
import { canonicalRequest, requestHash } from '../../src/models/recording-format';
import type { ModelRequest, ModelResponse } from '../../src/models/types';
import { reply, startScriptedModelServer } from '../../src/testkit';
import { caught, tempDir } from '../support/temp-host';
import { firstTurn, secondTurn } from './fixtures';

const dir = tempDir('cowork-models-');
afterAll(() => dir.cleanup());
let fileCount = 0;
const freshPath = (): string => join(dir.path, `session-${fileCount++}`, 'model.jsonl');

/** Records a two-turn session against the scripted server; returns the file and what came back. */
async function recordSession(): Promise<{ path: string; requests: ModelRequest[]; responses: ModelResponse[] }> {
  const server = await startScriptedModelServer([
    reply.toolCalls([{ id: 'call_1', name: 'read_resource', arguments: { id: 'res_1' } }]),
    reply.text('It says hello world.', { usage: { promptTokens: 50, completionTokens: 6 } }),
  ]);
  const path = freshPath();
  const provider = new RecordingProvider(new OpenAiCompatibleProvider({ baseUrl: server.baseUrl, model: 'm', maxContextTokens: 32_000 }), path);
  const requests = [firstTurn(), secondTurn('call_1')];
  const responses: ModelResponse[] = [];
  try {
    for (const request of requests) responses.push(await provider.complete(request));
  } finally {
    await server.close();
  }
  return { path, requests, responses };
}

describe('record and replay', () => {
  it('replays the recorded responses for the same requests, with no server', async () => {
    const { path, requests, responses } = await recordSession();
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(2);
    const replay = new ReplayProvider(path);
    expect(replay.maxContextTokens).toBe(32_000);
    expect(await replay.complete(requests[0]!)).toEqual(responses[0]);
    expect(await replay.complete(requests[1]!)).toEqual(responses[1]);
  });

  it('fails as replay_mismatch when a request differs from the recording', async () => {
    const { path, requests } = await recordSession();
    const replay = new ReplayProvider(path);
    await replay.complete(requests[0]!);
    const changed = secondTurn('call_1');
    changed.messages[3] = { role: 'tool', toolCallId: 'call_1', content: 'a different result' };
    const error = await caught(() => replay.complete(changed));
    expect(error).toMatchObject({ code: 'replay_mismatch', details: { turn: 1, firstDifference: 'messages[3]' } });
  });

  it('fails as replay_mismatch when the recording runs out', async () => {
    const { path, requests } = await recordSession();
    const replay = new ReplayProvider(path);
    for (const request of requests) await replay.complete(request);
    const error = await caught(() => replay.complete(requests[1]!));
    expect(error).toMatchObject({ code: 'replay_mismatch', details: { recordedTurns: 2 } });
  });

  it('plays turns in order whatever is asked when not strict', async () => {
    const { path, responses } = await recordSession();
    const replay = new ReplayProvider(path, { strict: false });
    const other: ModelRequest = { messages: [{ role: 'user', content: 'something else' }], tools: [] };
    expect(await replay.complete(other)).toEqual(responses[0]);
    expect(await replay.complete(other)).toEqual(responses[1]);
  });

  it('plays the matching turn when calls arrive in another order (agents in parallel)', async () => {
    const { path, requests, responses } = await recordSession();
    const replay = new ReplayProvider(path);
    expect(await replay.complete(requests[1]!)).toEqual(responses[1]);
    expect(await replay.complete(requests[0]!)).toEqual(responses[0]);
  });

  it('treats key order and an empty toolCalls list as the same request', () => {
    const request: ModelRequest = {
      messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }],
      tools: [{ name: 't', description: 'd', inputSchema: { type: 'object', properties: {} } }],
    };
    const same: ModelRequest = {
      messages: [{ content: 'hi', role: 'user' }, { toolCalls: [], content: 'hello', role: 'assistant' }],
      tools: [{ inputSchema: { properties: {}, type: 'object' }, description: 'd', name: 't' }],
    };
    expect(requestHash(canonicalRequest(same))).toBe(requestHash(canonicalRequest(request)));
  });

  it('records a coded error and replays it', async () => {
    const server = await startScriptedModelServer([reply.status(404, { body: { error: { message: 'no such model' } } })]);
    const path = freshPath();
    const provider = new RecordingProvider(new OpenAiCompatibleProvider({ baseUrl: server.baseUrl, model: 'm' }), path);
    const recorded = await caught(() => provider.complete(firstTurn()));
    await server.close();
    const replayed = await caught(() => new ReplayProvider(path).complete(firstTurn()));
    expect(replayed).toMatchObject({ code: 'model_rejected', message: recorded.message, details: recorded.details });
  });

  it('skips a last line torn by a crash, and names any other bad line', async () => {
    const { path, requests, responses } = await recordSession();
    appendFileSync(path, '{"v":1,"turn":2,"requ');
    const replay = new ReplayProvider(path);
    expect(await replay.complete(requests[0]!)).toEqual(responses[0]);
    appendFileSync(path, '\n{}\n');
    expect(() => new ReplayProvider(path)).toThrow(expect.objectContaining({ code: 'invalid_input', details: { path, line: 3 } }));
  });
});
