import { collect, filterSamples } from '../src/dataset-builder';
import { trainerReason } from '../src/errors';
import { FAMILY_TOOLS } from '../src/family/catalog';
import { historyFilter } from '../src/filters/history';
import { rubricFilter } from '../src/filters/rubric';
import { validityFilter } from '../src/filters/validity';
import { renderSample } from '../src/chat-template';
import { loaded, readAndAnswer, record, type Msg } from './support';

const samplesOf = (runs: Parameters<typeof collect>[0]) => collect(runs).samples;

describe('chat samples', () => {
  test('one sample per agent, the finish result trimmed, loss on assistant text only', () => {
    const messages: Msg[] = [
      { role: 'user', content: 'Append one.' },
      { role: 'assistant', content: null, toolCalls: [{ id: 'a', name: 'commit_resource', arguments: '{"resourceId":"r","baseRevision":0,"op":{}}' }] },
      { role: 'tool', toolCallId: 'a', content: '{"revision":1}' },
      { role: 'assistant', content: null, toolCalls: [{ id: 'b', name: 'finish', arguments: '{"summary":"done"}' }] },
      { role: 'tool', toolCallId: 'b', content: '{"finished":true}' },
    ];
    const [sample] = samplesOf([loaded(record('t', messages))]);
    expect(sample!.messages).toHaveLength(4);
    expect(sample!.messages[1]).toEqual({ role: 'assistant', content: null, tool_calls: [{ id: 'a', name: 'commit_resource', arguments: '{"resourceId":"r","baseRevision":0,"op":{}}' }] });
    const trained = renderSample(sample!).filter((s) => s.train).map((s) => s.text);
    expect(trained).toEqual(['<|call|>{"name":"commit_resource","arguments":{"resourceId":"r","baseRevision":0,"op":{}}}<|end|>', '<|call|>{"name":"finish","arguments":{"summary":"done"}}<|end|>']);
    expect(renderSample(sample!).filter((s) => !s.train).map((s) => s.text).join('')).toContain('<|tool|>\n{"revision":1}');
  });

  test('equal conversations from two records get one hash', () => {
    const a = samplesOf([loaded(record('a', readAndAnswer('q', 'A')))]);
    const b = samplesOf([loaded(record('b', readAndAnswer('q', 'A')))]);
    expect(a[0]!.hash).toBe(b[0]!.hash);
  });
});

describe('validity filter', () => {
  test('drops unparseable calls, unknown tools, arguments off the schema and endings off the assistant, each with its reason', () => {
    const good = record('good', readAndAnswer('q', 'The port is 4242.'));
    const unparseable = record('unparseable', readAndAnswer('q', 'x', '{"resourceId":'));
    const unknown = record('unknown', readAndAnswer('q', 'x', '{}', 'read_everything'));
    const mismatch = record('mismatch', readAndAnswer('q', 'x', '{"resourceId":7}'));
    const endsOnTool = record('ends-on-tool', readAndAnswer('q', 'x').slice(0, 3));
    const endsOnUser = record('ends-on-user', [...readAndAnswer('q', 'x'), { role: 'user', content: 'and?' }]);
    const outcome = validityFilter(samplesOf([good, unparseable, unknown, mismatch, endsOnTool, endsOnUser].map((r) => loaded(r))), FAMILY_TOOLS);
    expect(outcome.kept.map((s) => s.task)).toEqual(['good']);
    expect(outcome.report).toMatchObject({ filter: 'validity', input: 6, kept: 1 });
    expect(outcome.report.byReason).toEqual({ call_unparseable: 1, unknown_tool: 1, args_mismatch: 1, ends_on_tool: 1, ends_on_user: 1 });
    const mismatchDrop = outcome.report.dropped.find((d) => d.reason === 'args_mismatch')!;
    expect(mismatchDrop.detail).toBe('read_resource: /resourceId must be string');
    expect(mismatchDrop.source).toBe('records/mismatch.0.json');
  });
});

describe('rubric filter', () => {
  test('keeps all-pass trials only, and never a held-out one', () => {
    const runs = [
      loaded(record('pass', readAndAnswer('q1', 'a'))),
      loaded(record('fail', readAndAnswer('q2', 'a'), { pass: false })),
      loaded(record('invalid', readAndAnswer('q3', 'a'), { status: 'invalid' })),
      loaded(record('held', readAndAnswer('q4', 'a')), 'heldout'),
    ];
    const outcome = rubricFilter(samplesOf(runs));
    expect(outcome.kept.map((s) => s.task)).toEqual(['pass']);
    expect(outcome.report.byReason).toEqual({ rubric_failed: 1, invalid_trial: 1, heldout_split: 1 });
    expect(outcome.report.dropped.find((d) => d.reason === 'rubric_failed')!.detail).toBe('fail trial 0 earned 0 of 2');
  });
});

describe('history filter', () => {
  test('drops what an ancestor trained on and repeats within the dataset', () => {
    const samples = samplesOf([
      loaded(record('old', readAndAnswer('old question', 'a'))),
      loaded(record('new', readAndAnswer('new question', 'b'))),
      loaded(record('again', readAndAnswer('new question', 'b'))),
    ]);
    const outcome = historyFilter(samples, new Set([samples[0]!.hash]));
    expect(outcome.kept.map((s) => s.task)).toEqual(['new']);
    expect(outcome.report.byReason).toEqual({ trained_by_ancestor: 1, duplicate_in_dataset: 1 });
  });
});

describe('the filters together', () => {
  test('run in order, each on what the one before kept; nothing left is an empty_dataset error with every count', () => {
    const runs = [loaded(record('fail', readAndAnswer('q', 'a'), { pass: false })), loaded(record('bad', readAndAnswer('q', 'a', 'nope')))];
    let error: unknown;
    try {
      filterSamples(samplesOf(runs), { tools: FAMILY_TOOLS, heldout: [], ancestorHashes: new Set() });
    } catch (e) {
      error = e;
    }
    expect(trainerReason(error)).toBe('empty_dataset');
    expect((error as Error).message).toBe('every trajectory was filtered out: validity kept 1 of 2 (call_unparseable 1); rubric kept 0 of 1 (rubric_failed 1); history kept 0 of 0; heldout_similarity kept 0 of 0');
  });

  test('collecting nothing is an empty_dataset error', () => {
    expect(() => collect([])).toThrow(/no run records/);
    expect(() => collect([loaded(record('silent', []))])).toThrow(/hold no conversation/);
  });
});
