// Invariant: through a real Host, the pdf export of a deck has one page per slide and the png export
// is one valid PNG of every page stacked (its height is the pages' heights plus the gaps); the same
// holds for documents. One revision renders once (a second export returns the very same PDF bytes,
// which two LibreOffice runs never do). An aborted or timed-out conversion leaves no soffice process
// and no scratch directory behind, and a missing LibreOffice is an error naming the Debian packages.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isCoworkError } from '@cowork/host';
import { openTempHost, type TempHost } from '@cowork/host/testkit';
import { PNG } from 'pngjs';
import { plugin } from '../src';
import { SHEET_GAP } from '../src/preview/contact-sheet';
import { convertToPdf } from '../src/preview/libreoffice';
import { deck, slide } from './deck';
import { sampleDocument } from './document-fixtures';
import { childProcesses, pdfInfo, processesMentioning, sofficeProfiles, waitFor } from './preview-support';

describe('office pdf and png exports', () => {
  let host: TempHost;

  beforeAll(async () => {
    host = await openTempHost({ plugins: [plugin], prefix: 'cowork-office-preview-' });
  });

  afterAll(() => host.dispose());

  it('exports a deck as a PDF with a page per slide and as one stacked PNG, rendered once per revision', async () => {
    const content = deck();
    content.slides.push(slide('end', 'Questions', { layout: 'title_only' }));
    const r = await host.resources.create({ kind: 'office.presentation', content, operator: 'human:ann' });
    expect((await host.exports.formats(r.id)).map((f) => f.format).sort()).toEqual(['pdf', 'png', 'pptx']);

    const pdf = await host.exports.export(r.id, 'pdf');
    expect(pdf.mediaType).toBe('application/pdf');
    expect(pdf.fileName).toBe(`${r.id}-r0.pdf`);
    const info = pdfInfo(pdf.data, host.dir);
    expect(info.pages).toBe(4);

    const png = await host.exports.export(r.id, 'png');
    expect(png.mediaType).toBe('image/png');
    const image = PNG.sync.read(Buffer.from(png.data));
    const pageHeight = Math.ceil(info.height);
    expect(image.width).toBe(Math.ceil(info.width));
    expect(image.height).toBe(4 * pageHeight + 3 * SHEET_GAP);

    const again = await host.exports.export(r.id, 'pdf');
    expect(Buffer.from(again.data).equals(Buffer.from(pdf.data))).toBe(true);

    const view = await host.views.view(r.id);
    expect(view.blocks).toContainEqual({ type: 'image', url: `/api/resources/${r.id}/export/png?revision=0`, alt: expect.any(String) });
  });

  it('exports a document as a PDF and one stacked PNG of its pages', async () => {
    const r = await host.resources.create({ kind: 'office.document', content: sampleDocument(), operator: 'human:ann' });
    const pdf = await host.exports.export(r.id, 'pdf');
    const info = pdfInfo(pdf.data, host.dir);
    expect(info.pages).toBeGreaterThanOrEqual(1);
    expect(Math.round(info.width)).toBe(595); // A4
    const image = PNG.sync.read(Buffer.from((await host.exports.export(r.id, 'png')).data));
    expect(image.height).toBe(info.pages * Math.ceil(info.height) + (info.pages - 1) * SHEET_GAP);
    expect((await host.views.view(r.id)).blocks).toContainEqual(expect.objectContaining({ type: 'image', url: `/api/resources/${r.id}/export/png?revision=0` }));
  });

  it('kills soffice and removes its scratch files when the export is aborted', async () => {
    const r = await host.resources.create({ kind: 'office.presentation', content: { ...deck(), title: 'Aborted deck' }, operator: 'human:ann' });
    const controller = new AbortController();
    const exporting = host.exports.export(r.id, 'pdf', { signal: controller.signal });
    await waitFor(() => sofficeProfiles().length > 0, 'soffice to start');
    const [profile] = sofficeProfiles();
    controller.abort(new Error('the person closed the page'));
    await expect(exporting).rejects.toThrow(/closed the page/);
    // Killed as a process group: soffice.bin, which oosplash started, is gone too (not left to init).
    expect(processesMentioning(profile!)).toEqual([]);
    expect(childProcesses().filter((cmdline) => cmdline.includes('soffice'))).toEqual([]);
    expect(existsSync(profile!)).toBe(false);
  });

  it('stops a conversion that runs past its timeout, with an error that says so', async () => {
    const pptx = await host.exports.export((await host.resources.create({ kind: 'office.presentation', content: deck(), operator: 'human:ann' })).id, 'pptx');
    const error = await convertToPdf(pptx.data, 'pptx', join(host.dir, 'never.pdf'), { signal: new AbortController().signal, timeoutMs: 50 }).catch((e: unknown) => e);
    expect(isCoworkError(error) && error.details.reason).toBe('timeout');
    expect(String((error as Error).message)).toMatch(/did not finish within/);
    expect(childProcesses().filter((cmdline) => cmdline.includes('soffice'))).toEqual([]);
  });

  it('names the Debian packages when LibreOffice is not installed', () => {
    // A separate process whose PATH holds no soffice (jest keeps its own copy of process.env).
    const script = join(__dirname, 'preview-without-libreoffice.ts');
    const tsx = join(__dirname, '..', '..', '..', 'node_modules', 'tsx', 'dist', 'cli.mjs');
    const out = execFileSync(process.execPath, [tsx, script, join(host.dir, 'no-lo')], { encoding: 'utf8', env: { PATH: join(host.dir, 'empty-bin') } });
    const error = JSON.parse(out) as { code: string; message: string; reason: string; plugin: string };
    expect(error).toMatchObject({ code: 'plugin_failed', reason: 'program_missing', plugin: 'office' });
    expect(error.message).toContain('libreoffice-impress libreoffice-writer');
  });
});
