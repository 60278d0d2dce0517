// Invariant: through a real Host, a person's edit of one block and an agent's insert made from the
// same base both land: the second commit gets `revision_conflict`, its op is kept as a candidate,
// and accepting it on the new base keeps both changes. Bad ops (a missing block, a 50 MB image)
// are refused with a clear error and write no revision. Summaries stay compact: a 30-page document
// summarizes as an outline of headings with block counts, not its text.
import { join } from 'node:path';
import { isCoworkError } from '@cowork/host';
import { Host, PluginRegistry } from '@cowork/host/embed';
import { openTempHost, type TempHost } from '@cowork/host/testkit';
import { plugin, type DocumentContent } from '../src';
import { longDocument, paragraph, sampleDocument } from './document-fixtures';

async function codeOf(attempt: () => Promise<unknown>): Promise<{ code: unknown; message: string }> {
  try {
    await attempt();
  } catch (error) {
    return { code: isCoworkError(error) ? error.code : error, message: error instanceof Error ? error.message : '' };
  }
  return { code: 'ok', message: '' };
}

const hugeImage = (megabytes: number): string => `data:image/png;base64,${'A'.repeat(Math.ceil((megabytes * 1024 * 1024 * 4) / 3))}`;

describe('office.document in a host', () => {
  let host: TempHost;

  beforeEach(async () => {
    host = await openTempHost({ plugins: [plugin], prefix: 'cowork-office-doc-' });
  });

  afterEach(() => host.dispose());

  it('passes the loader checks and lists docx among the imports', () => {
    expect(new PluginRegistry().check(plugin)).toEqual([]);
    expect(host.pluginProblems).toEqual([]);
    expect(host.registry.kinds().map((k) => k.kind.name)).toContain('office.document');
    expect(host.imports.formats('office.document')).toEqual([expect.objectContaining({ format: 'docx', extension: 'docx' })]);
  });

  it("keeps both a person's edit of block 2 and an agent's insert from the same base", async () => {
    const r = await host.resources.create({ kind: 'office.document', content: sampleDocument(), operator: 'human:ann' });
    const base = r.revision;
    await host.resources.commit(r.id, { baseRevision: base, op: { type: 'set_runs', blockId: 'summary', runs: [{ text: 'Sales doubled.' }] }, operator: 'human:ann' });

    const conflict = await codeOf(() =>
      host.resources.commit(r.id, { baseRevision: base, op: { type: 'insert_block', after: 'figures', block: paragraph('risks', 'Risks remain.') }, operator: 'agent:a1' }),
    );
    expect(conflict.code).toBe('revision_conflict');
    const [candidate] = await host.resources.listCandidates(r.id, 'open');
    if (!candidate) throw new Error('expected the agent op kept as a candidate');

    const accepted = await host.resources.acceptCandidate(candidate.id, { operator: 'agent:a1', baseRevision: base + 1 });
    const content = (await host.resources.get(r.id)).content as DocumentContent;
    expect(content.blocks.map((b) => b.id)).toEqual(['intro', 'summary', 'points', 'figures', 'risks', 'closing']);
    expect(content.blocks[1]).toEqual({ id: 'summary', type: 'paragraph', runs: [{ text: 'Sales doubled.' }] });
    const diff = await host.resources.diff(r.id, base, accepted.revision);
    expect(diff).toContain('block 2 [summary]: paragraph "Sales rose sharply in spring." → paragraph "Sales doubled."');
    expect(diff).toContain('added block 5 [risks] paragraph "Risks remain."');
  });

  it('refuses an op on a missing block and a 50 MB image, writing no revision', async () => {
    const r = await host.resources.create({ kind: 'office.document', content: sampleDocument(), operator: 'human:ann' });
    const missing = await codeOf(() => host.resources.commit(r.id, { baseRevision: 0, op: { type: 'delete_block', blockId: 'ghost' }, operator: 'agent:a1' }));
    expect(missing.code).toBe('invalid_op');
    expect(missing.message).toMatch(/no block with id "ghost"; the document has intro \(heading\)/);

    const image = { type: 'insert_block', block: { id: 'big', type: 'image', image: { src: hugeImage(50), alt: 'huge' } } };
    const tooBig = await codeOf(() => host.resources.commit(r.id, { baseRevision: 0, op: image, operator: 'agent:a1' }));
    expect(tooBig.code).toBe('content_too_large');
    expect((await host.resources.get(r.id)).revision).toBe(0);
  });

  it("refuses a 50 MB image by the plugin's own check when the host allows large contents", async () => {
    const roomy = await Host.open({ workspaceDir: join(host.dir, 'roomy'), plugins: [plugin], limits: { maxContentBytes: 256 * 1024 * 1024 } });
    try {
      const r = await roomy.resources.create({ kind: 'office.document', content: sampleDocument(), operator: 'human:ann' });
      const image = { type: 'insert_block', block: { id: 'big', type: 'image', image: { src: hugeImage(50), alt: 'huge' } } };
      const refused = await codeOf(() => roomy.resources.commit(r.id, { baseRevision: 0, op: image, operator: 'agent:a1' }));
      expect(refused.code).toBe('invalid_op');
      expect(refused.message).toMatch(/image is 50\.0 MB but at most 5\.0 MB is allowed; scale the image down/);
      expect((await roomy.resources.get(r.id)).revision).toBe(0);
    } finally {
      await roomy.close();
    }
  });

  it('summarizes a short document block by block and a 30-page one as an outline', async () => {
    const short = await host.resources.create({ kind: 'office.document', content: sampleDocument(), operator: 'human:ann' });
    const summary = await host.resources.summarize(short.id);
    expect(summary.split('\n')).toEqual([
      'document "Field report", A4 portrait, margins 25/20/25/20 mm; 5 blocks, 22 words',
      '[intro] heading 1 "Introduction"',
      '[summary] paragraph "Sales rose sharply in spring."',
      '[points] bulleted list of 3 items: "Europe grew", "Germany led", "Asia held steady"',
      '[figures] table 3x2 with header: "Region | Sales"',
      '[closing] paragraph "Next steps follow."',
    ]);

    const long = longDocument(30);
    const r = await host.resources.create({ kind: 'office.document', content: long, operator: 'human:ann' });
    const outline = await host.resources.summarize(r.id);
    const lines = outline.split('\n');
    expect(lines).toHaveLength(2 + 30);
    expect(lines[2]).toBe('[h-1] # "Section 1": 3 blocks (2 paragraphs, 1 page break), p-1-a … break-2');
    expect(lines[4]).toBe('[h-3] # "Section 3": 4 blocks (2 paragraphs, 1 list, 1 page break), p-3-a … break-4');
    expect(outline).not.toContain('opens with a paragraph');
    expect(outline.length).toBeLessThan(JSON.stringify(long).length / 5);
  });
});
