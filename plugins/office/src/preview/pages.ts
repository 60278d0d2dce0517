import { readFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { contactSheet } from './contact-sheet';

export interface RenderedPage {
  readonly png: Uint8Array;
  readonly width: number;
  readonly height: number;
  /** Every pixel has the same colour: nothing visible was drawn on the page. */
  readonly blank: boolean;
}

/** The page images pdftoppm wrote, and all of them stacked in one image (none without pages). */
export interface PageImages {
  readonly pages: RenderedPage[];
  readonly sheet: Uint8Array | undefined;
}

/**
 * Reads and decodes the page PNGs at `paths` (in page order), checks each for a blank page and
 * stacks them into the contact sheet. The sheet is made here, while the pages are decoded for the
 * blank check anyway: decoding is most of its cost, and the web page asks for it every time. A
 * 30-page document takes a second or more of CPU, so this runs in an office worker (../offload).
 */
export function pageImages(paths: readonly string[]): PageImages {
  const decoded = paths.map((path) => {
    const png = readFileSync(path);
    return { png, image: PNG.sync.read(png) };
  });
  return {
    // A copy that owns its memory: small files are read into Node's shared buffer pool, which cannot be transferred.
    pages: decoded.map(({ png, image }) => ({ png: new Uint8Array(png), width: image.width, height: image.height, blank: isUniform(image.data) })),
    sheet: decoded.length > 0 ? contactSheet(decoded.map(({ image }) => image)) : undefined,
  };
}

/** Whether every RGBA pixel equals the first. */
function isUniform(rgba: Buffer): boolean {
  const first = rgba.readUInt32LE(0);
  for (let i = 4; i < rgba.length; i += 4) if (rgba.readUInt32LE(i) !== first) return false;
  return true;
}
