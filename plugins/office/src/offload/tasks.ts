import type { DocumentContent } from '../document/content';
import { renderDocx } from '../document/export-docx';
import { readPptxBoxes, type PptxBoxes } from '../lint/pptx-boxes';
import type { Presentation } from '../presentation/content';
import { renderPptx } from '../presentation/export-pptx';
import { pageImages, type PageImages } from '../preview/pages';
import { renderKey } from '../preview/render-key';

/**
 * The plugin's CPU-heavy work, as messages an office worker thread (./worker.ts) answers: each
 * takes from a hundred milliseconds to seconds on a realistic deck or document (pictures are
 * base64-decoded, zipped and CRC'd in JavaScript; page images are inflated and deflated by pngjs),
 * which on the host's thread would stall every other request for as long.
 */
export type OfficeTask =
  /** The render cache's key of a content: hashing its JSON (megabytes with pictures). */
  | { readonly type: 'render_key'; readonly extension: string; readonly content: unknown }
  /** A deck as pptx bytes (pptxgenjs, then the paragraph-properties fix-up). */
  | { readonly type: 'pptx'; readonly deck: Presentation }
  /** A document as docx bytes (the `docx` library). */
  | { readonly type: 'docx'; readonly document: DocumentContent }
  /** Page PNGs on disk decoded, checked for blank pages, and stacked into the contact sheet. */
  | { readonly type: 'page_images'; readonly paths: readonly string[] }
  /** The text boxes and shapes of every slide of a pptx, for `office_lint`. */
  | { readonly type: 'pptx_boxes'; readonly data: Uint8Array };

export type OfficeTaskType = OfficeTask['type'];
export type TaskOf<T extends OfficeTaskType> = Extract<OfficeTask, { type: T }>;

export interface OfficeTaskResults {
  render_key: string;
  pptx: Uint8Array;
  docx: Uint8Array;
  page_images: PageImages;
  pptx_boxes: PptxBoxes;
}

const HANDLERS: { [T in OfficeTaskType]: (task: TaskOf<T>) => OfficeTaskResults[T] | Promise<OfficeTaskResults[T]> } = {
  render_key: (task) => renderKey(task.extension, task.content),
  pptx: (task) => renderPptx(task.deck),
  docx: (task) => renderDocx(task.document),
  page_images: (task) => pageImages(task.paths),
  pptx_boxes: (task) => readPptxBoxes(task.data),
};

/** Does a task on the calling thread: what a worker runs, and the whole path when workers are off. */
export async function runTask<T extends OfficeTaskType>(task: TaskOf<T>): Promise<OfficeTaskResults[T]> {
  const handler = HANDLERS[task.type] as (task: TaskOf<T>) => OfficeTaskResults[T] | Promise<OfficeTaskResults[T]>;
  return handler(task);
}

/**
 * The byte arrays in a result, each made to own its whole buffer (copied when it is a view into
 * a larger one, such as Node's shared pool for small files), so that a worker can hand them over
 * without copying and without giving away memory that is not theirs.
 */
export function ownedBuffers<T extends OfficeTaskType>(type: T, result: OfficeTaskResults[T]): { result: OfficeTaskResults[T]; transfer: ArrayBuffer[] } {
  const transfer: ArrayBuffer[] = [];
  const own = (bytes: Uint8Array): Uint8Array => {
    const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer && !transfer.includes(bytes.buffer);
    const owned = whole ? bytes : bytes.slice();
    transfer.push(owned.buffer as ArrayBuffer);
    return owned;
  };
  if (type === 'pptx' || type === 'docx') return { result: own(result as Uint8Array) as OfficeTaskResults[T], transfer };
  if (type === 'page_images') {
    const { pages, sheet } = result as PageImages;
    const owned: PageImages = { pages: pages.map((page) => ({ ...page, png: own(page.png) })), sheet: sheet && own(sheet) };
    return { result: owned as OfficeTaskResults[T], transfer };
  }
  return { result, transfer };
}
