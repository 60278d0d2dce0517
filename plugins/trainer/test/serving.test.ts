import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CoworkError, type Json } from '@cowork/host';
import { OpenAiCompatibleProvider } from '@cowork/host/embed';
import { freePort, type TempHost } from '@cowork/host/testkit';
import { renderSample } from '../src/chat-template';
import { serveScript } from '../src/training/script';
import { callTool, py, readAndAnswer, smokeCheckpoint, trainerHost, until } from './support';


// Debian's python3-torch is installed by the set-up (training.test.ts checks it is there).
describe('serving a checkpoint behind /v1/chat/completions (python/serve.py)', () => {
  let host: TempHost;
  beforeAll(async () => {
    host = await trainerHost();
  });
  afterAll(async () => {
    await host.dispose();
  });

  test('renders a chat as train.py was trained on it, and reads <|call|> lines as tool calls', () => {
    const messages = readAndAnswer('Read the billing settings in res_1 and tell me its port.', 'The port of billing is 4242.');
    const wire = messages.map((m) =>
      m.role === 'assistant'
        ? { role: 'assistant', content: m.content, ...(m.toolCalls ? { tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) } : {}) }
        : m.role === 'tool' ? { role: 'tool', tool_call_id: m.toolCallId, content: m.content } : m,
    );
    // The host's system text is left out: no training sample holds one.
    const withSystem = [{ role: 'system', content: 'You are Main, the coordinator of this task.' }, ...wire];
    const rendered = py('import json, serve; print(json.dumps(serve.render(json.load(sys.stdin))))', JSON.stringify(withSystem));
    const sample = { messages: wire.map((m) => (m.role === 'assistant' ? { ...m, tool_calls: (m as { tool_calls?: { id: string; function: { name: string; arguments: string } }[] }).tool_calls?.map((c) => ({ id: c.id, ...c.function })) } : m)) };
    const expected = renderSample(sample as never).map((s) => s.text).join('') + '<|assistant|>\n';
    expect(JSON.parse(rendered)).toBe(expected);

    const parsed = JSON.parse(py('import json, serve; c, calls = serve.parse_output(sys.stdin.read()); print(json.dumps([c, calls]))', 'Let me look.\n<|call|>{"name":"read_resource","arguments":{"resourceId":"res_9"}}\n<|call|>{"name":broken')) as [string | null, { type: string; function: { name: string; arguments: string } }[]];
    expect(parsed[0]).toBe('Let me look.\n<|call|>{"name":broken');
    expect(parsed[1]).toHaveLength(1);
    expect(parsed[1][0]).toMatchObject({ type: 'function', function: { name: 'read_resource', arguments: '{"resourceId":"res_9"}' } });
  });

  test('decodes with a key/value cache exactly as re-running the whole context for every piece would', () => {
    const out = py(
      [
        'import json, torch, decode, model, pieces',
        'text = sys.stdin.read()',
        'v = pieces.learn_vocabulary([pieces.split(text)], 0.0)',
        'torch.manual_seed(5); m = model.GPT(len(v)); m.eval()',
        'prompt = pieces.split(text)',
        'fast = decode.greedy(m, v, prompt, 100, None)',
        'slow = decode.greedy_uncached(m, v, prompt, 100, None)',
        'print(json.dumps([fast[0] == slow[0], len(fast[0])]))',
      ].join('\n'),
      '<|user|>\nRead the billing settings in res_1 and tell me its port.<|end|>\n<|assistant|>\n',
    );
    expect(JSON.parse(out)).toEqual([true, 100]);
  });

  test('the next piece mixes the vocabulary and the pointer: a piece outside the vocabulary is written only by pointing at where it stands', () => {
    // Hand-set outputs at the last position of the window [<|user|>, res_q7zk, " ", res_q7zk, "."]:
    // res_q7zk is not in the vocabulary, so its probability is the pointer's mass on both positions holding it.
    const out = py(
      [
        'import json, math, torch, decode, model, pieces',
        'v = pieces.Vocabulary([pieces.PAD, "<|user|>", " ", ".", "The"])',
        'window = ["<|user|>", "res_q7zk", " ", "res_q7zk", "."]',
        'logp = torch.log(torch.tensor([0.0, 0.1, 0.1, 0.2, 0.6]))',
        'last = torch.log(torch.tensor([0.05, 0.35, 0.0, 0.3, 0.3]))',
        'half, mostly = torch.tensor(0.0), torch.log(torch.tensor(9.0))  # gate logits: g = 0.5, g = 0.9',
        'copy = decode.choose(v, window, logp, last, half)',
        'vocab = decode.choose(v, window, logp, last, mostly)',
        // The training loss asks the same mix for the probability of the target piece at the last position.
        'att = torch.stack([torch.log(torch.tensor([1.0 / (r + 1)] * (r + 1) + [0.0] * (4 - r))) for r in range(4)] + [last]).unsqueeze(0)',
        'numbering = {}; piece_ids = torch.tensor([[numbering.setdefault(p, len(numbering)) for p in window]])',
        'def p_next(target_id, piece):',
        '    lp = model.target_logprob(logp.expand(1, 5, 5), att, torch.zeros(1, 5), torch.tensor([[0, 0, 0, 0, target_id]]), piece_ids, torch.tensor([[-2, -2, -2, -2, numbering.get(piece, -3)]]))',
        '    return math.exp(lp[0, 4].item())',
        'print(json.dumps([copy, vocab, p_next(0, "res_q7zk"), p_next(3, "."), p_next(0, "res_elsewhere")]))',
      ].join('\n'),
      '',
    );
    const [copy, vocab, pCopy, pDot, pNowhere] = JSON.parse(out) as [string, string, number, number, number];
    expect(copy).toBe('res_q7zk'); // 0.5 * (0.35 + 0.3) = 0.325 against "The" 0.5 * 0.6 = 0.30 and "." 0.1 + 0.15
    expect(vocab).toBe('The'); // 0.9 * 0.6 = 0.54 against 0.1 * 0.65
    expect(pCopy).toBeCloseTo(0.5 * 0.65, 6);
    expect(pDot).toBeCloseTo(0.5 * 0.2 + 0.5 * 0.3, 6);
    expect(pNowhere).toBeCloseTo(Math.exp(-30), 20); // neither the vocabulary nor the context holds it: a constant cost
  });

  test('training windows start where the text starts, padded on the right, as decoding sees it', () => {
    const out = py(
      [
        'import json, random, train, pieces',
        'text = pieces.split("<|user|>\\nhi there<|end|>\\n<|assistant|>\\nok<|end|>")',
        'mask = [0] * 9 + [1] * (len(text) - 9)',
        'long = [w for i in range(200) for w in ("w%d" % (i % 7), " ")]; lmask = [1] * len(long)',
        'v = pieces.learn_vocabulary([text, text, long, long], 0.0)',
        'b = train.batch([(text, mask, 1.0)], [1.0], 4, 64, v, random.Random(1))',
        'lb = train.batch([(long, lmask, 1.0)], [1.0], 8, 64, v, random.Random(2))',
        'print(json.dumps([b[0][0].tolist(), b[3][0].tolist(), [v.id(p) for p in text], lb[0].tolist(), lb[4].tolist()]))',
      ].join('\n'),
      '',
    );
    const [x, m, text, lx, ly] = JSON.parse(out) as [number[], number[], number[], number[][], number[][]];
    expect(text).toHaveLength(11);
    expect(x).toEqual(text.slice(0, -1));
    expect(m).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1, 1]);
    // A trajectory longer than the context: full windows of its own pieces, no padding anywhere.
    for (const [i, row] of lx.entries()) {
      expect(row).toHaveLength(64);
      expect(row.every((id) => id > 0)).toBe(true);
      expect(ly[i]!.every((id) => id > 0)).toBe(true);
    }
  });

  test('a checkpoint that does not load: the server says why on stderr and exits non-zero without listening', () => {
    const garbage = join(host.dir, 'garbage.pt');
    writeFileSync(garbage, 'not a torch file');
    const bad = spawnSync('/usr/bin/python3', [serveScript(), '--checkpoint', garbage, '--port', '0'], { encoding: 'utf8', timeout: 60_000 });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('does not load as a torch file');
    expect(bad.stdout).not.toContain('listening');
    const missing = spawnSync('/usr/bin/python3', [serveScript(), '--checkpoint', join(host.dir, 'nope.pt'), '--port', '0'], { encoding: 'utf8', timeout: 60_000 });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('does not exist');
    // A checkpoint of the byte-level model (weights, no vocabulary of pieces): named, not guessed at.
    const older = join(host.dir, 'bytes-model.pt');
    py(`import torch, model; torch.save({"model": model.GPT(256).state_dict(), "config": {"d": 128}}, ${JSON.stringify(older)})`, '');
    const old = spawnSync('/usr/bin/python3', [serveScript(), '--checkpoint', older, '--port', '0'], { encoding: 'utf8', timeout: 60_000 });
    expect(old.status).toBe(2);
    expect(old.stderr).toContain('holds no vocabulary of the trainer');
    expect(old.stdout).not.toContain('listening');
  });

  test('the tool refuses a checkpoint that does not exist', async () => {
    const result = await callTool(host, 'trainer_serve_checkpoint', { checkpointId: 'res_missing' });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('missing_resource');
  });

  test('serves a smoke checkpoint as a host job; the host provider reads its answers; bad requests get 400', async () => {
    const checkpoint = await smokeCheckpoint(host);
    const port = await freePort();
    const served = (await callTool(host, 'trainer_serve_checkpoint', { checkpointId: checkpoint.id, port, maxTokens: 48 })).content as { job: { command: string; args: string[]; cwd: string; name: string }; baseUrl: string; model: string };
    expect(served.baseUrl).toBe(`http://127.0.0.1:${port}/v1`);
    expect(served.job.args).toContain(checkpoint.hash);
    const job = await host.jobs.start(served.job);
    try {
      const models = await until(
        () => fetch(`${served.baseUrl}/models`).then((r) => r.json() as Promise<{ data: { id: string }[] }>, () => null),
        (m) => m !== null,
        'the server to listen',
      );
      expect(models!.data[0]!.id).toBe(served.model);

      const provider = new OpenAiCompatibleProvider({ baseUrl: served.baseUrl, model: served.model, maxRetries: 0 });
      const response = await provider.complete({
        messages: [{ role: 'user', content: 'Read the billing settings in res_1 and tell me its port.' }],
        tools: [{ name: 'read_resource', description: 'Read a resource', inputSchema: { type: 'object', properties: { resourceId: { type: 'string' } } } }],
      });
      expect(['stop', 'tool_calls', 'length']).toContain(response.finishReason);
      expect(response.usage.estimated).toBeUndefined();
      expect(response.usage.inputTokens).toBeGreaterThan(0);
      expect(response.usage.outputTokens).toBeGreaterThan(0);
      expect(response.usage.outputTokens).toBeLessThanOrEqual(48);
      expect(response.model).toBe(served.model);

      // The wire shape itself, with a tool result in the history.
      const raw = await fetch(`${served.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          model: served.model,
          max_tokens: 8,
          messages: [
            { role: 'user', content: 'Read res_1.' },
            { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_resource', arguments: '{"resourceId":"res_1"}' } }] },
            { role: 'tool', tool_call_id: 'c1', content: '{"revision":0}' },
          ],
        }),
      });
      expect(raw.status).toBe(200);
      // A kept-alive connection to this one-request-per-connection server cost a client its keep-alive timeout (4 s in Node) per request.
      expect(raw.headers.get('connection')).toBe('close');
      const body = (await raw.json()) as Record<string, Json>;
      expect(body).toMatchObject({ object: 'chat.completion', model: served.model });
      const choice = (body.choices as Record<string, Json>[])[0]!;
      expect(choice.message).toMatchObject({ role: 'assistant' });
      expect(['stop', 'tool_calls', 'length']).toContain(choice.finish_reason);
      expect(body.usage).toMatchObject({ completion_tokens: expect.any(Number), prompt_tokens: expect.any(Number), total_tokens: expect.any(Number) });

      for (const bad of ['not json', '{"messages": []}', '{"messages": [{"role": "robot", "content": "hi"}]}', '{"messages": [{"role": "user", "content": "hi"}], "max_tokens": 0}']) {
        const refused = await fetch(`${served.baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: bad });
        expect(refused.status).toBe(400);
        expect(refused.headers.get('content-type')).toBe('application/json');
        expect(((await refused.json()) as { error: { message: string } }).error.message).toEqual(expect.any(String));
      }
      // The host's provider reports a 400 as a refusal, not a retry.
      await expect(provider.complete({ messages: [], tools: [] })).rejects.toMatchObject({ code: 'model_rejected' } satisfies Partial<CoworkError>);
    } finally {
      await host.jobs.cancel(job.id);
    }
  }, 180_000); // training the smoke checkpoint and decoding byte by byte take most of a minute on a busy machine
});
