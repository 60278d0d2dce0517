import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { contactSheet } from './contact-sheet';
import { convertToPdf } from './libreoffice';
import { pdfText, pdfToPngs, type PdfPageText } from './poppler';

/** Page images are rendered at 72 dpi: one pixel per PDF point, so word boxes map to pixels as they are. */
export const PREVIEW_DPI = 72;

/** An office file as LibreOffice reads it. */
export interface OfficeFile {
  readonly data: Uint8Array;
  /** `pptx` or `docx`: LibreOffice picks its importer by the extension. */
  readonly extension: string;
}

export interface RenderedPage {
  readonly png: Uint8Array;
  readonly width: number;
  readonly height: number;
  /** Every pixel has the same colour: nothing visible was drawn on the page. */
  readonly blank: boolean;
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
 * scratch directory removed afterwards. The contact sheet is made here, while the pages are decoded
 * for the blank check anyway: decoding is most of its cost, and the web page asks for it every time.
 */
export async function renderOffice(file: OfficeFile, signal: AbortSignal): Promise<Render> {
  const dir = mkdtempSync(join(tmpdir(), 'cowork-preview-'));
  try {
    const pdfPath = join(dir, 'render.pdf');
    await convertToPdf(file.data, file.extension, pdfPath, { signal });
    const text = await pdfText(pdfPath, signal);
    const pngs = await pdfToPngs(pdfPath, dir, PREVIEW_DPI, signal);
    const decoded = pngs.map((path) => {
      const png = readFileSync(path);
      return { png, image: PNG.sync.read(png) };
    });
    return {
      source: file,
      pdf: new Uint8Array(readFileSync(pdfPath)),
      text,
      pages: decoded.map(({ png, image }) => ({ png: new Uint8Array(png), width: image.width, height: image.height, blank: isUniform(image.data) })),
      sheet: decoded.length > 0 ? contactSheet(decoded.map(({ image }) => image)) : undefined,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether every RGBA pixel equals the first. */
function isUniform(rgba: Buffer): boolean {
  const first = rgba.readUInt32LE(0);
  for (let i = 4; i < rgba.length; i += 4) if (rgba.readUInt32LE(i) !== first) return false;
  return true;
}
