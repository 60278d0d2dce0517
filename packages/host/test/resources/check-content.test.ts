/**
 * Invariant: a kind's `checkContent` (async, outside the write lock) guards every way content is
 * written: a created content it refuses is `invalid_content`, a commit or an acceptance whose result
 * it refuses is `invalid_op`, and none of them writes anything; a conflicting op is kept as a
 * candidate unchecked and checked when it is accepted on the new base.
 */
import { definePlugin, defineKind } from '../../src/plugins/define-plugin';
import { caught, openTempHost } from '../support/temp-host';

type Bag = { items: string[] };

/** How many times the kind applied an op. */
let applied = 0;

/** A bag that holds at most three items; the check is async, as a geometry kernel's would be. */
const bagKind = defineKind<Bag, { add: string }>({
  name: 'test.bag',
  description: 'A bag of at most three items',
  revisionSemantics: 'host',
  contentSchema: { type: 'object', properties: { items: { type: 'array', items: { type: 'string' } } }, required: ['items'] },
  opSchema: { type: 'object', properties: { add: { type: 'string' } }, required: ['add'] },
  initialContent: () => ({ items: [] }),
  applyOp: (content, op) => {
    applied++;
    return { items: [...content.items, op.add] };
  },
  summarize: (content) => content.items.join(', '),
  diff: () => '',
  checkContent: async (content) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (content.items.includes('boom')) throw new Error('checker crashed');
    return content.items.length > 3 ? [`the bag holds 3 items, not ${content.items.length}`] : [];
  },
});

async function setUp() {
  return openTempHost({ plugins: [definePlugin({ name: 'bag', version: '1.0.0', kinds: [bagKind] })] });
}

it('refuses a created content, a commit and an acceptance the kind rejects, writing nothing', async () => {
  const host = await setUp();
  try {
    const created = await caught(() => host.resources.create({ kind: 'test.bag', content: { items: ['a', 'b', 'c', 'd'] }, operator: 'human:ann' }));
    expect([created.code, created.message]).toEqual(['invalid_content', 'the content the test.bag kind refuses: the bag holds 3 items, not 4']);
    expect(await host.resources.list()).toEqual([]);

    const { id } = await host.resources.create({ kind: 'test.bag', content: { items: ['a', 'b'] }, operator: 'human:ann' });
    await host.resources.commit(id, { baseRevision: 0, op: { add: 'c' }, operator: 'human:ann' });
    const full = await caught(() => host.resources.commit(id, { baseRevision: 1, op: { add: 'd' }, operator: 'agent:a1' }));
    expect(full.code).toBe('invalid_op');
    expect(full.details?.problems).toEqual(['the bag holds 3 items, not 4']);
    expect((await host.resources.get(id)).revision).toBe(1);

    // From an older base the op conflicts and is kept; accepting it on the new base is checked.
    const conflict = await caught(() => host.resources.commit(id, { baseRevision: 0, op: { add: 'e' }, operator: 'agent:a1' }));
    expect(conflict.code).toBe('revision_conflict');
    const candidateId = String(conflict.details?.candidateId);
    const refused = await caught(() => host.resources.acceptCandidate(candidateId, { operator: 'agent:a1', baseRevision: 1 }));
    expect(refused.code).toBe('invalid_op');
    expect((await host.resources.getCandidate(candidateId)).status).toBe('open');
    expect((await host.resources.get(id)).content).toEqual({ items: ['a', 'b', 'c'] });

    const crashed = await caught(() => host.resources.commit(id, { baseRevision: 1, op: { add: 'boom' }, operator: 'agent:a1' }));
    expect([crashed.code, crashed.details?.plugin]).toEqual(['plugin_failed', 'bag']);
    expect((await host.resources.get(id)).revision).toBe(1);
  } finally {
    await host.dispose();
  }
});

it('lets checkContent and exports read other resources: a label that names a bag revision', async () => {
  type Label = { bag: string; revision: number };
  const labelKind = defineKind<Label, { revision: number }>({
    name: 'test.label',
    description: 'Names a revision of a bag',
    revisionSemantics: 'host',
    contentSchema: { type: 'object', properties: { bag: { type: 'string' }, revision: { type: 'integer' } }, required: ['bag', 'revision'] },
    opSchema: { type: 'object', properties: { revision: { type: 'integer' } }, required: ['revision'] },
    initialContent: () => ({ bag: '', revision: 0 }),
    applyOp: (content, op) => ({ ...content, revision: op.revision }),
    summarize: (content) => `${content.bag}@${content.revision}`,
    diff: () => '',
    checkContent: async (content, { resources }) => {
      const bag = await resources.get(content.bag);
      return content.revision > bag.revision ? [`${content.bag} has no revision ${content.revision}`] : [];
    },
    exports: {
      txt: {
        mediaType: 'text/plain',
        extension: 'txt',
        export: async (content, { resources }) => Buffer.from(((await resources.contentAt(content.bag, content.revision)) as Bag).items.join(',')),
      },
    },
  });
  const host = await openTempHost({ plugins: [definePlugin({ name: 'bag', version: '1.0.0', kinds: [bagKind, labelKind] })] });
  try {
    const bag = await host.resources.create({ kind: 'test.bag', content: { items: ['a'] }, operator: 'human:ann' });
    await host.resources.commit(bag.id, { baseRevision: 0, op: { add: 'b' }, operator: 'human:ann' });
    const label = await host.resources.create({ kind: 'test.label', content: { bag: bag.id, revision: 0 }, operator: 'human:ann' });
    expect(Buffer.from((await host.exports.export(label.id, 'txt')).data).toString()).toBe('a');
    await host.resources.commit(label.id, { baseRevision: 0, op: { revision: 1 }, operator: 'agent:a1' });
    expect(Buffer.from((await host.exports.export(label.id, 'txt')).data).toString()).toBe('a,b');
    const refused = await caught(() => host.resources.commit(label.id, { baseRevision: 1, op: { revision: 5 }, operator: 'agent:a1' }));
    expect([refused.code, refused.details?.problems]).toEqual(['invalid_op', [`${bag.id} has no revision 5`]]);
  } finally {
    await host.dispose();
  }
});

it('applies an op once per commit and once per acceptance, checking the content it makes', async () => {
  const host = await setUp();
  try {
    const { id } = await host.resources.create({ kind: 'test.bag', operator: 'human:ann' });
    applied = 0;
    await host.resources.commit(id, { baseRevision: 0, op: { add: 'a' }, operator: 'human:ann' });
    expect(applied).toBe(1);
    const conflict = await caught(() => host.resources.commit(id, { baseRevision: 0, op: { add: 'b' }, operator: 'agent:late' }));
    expect(applied).toBe(1); // a conflicting op is kept as it is, not applied
    applied = 0;
    await host.resources.acceptCandidate(String(conflict.details?.candidateId), { operator: 'human:ann', baseRevision: 1 });
    expect(applied).toBe(1);
    expect((await host.resources.get(id)).content).toEqual({ items: ['a', 'b'] });
  } finally {
    await host.dispose();
  }
});
