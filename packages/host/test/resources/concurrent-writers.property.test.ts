/**
 * Invariant (property): with several concurrent writers, on separate connections, committing ops
 * from random base revisions, each revision is committed exactly once, every rejected op is kept as
 * an open candidate, and the final content equals the accepted ops applied in revision order. On
 * both stores: two hosts on one SQLite workspace, or on one PostgreSQL database (as two machines).
 */
import fc from 'fast-check';
import { Host } from '../../src/host';
import { textKind, type TextContent, type TextOp } from '../../src/plugins/builtin/text-kind';
import { isCoworkError } from '../../src/errors';
import { storeBackends } from '../support/store-backends';
import { tempDir } from '../support/temp-host';

type Attempt = { writer: number; baseOffset: number; op: TextOp };

const opArb: fc.Arbitrary<TextOp> = fc.oneof(
  fc.record({ type: fc.constant('append' as const), text: fc.string({ minLength: 1, maxLength: 4 }) }),
  fc.record({ type: fc.constant('set' as const), text: fc.string({ maxLength: 6 }) }),
  fc.record({ type: fc.constant('insert' as const), at: fc.constant(0), text: fc.string({ minLength: 1, maxLength: 3 }) }),
);

// baseOffset 0 means "the revision I last saw", larger offsets look further back (staler bases).
const attemptArb = (writers: number): fc.Arbitrary<Attempt> =>
  fc.record({ writer: fc.nat({ max: writers - 1 }), baseOffset: fc.nat({ max: 3 }), op: opArb });

describe.each(storeBackends())('concurrent writers on $name (property)', (backend) => {
  beforeAll(() => backend.start(), 120_000);
  afterAll(() => backend.stop());

  it('commit each revision once, keep every rejected op, and fold to the accepted ops', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 4 }).chain((n) => fc.tuple(fc.constant(n), fc.array(attemptArb(n), { minLength: 1, maxLength: 30 }))), async ([writerCount, attempts]) => {
        const dir = tempDir();
        // Two hosts = two connections on one workspace, as a server and a CLI (or two machines) would be.
        const database = await backend.database();
        const hosts = [await Host.open({ workspaceDir: dir.path, ...database }), await Host.open({ workspaceDir: dir.path, ...database })];
        try {
          const resource = await hosts[0]!.resources.create({ kind: 'text', operator: 'human:owner' });
          const lastSeen = new Array<number>(writerCount).fill(0);
          const accepted: number[] = [];
          const rejected: { op: TextOp; candidateId: string }[] = [];

          // Each writer runs its attempts in order; writers run concurrently.
          await Promise.all(
            Array.from({ length: writerCount }, async (_, w) => {
              const host = hosts[w % hosts.length]!;
              for (const attempt of attempts.filter((a) => a.writer === w)) {
                const base = Math.max(0, lastSeen[w]! - attempt.baseOffset);
                try {
                  const { revision } = await host.resources.commit(resource.id, { baseRevision: base, op: attempt.op, operator: `agent:w${w}` });
                  accepted.push(revision);
                  lastSeen[w] = revision;
                } catch (error) {
                  if (!isCoworkError(error)) throw error;
                  if (error.code === 'invalid_op') continue; // e.g. nothing; text ops here always apply
                  expect(error.code).toBe('revision_conflict');
                  rejected.push({ op: attempt.op, candidateId: error.details.candidateId as string });
                  lastSeen[w] = error.details.currentRevision as number;
                }
              }
            }),
          );

          const head = await hosts[1]!.resources.get(resource.id);
          const history = await hosts[1]!.resources.history(resource.id);
          // Each revision exactly once, contiguous from 0, one per acknowledged commit.
          expect(history.map((h) => h.revision)).toEqual(Array.from({ length: head.revision + 1 }, (_, i) => i));
          expect([...accepted].sort((a, b) => a - b)).toEqual(history.slice(1).map((h) => h.revision));
          // Every rejected op is an open candidate with that op.
          const open = await hosts[0]!.resources.listCandidates(resource.id, 'open');
          expect(open).toHaveLength(rejected.length);
          for (const r of rejected) expect(open.find((c) => c.id === r.candidateId)?.ops).toEqual([r.op]);
          // The content is the fold of the accepted ops in revision order.
          const folded = history.slice(1).reduce<TextContent>((content, h) => textKind.applyOp(content, h.op as TextOp), { text: '' });
          expect(head.content).toEqual(folded);
        } finally {
          await Promise.all(hosts.map((h) => h.close()));
          dir.cleanup();
        }
      }),
      { numRuns: 25 },
    );
  }, 180_000);
});
