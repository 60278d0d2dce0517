import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { runProgram } from './run-program';

const POPPLER_PACKAGES = 'poppler-utils';
const POPPLER_TIMEOUT_MS = 60_000;

/** A word of a PDF page and its box, in PDF points from the page's top-left corner. */
export interface PdfWord {
  readonly text: string;
  readonly xMin: number;
  readonly yMin: number;
  readonly xMax: number;
  readonly yMax: number;
}

export interface PdfPageText {
  /** Page size in points. */
  readonly width: number;
  readonly height: number;
  readonly words: readonly PdfWord[];
}

/**
 * Rasterises every page of a PDF with `pdftoppm -png -r <dpi>` into `outDir` and returns the PNG
 * paths in page order (pdftoppm pads the page number to the page count's width: page-01.png).
 */
export async function pdfToPngs(pdfPath: string, outDir: string, dpi: number, signal: AbortSignal): Promise<string[]> {
  await runProgram('pdftoppm', ['-png', '-r', String(dpi), pdfPath, join(outDir, 'page')], {
    signal,
    timeoutMs: POPPLER_TIMEOUT_MS,
    packages: POPPLER_PACKAGES,
  });
  return (await readdir(outDir))
    .map((name) => ({ name, page: /^page-(\d+)\.png$/.exec(name)?.[1] }))
    .filter((entry): entry is { name: string; page: string } => entry.page !== undefined)
    .sort((a, b) => Number(a.page) - Number(b.page))
    .map((entry) => join(outDir, entry.name));
}

/** Every page of a PDF with its size and its words' boxes (`pdftotext -bbox`); the page count is its length. */
export async function pdfText(pdfPath: string, signal: AbortSignal): Promise<PdfPageText[]> {
  const xhtml = await runProgram('pdftotext', ['-bbox', pdfPath, '-'], { signal, timeoutMs: POPPLER_TIMEOUT_MS, packages: POPPLER_PACKAGES });
  return parseBboxXhtml(xhtml);
}

/** Parses pdftotext's `-bbox` XHTML: `<page width height>` elements holding `<word xMin yMin xMax yMax>` elements. */
export function parseBboxXhtml(xhtml: string): PdfPageText[] {
  const pages: PdfPageText[] = [];
  for (const page of xhtml.matchAll(/<page width="([\d.]+)" height="([\d.]+)">([\s\S]*?)<\/page>/g)) {
    const words: PdfWord[] = [];
    for (const word of page[3]!.matchAll(/<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)<\/word>/g)) {
      words.push({ text: unescapeXml(word[5]!), xMin: Number(word[1]), yMin: Number(word[2]), xMax: Number(word[3]), yMax: Number(word[4]) });
    }
    pages.push({ width: Number(page[1]), height: Number(page[2]), words });
  }
  return pages;
}

function unescapeXml(text: string): string {
  return text.replace(/&(lt|gt|quot|apos|amp);/g, (_, name: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[name] ?? '');
}
