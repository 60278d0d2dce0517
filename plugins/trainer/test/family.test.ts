import { Bm25 } from '../src/bm25';
import { FAMILIES, generate, RANGES, type FamilyTask } from '../src/family/families';

/** Resource ids are unique per instance; masking them keeps the check about the words and values. */
const masked = (request: string) => request.replace(/res_[0-9a-f]+/g, 'res');

function worstMatches(train: readonly FamilyTask[], heldout: readonly FamilyTask[]): number {
  const requests = [...train, ...heldout].map((t) => masked(t.request));
  const bm25 = new Bm25(requests);
  let leaks = 0;
  for (const t of train) if (heldout.some((h) => bm25.similarity(masked(h.request), masked(t.request)) >= 0.8)) leaks++;
  return leaks;
}

describe('task families', () => {
  test('held-out value ranges and words are disjoint from training', () => {
    const [a, b] = [RANGES.train, RANGES.heldout];
    expect(a.numbers[1]).toBeLessThan(b.numbers[0]);
    expect(a.revisions[1]).toBeLessThan(b.revisions[0]);
    for (const key of ['services', 'keys', 'words'] as const) expect(a[key].filter((w) => b[key].includes(w))).toEqual([]);
  });

  test('no generated training prompt matches a held-out one at >= 0.8 BM25 (ids masked)', () => {
    for (const family of FAMILIES) {
      const train = generate(family, 'train', 300, 3);
      const heldout = generate(family, 'heldout', 60, 3);
      expect(worstMatches(train, heldout)).toBe(0);
    }
  });

  test('the check has teeth: drawing held-out from the training ranges leaks', () => {
    const train = generate('read_value', 'train', 300, 3);
    const sameRanges = generate('read_value', 'train', 60, 4);
    // Training keys come from 200 pseudo-words, so fewer twins than with a short list, and still many.
    expect(worstMatches(train, sameRanges)).toBeGreaterThan(10);
  });

  test('instances are deterministic by seed, and answers come from the resource or the request', () => {
    expect(generate('read_value', 'train', 5, 9)).toEqual(generate('read_value', 'train', 5, 9));
    for (const task of generate('read_value', 'heldout', 20, 2)) {
      expect(task.resource!.text).toContain(`= ${task.answer}\n`);
      expect(Number(task.answer)).toBeGreaterThanOrEqual(5000);
      const last = task.messages[task.messages.length - 1]!;
      const finish = last.role === 'assistant' ? last.toolCalls![0]! : undefined;
      expect(finish?.name).toBe('finish');
      expect((JSON.parse(finish!.arguments) as { summary: string }).summary).toContain(task.answer);
    }
    for (const task of generate('commit_line', 'train', 20, 2)) {
      const call = task.messages[1]!;
      const args = JSON.parse(call.role === 'assistant' ? call.toolCalls![0]!.arguments : '{}') as { baseRevision: number };
      expect(args.baseRevision).toBe(task.revision);
      expect(task.answer).toBe(`revision ${task.revision + 1}`);
      expect(task.resource!.ops).toHaveLength(task.revision);
    }
    for (const task of generate('create_note', 'heldout', 20, 2)) {
      const create = task.messages[1]!;
      expect(create.role === 'assistant' && create.toolCalls![0]!.name).toBe('create_resource');
      expect(task.script[1]!.toolCalls[0]!.arguments).toEqual({ summary: `Created {{result:id}} holding "${task.line}".` });
    }
  });
});
