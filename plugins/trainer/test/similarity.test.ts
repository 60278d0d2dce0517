import { collect, filterSamples } from '../src/dataset-builder';
import { FAMILY_TOOLS } from '../src/family/catalog';
import { generate } from '../src/family/families';
import { loaded, record, type Msg } from './support';

describe('held-out similarity filter', () => {
  test('planted near-duplicates of held-out tasks are removed and counted; the rest stay', () => {
    const train = [...generate('read_value', 'train', 40, 1), ...generate('commit_line', 'train', 40, 1)];
    const heldout = [...generate('read_value', 'heldout', 10, 1), ...generate('commit_line', 'heldout', 10, 1)];
    // Plant: six held-out requests copied with a light rewording, and two copied verbatim.
    const planted = heldout.slice(0, 8).map((task, i) => ({
      ...task,
      id: `planted-${i}`,
      request: i < 6 ? `Please: ${task.request.replace('tell me', 'report')}` : task.request,
    }));
    const runs = [...train, ...planted].map((task) => {
      const messages = task.messages.map((m, j) => (j === 0 ? { role: 'user', content: task.request } : m)) as Msg[];
      return loaded(record(task.id, messages, { request: task.request }));
    });
    const result = filterSamples(collect(runs).samples, {
      tools: FAMILY_TOOLS,
      heldout: heldout.map((t) => ({ id: t.id, request: t.request })),
      ancestorHashes: new Set(),
    });
    const similarity = result.filters.find((f) => f.filter === 'heldout_similarity')!;
    expect(similarity.input).toBe(88);
    expect(similarity.byReason).toEqual({ near_heldout: 8 });
    expect(similarity.dropped.map((d) => d.source).sort()).toEqual(planted.map((p) => `records/${p.id}.0.json`).sort());
    expect(similarity.dropped[0]!.detail).toMatch(/^request is \d\.\d{3} similar to held-out task (read-value|commit-line)-heldout-1-\d+ \(threshold 0\.8\)$/);
    expect(result.kept).toHaveLength(80);
  });
});
