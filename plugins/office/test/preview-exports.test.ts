// Invariant: through a real Host, the pdf export of a deck has one page per slide and the png export
// is one valid PNG of every page stacked (its height is the pages' heights plus the gaps); the same
// holds for documents. Each slide's own export (`slide-N`, the deck view's pictures) is its page of
// that render, and a slide past the end is `not_found`. One revision renders once (a second export returns the very same PDF bytes,
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
import { MAX_SLIDE_IMAGES } from '../src/preview/page-exports';
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
    const formats = (await host.exports.formats(r.id)).map((f) => f.format);
    expect(formats.filter((f) => !f.startsWith('slide-')).sort()).toEqual(['pdf', 'png', 'pptx']);
    expect(formats.filter((f) => f.startsWith('slide-'))).toHaveLength(MAX_SLIDE_IMAGES);

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

  });

  it('exports each slide alone as the page of the same render, the pictures the deck view shows', async () => {
    const r = await host.resources.create({ kind: 'office.presentation', content: deck(), operator: 'human:ann' });
    const sheet = PNG.sync.read(Buffer.from((await host.exports.export(r.id, 'png')).data));
    const pictures = (await host.views.view(r.id)).blocks!.flatMap((block) => (block.type === 'group' ? block.blocks.filter((b) => b.type === 'image') : []));
    expect(pictures.map((picture) => picture.type === 'image' && picture.url)).toEqual([1, 2, 3].map((n) => `/api/resources/${r.id}/export/slide-${n}?revision=0`));
    const second = await host.exports.export(r.id, 'slide-2');
    expect(second.mediaType).toBe('image/png');
    const page = PNG.sync.read(Buffer.from(second.data));
    const top = page.height + SHEET_GAP;
    expect([page.width, 3 * page.height + 2 * SHEET_GAP]).toEqual([sheet.width, sheet.height]);
    // Its pixels are the sheet's second page, and not the first's.
    const rowsOf = (image: PNG, from: number): Buffer => image.data.subarray(from * image.width * 4, (from + page.height) * image.width * 4);
    expect(rowsOf(sheet, top).equals(page.data)).toBe(true);
    expect(rowsOf(sheet, 0).equals(page.data)).toBe(false);
    const missing = await host.exports.export(r.id, 'slide-4').catch((e: unknown) => e);
    expect(isCoworkError(missing) && [missing.code, missing.message]).toEqual(['not_found', 'the deck has 3 slides; there is no slide 4']);
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
