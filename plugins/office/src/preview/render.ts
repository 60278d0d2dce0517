import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pageImagesOffThread } from '../offload/calls';
import { convertToPdf } from './libreoffice';
import type { RenderedPage } from './pages';
import { pdfText, pdfToPngs, type PdfPageText } from './poppler';

export type { RenderedPage } from './pages';

/** Page images are rendered at 72 dpi: one pixel per PDF point, so word boxes map to pixels as they are. */
export const PREVIEW_DPI = 72;

/** An office file as LibreOffice reads it. */
export interface OfficeFile {
  readonly data: Uint8Array;
  /** `pptx` or `docx`: LibreOffice picks its importer by the extension. */
  readonly extension: string;
}

/**
 * One office file rendered: the file, its PDF, each page's words (their count is the PDF's page
 * count), the page images pdftoppm made, and those pages stacked in one image (none without pages).
 */
export interface Render {
  readonly source: OfficeFile;
  readonly pdf: Uint8Array;
  readonly text: readonly PdfPageText[];
  readonly pages: readonly RenderedPage[];
  readonly sheet: Uint8Array | undefined;
}

/**
 * Renders an office file through LibreOffice (PDF) and poppler (page PNGs, word boxes), in a
 * scratch directory removed afterwards. The host's event loop only waits here: the programs run
 * in their own processes, files are read and written asynchronously, and decoding the pages and
 * stacking them (./pages.ts) runs in an office worker thread.
 */
export async function renderOffice(file: OfficeFile, signal: AbortSignal): Promise<Render> {
  const dir = await mkdtemp(join(tmpdir(), 'cowork-preview-'));
  try {
    const pdfPath = join(dir, 'render.pdf');
    await convertToPdf(file.data, file.extension, pdfPath, { signal });
    const text = await pdfText(pdfPath, signal);
    const pngs = await pdfToPngs(pdfPath, dir, PREVIEW_DPI, signal);
    const { pages, sheet } = await pageImagesOffThread(pngs, signal);
    const pdf = await readFile(pdfPath);
    return { source: file, pdf: new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength), text, pages, sheet };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
