// Invariant: a deck exported to pptx and imported back through a real Host keeps its slide order,
// titles, layouts, bullet text and levels, styled runs, tables, charts, images and notes; a pptx
// written by another program (LibreOffice) imports its titles, bullets and tables; and bytes that
// are not a readable pptx (random bytes, a zip without ppt/presentation.xml, a truncated file) are
// refused as `invalid_file` with a message saying what is wrong, creating no resource.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import JSZip from 'jszip';
import { isCoworkError } from '@cowork/host';
import { openTempHost, type TempHost } from '@cowork/host/testkit';
import { plugin, type Presentation } from '../src';
import { renderPptx } from '../src/presentation/export-pptx';
import { richDeck } from './deck';

describe('office.presentation pptx import', () => {
  let host: TempHost;

  beforeEach(async () => {
    host = await openTempHost({ plugins: [plugin], prefix: 'cowork-office-import-' });
  });

  afterEach(() => host.dispose());

  const importDeck = async (data: Uint8Array, fileName: string): Promise<Presentation> => {
    const record = await host.imports.importFile({ kind: 'office.presentation', data, fileName, operator: 'human:ann' });
    return record.content as Presentation;
  };

  it('round-trips every part of the model except slide ids, title styles and hidden titles', async () => {
    const original = richDeck();
    const r = await host.resources.create({ kind: 'office.presentation', content: original, operator: 'human:ann' });
    const exported = await host.exports.export(r.id, 'pptx');
    const back = await importDeck(exported.data as Uint8Array, 'launch.pptx');

    // A blank slide shows no title, so none is written to the file.
    const withoutIds = (deck: Presentation): unknown => ({
      ...deck,
      slides: deck.slides.map(({ id: _id, titleStyle: _style, elements, ...rest }) => ({
        ...rest,
        title: rest.layout === 'blank' ? '' : rest.title,
        elements: elements ?? [],
      })),
    });
    expect(withoutIds(back)).toEqual(withoutIds(original));
    expect(back.slides.map((s) => s.id)).toEqual(['s1', 's2', 's3', 's4', 's5']);
  });

  it('imports titles, bullets with levels and tables from a pptx LibreOffice wrote', async () => {
    const source = join(host.dir, 'source.pptx');
    writeFileSync(source, await renderPptx(richDeck()));
    const out = join(host.dir, 'lo');
    execFileSync('soffice', ['--headless', '--norestore', `-env:UserInstallation=file://${join(host.dir, 'profile')}`, '--convert-to', 'pptx:Impress MS PowerPoint 2007 XML', '--outdir', out, source], { stdio: 'ignore', timeout: 60_000 });
    const back = await importDeck(readFileSync(join(out, 'source.pptx')), 'source.pptx');

    expect(back.slides.map((s) => s.title)).toEqual(['Project Lighthouse', 'Goals for the quarter', 'Budget by team', 'Signups per month', '']);
    expect(back.slides[1]?.bullets.map((b) => [b.text, b.level])).toEqual([
      ['Ship the beta to ten customers', 0],
      ['Onboarding under five minutes', 1],
      ['Weekly demos', 2],
      ['Hire two engineers', 0],
    ]);
    const table = back.slides[2]?.elements?.find((e) => e.type === 'table');
    expect(table?.type === 'table' && table.table.rows).toEqual([['Team', 'Q1', 'Q2'], ['Design', '12', '14'], ['Engineering', '40', '45']]);
    expect(back.slides[1]?.notes).toContain('Stress the beta date.');
  });

  it.each<[string, () => Promise<Uint8Array>, RegExp]>([
    ['random bytes', async () => Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251), /not a readable \.pptx/],
    ['a zip with no ppt/presentation.xml', async () => new JSZip().file('word/document.xml', '<w:document/>').generateAsync({ type: 'uint8array' }), /no ppt\/presentation\.xml.*Word document/],
    ['a truncated pptx', async () => (await renderPptx(richDeck())).slice(0, 20_000), /not a readable \.pptx/],
    ['a pptx with a damaged slide', async () => damagedSlide(), /ppt\/slides\/slide1\.xml is not well-formed XML/],
  ])('refuses %s as invalid_file and creates nothing', async (_name, bytes, message) => {
    let error: unknown;
    try {
      await importDeck(await bytes(), 'bad.pptx');
    } catch (caught) {
      error = caught;
    }
    expect(isCoworkError(error) && error.code).toBe('invalid_file');
    expect(error instanceof Error && error.message).toMatch(message);
    expect(await host.resources.list({ kind: 'office.presentation' })).toEqual([]);
  });
});

async function damagedSlide(): Promise<Uint8Array> {
  const zip = await JSZip.loadAsync(await renderPptx(richDeck()));
  zip.file('ppt/slides/slide1.xml', '<p:sld><p:cSld><p:spTree></p:sld>');
  return zip.generateAsync({ type: 'uint8array' });
}
