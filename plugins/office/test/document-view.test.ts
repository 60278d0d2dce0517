// Invariant: a document's view passes the host's view schema as an outline, one group per block
// (selecting the block by id), headings and paragraphs as fields and a unique label on every
// control; each control, used as the page uses it, changes exactly its part of the document through
// a real host (styles of the text that stayed are kept); a value the kind refuses (an empty heading,
// a heading level of 4) is answered with the reason, and nothing is written.
import { isCoworkError } from '@cowork/host';
import { controlLabels, fieldKeys, openTempHost, useControl, type TempHost } from '@cowork/host/testkit';
import { plugin, type DocumentContent } from '../src';
import { plainText } from '../src/shared/runs';
import { sampleDocument } from './document-fixtures';

describe('office.document view', () => {
  let host: TempHost;
  let id: string;

  beforeEach(async () => {
    host = await openTempHost({ plugins: [plugin], prefix: 'cowork-office-view-' });
    id = (await host.resources.create({ kind: 'office.document', content: sampleDocument(), operator: 'human:ann' })).id;
  });

  afterEach(() => host.dispose());

  const content = async (): Promise<DocumentContent> => (await host.resources.get(id)).content as DocumentContent;
  const outline = (doc: DocumentContent): string[] =>
    doc.blocks.map((b) => `${b.id} ${b.type}${b.type === 'heading' || b.type === 'paragraph' ? ` ${plainText(b.runs)}` : ''}`);

  it('shows the outline as one group per block, headings and paragraphs editable in place, every label unique', async () => {
    const view = await host.views.view(id);
    const blocks = view.blocks ?? [];
    const groups = blocks.filter((block) => block.type === 'group');
    expect(groups.map((group) => [group.title, group.selection])).toEqual([
      ['Block 1: heading 1 "Introduction"', { blockId: 'intro' }],
      ['Block 2: paragraph "Sales rose sharply in spring."', { blockId: 'summary' }],
      ['Block 3: bulleted list of 3 items: "Europe grew", "Germany led", "Asia held steady"', { blockId: 'points' }],
      ['Block 4: table 3x2 with header: "Region | Sales"', { blockId: 'figures' }],
      ['Block 5: paragraph "Next steps follow."', { blockId: 'closing' }],
    ]);
    expect(groups[1]!.blocks[0]).toEqual({ type: 'field', label: 'Block 2 paragraph', key: 'block summary paragraph', value: 'Sales rose sharply in spring.', op: { type: 'set_text', blockId: 'summary' }, field: 'text', input: 'textarea' });
    expect(groups[3]!.blocks[0]).toEqual({ type: 'table', header: ['Region', 'Sales'], rows: [['Europe', '120'], ['Asia', '95']] });
    expect(blocks[blocks.length - 1]).toEqual({ type: 'image', url: `/api/resources/${id}/export/png?revision=0`, alt: expect.any(String) });
    const labels = controlLabels(blocks);
    expect(new Set(labels).size).toBe(labels.length);
    // The heading's text and level, and each paragraph, each by its own key.
    const keys = fieldKeys(blocks);
    expect([keys.length, new Set(keys).size]).toEqual([4, 4]);
    expect(labels).toEqual(expect.arrayContaining(['Document title', 'Block 1 heading', 'Block 1 heading level', 'Add heading', 'New heading text', 'Add paragraph', 'Move block 5 up', 'Delete block 3']));
    expect(labels).not.toContain('Move block 1 up');
    expect(labels).not.toContain('Move block 5 down');
  });

  it('commits each control as the page does and the document changes accordingly', async () => {
    await useControl(host, id, 'Document title', 'Spring report');
    await useControl(host, id, 'Block 1 heading', 'Overview');
    await useControl(host, id, 'Block 1 heading level', 2);
    await useControl(host, id, 'Block 2 paragraph', 'Sales rose sharply in May.');
    await useControl(host, id, 'Add heading', { text: 'Outlook' });
    await useControl(host, id, 'Add paragraph', { text: 'Steady growth.' });
    await useControl(host, id, 'Move block 5 down'); // closing goes after the new heading
    await useControl(host, id, 'Move block 2 up');
    await useControl(host, id, 'Add paragraph after block 1');
    await useControl(host, id, 'Block 2 paragraph', 'Written in May.');
    await useControl(host, id, 'Delete block 5');
    const after = await content();
    expect(after.title).toBe('Spring report');
    expect(outline(after)).toEqual([
      'summary paragraph Sales rose sharply in May.',
      'paragraph-2 paragraph Written in May.',
      'intro heading Overview',
      'points list',
      'heading-1 heading Outlook',
      'closing paragraph Next steps follow.',
      'paragraph-1 paragraph Steady growth.',
    ]);
    expect(after.blocks[0]).toEqual({ id: 'summary', type: 'paragraph', runs: [{ text: 'Sales rose ' }, { text: 'sharply', bold: true }, { text: ' in May.' }] });
    expect(after.blocks[2]).toMatchObject({ type: 'heading', level: 2 });
  });

  it.each<[string, string, unknown, RegExp]>([
    ['an empty heading', 'Block 1 heading', ' ', /block "intro": a heading needs text; type its words, or delete the block/],
    ['a new heading without text', 'Add heading', { text: '' }, /a heading needs text/],
    // The op schema refuses it (the page's number field stops at 3 first); its problems name the field.
    ['a heading level of 4', 'Block 1 heading level', 4, /\/level must be equal to one of the allowed values/],
  ])('refuses %s with the reason and writes nothing', async (_name, label, value, message) => {
    const error = await useControl(host, id, label, value as never).catch((e: unknown) => e);
    const said = isCoworkError(error) ? [error.message, ...((error.details.problems as string[] | undefined) ?? [])] : [];
    expect(isCoworkError(error) && error.code).toBe('invalid_op');
    expect(said).toContainEqual(expect.stringMatching(message));
    const now = await host.resources.get(id);
    expect([now.revision, now.content]).toEqual([0, sampleDocument()]);
  });
});
