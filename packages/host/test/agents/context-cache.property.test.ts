/**
 * Invariant (property): the context loader's cache changes nothing but the reads. As an agent's
 * log grows turn by turn (messages of random sizes, now and then several at once, a compaction
 * now and then, another budget, another tokenizer), a load with the agent's cache answers exactly
 * what a load without one answers: the same messages, summary and count of omitted ones, and that
 * count is the number of records a full read finds before the window.
 */
import fc from 'fast-check';
import { loadRecentContext, PAGE, RecentContextCache } from '../../src/agents/context-loader';
import { charEstimateTokenizer, tokenizerFor } from '../../src/models/tokenizer';
import type { Json } from '../../src/store/records';
import { openTempHost } from '../support/temp-host';

type Step = { kind: 'append'; count: number; size: number } | { kind: 'compact' } | { kind: 'budget'; tokens: number } | { kind: 'tokenizer' };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 12, arbitrary: fc.record({ kind: fc.constant('append' as const), count: fc.integer({ min: 1, max: 3 * PAGE }), size: fc.integer({ min: 1, max: 30 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('compact' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('budget' as const), tokens: fc.integer({ min: 50, max: 8_000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('tokenizer' as const) }) },
);

it('a cached load answers what an uncached load answers, as the log grows and compacts', async () => {
  const tokenizers = [tokenizerFor('gpt-4o'), charEstimateTokenizer];
  await fc.assert(
    fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 25 }), async (steps) => {
      const host = await openTempHost({ synchronous: 'NORMAL' });
      try {
        const cache = new RecentContextCache();
        let budget = 2_000;
        let which = 0;
        let turn = 0;
        for (const step of steps) {
          if (step.kind === 'append') {
            await host.store.transaction(async (tx) => {
              for (let i = 0; i < step.count; i++) {
                turn += 1;
                const message: Json = { role: 'user', content: `${turn} ${'word '.repeat(step.size)}` };
                await tx.conversation.append({ taskId: 'task_c', agentId: 'main', turn, message, sourceMessageId: null, createdAt: 't' });
              }
            });
          } else if (step.kind === 'compact') {
            await host.store.transaction(async (tx) => {
              const last = (await tx.conversation.list('task_c', 'main')).at(-1)?.seq ?? 0;
              await tx.compactions.insert({ taskId: 'task_c', agentId: 'main', summarisedToSeq: Math.max(0, last - 5), summary: `up to ${last - 5}`, dropped: null, createdAt: 't' });
            });
          } else if (step.kind === 'budget') budget = step.tokens;
          else which = 1 - which;
          const tokenizer = tokenizers[which]!;
          const plain = await loadRecentContext(host.store, 'task_c', 'main', budget, tokenizer);
          const withCache = await loadRecentContext(host.store, 'task_c', 'main', budget, tokenizer, cache);
          expect(withCache).toEqual(plain);
          // The omitted count, which the loader takes from the seqs, is what a full read counts.
          const all = await host.store.read(async (tx) => tx.conversation.list('task_c', 'main', (await tx.compactions.latest('task_c', 'main'))?.summarisedToSeq ?? 0));
          expect(plain.omitted).toBe(all.length - plain.messages.length);
        }
      } finally {
        await host.dispose();
      }
    }),
    { numRuns: 30 },
  );
}, 180_000);
