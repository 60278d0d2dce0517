import { filterSamples, collect } from '../src/dataset-builder';
import { FAMILY_TOOLS } from '../src/family/catalog';
import { tokenShare } from '../src/token-share';
import { splitPieces } from '../src/tokens';
import { loaded, readAndAnswer, record } from './support';

describe('token share', () => {
  test("the paper's case: 42 of 135 trajectories hold 84.2% of supervised tokens; the report says 84% and warns", () => {
    const tokens = [...Array(42).fill(236), ...Array(93).fill(20)];
    const report = tokenShare('fixture', tokens);
    expect(report.trajectories).toBe(135);
    expect(report.top.count).toBe(42);
    expect(report.top.share).toBeCloseTo(0.842, 3);
    expect(report.top.percent).toBe(84);
    expect(report.warning).toContain('42 of 135 trajectories (31.1%) hold 84.2%');
    // 50% of 11772 tokens is reached by the 25 longest (25 × 236 = 5900); 80% by the 40 longest.
    expect(report.trajectoriesFor50).toBe(25);
    expect(report.tokensFor50).toBe(5900);
    expect(report.trajectoriesFor80).toBe(40);
    expect(report.tokensFor80).toBe(9440);
  });

  test('an even dataset gets no warning', () => {
    const report = tokenShare('fixture', Array(100).fill(50));
    expect(report.top.count).toBe(32);
    expect(report.top.percent).toBe(32);
    expect(report.warning).toBeNull();
  });

  test("built from run records, the model's own tokenizer (pieces) reports the same case on the loss-masked turns", () => {
    // Supervised pieces of a trajectory: its call line and its answer, each with the end marker
    // (one piece). 42 long answers of 600 words against 93 short ones: the longest 42 hold most.
    const call = '<|call|>{"name":"read_resource","arguments":{"resourceId":"res_1"}}<|end|>';
    const callPieces = splitPieces(call).length;
    const base = callPieces + 2; // "ok" and <|end|>
    const longAnswer = Array(600).fill('w').join(' '); // 1199 pieces: a word and a space each
    const runs = Array.from({ length: 135 }, (_, i) => loaded(record(`t${i}`, readAndAnswer(`question number ${i}`, i < 42 ? longAnswer : 'ok'))));
    const result = filterSamples(collect(runs).samples, { tools: FAMILY_TOOLS, heldout: [], ancestorHashes: new Set() });
    const own = result.trajectories.map((t) => t.supervisedModelTokens);
    const long = callPieces + 1199 + 1;
    expect(own.filter((n) => n === long)).toHaveLength(42);
    expect(own.filter((n) => n === base)).toHaveLength(93);
    const share = result.tokenShare.model;
    expect(share.top.count).toBe(42);
    expect(share.top.share).toBeCloseTo((42 * long) / (42 * long + 93 * base), 10);
    expect(share.tokenizer).toBe('pieces');
    expect(share.warning).not.toBeNull();
    expect(result.tokenShare.standard.tokenizer).toBe('o200k_base');
    expect(result.tokenShare.standard.top.count).toBe(42);
  });
});
