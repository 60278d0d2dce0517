import type { DocumentContent } from '../document/content';
import { renderDocx } from '../document/export-docx';
import { importDocx } from '../import/docx';
import { importPptx } from '../import/pptx';
import { readPptxBoxes, type PptxBoxes } from '../lint/pptx-boxes';
import type { Presentation } from '../presentation/content';
import { renderPptx } from '../presentation/export-pptx';
import { pageImages, type PageImages } from '../preview/pages';
import { renderKey } from '../preview/render-key';
import { fromPieces, toPieces, type JsonPieces } from './pieces';

/**
 * The plugin's CPU-heavy work, as messages an office worker thread (./worker.ts) answers: each
 * takes from a hundred milliseconds to seconds on a realistic deck or document (pictures are
 * base64-decoded, zipped and CRC'd in JavaScript; page images are inflated and deflated by pngjs;
 * an imported file's XML parts are parsed by fast-xml-parser, 1-2 s for a docx at the 8 MiB limit),
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
  | { readonly type: 'pptx_boxes'; readonly data: Uint8Array }
  /**
   * A .docx or .pptx a person brings, read into a content (../import): the zip read, its parts
   * checked against `maxContentBytes` (the host's limit) and parsed. A file that cannot be read fails
   * with the importer's own CoworkError (`invalid_file`, `content_too_large`), code and details kept.
   */
  | { readonly type: 'import_docx' | 'import_pptx'; readonly data: Uint8Array; readonly fileName?: string; readonly maxContentBytes?: number };

export type OfficeTaskType = OfficeTask['type'];
/** The task of type `T` (`Extract` would miss the import task, whose `type` is a union). */
export type TaskOf<T extends OfficeTaskType> = OfficeTask & { readonly type: T };

export interface OfficeTaskResults {
  render_key: string;
  pptx: Uint8Array;
  docx: Uint8Array;
  page_images: PageImages;
  pptx_boxes: PptxBoxes;
  import_docx: DocumentContent;
  import_pptx: Presentation;
}

type Handler<T extends OfficeTaskType> = (task: TaskOf<T>, signal: AbortSignal) => OfficeTaskResults[T] | Promise<OfficeTaskResults[T]>;

const HANDLERS: { [T in OfficeTaskType]: Handler<T> } = {
  render_key: (task) => renderKey(task.extension, task.content),
  pptx: (task) => renderPptx(task.deck),
  docx: (task) => renderDocx(task.document),
  page_images: (task) => pageImages(task.paths),
  pptx_boxes: (task) => readPptxBoxes(task.data),
  import_docx: ({ data, fileName, maxContentBytes }, signal) => importDocx(data, { fileName, maxContentBytes, signal }),
  import_pptx: ({ data, fileName, maxContentBytes }, signal) => importPptx(data, { fileName, maxContentBytes, signal }),
};

/**
 * Does a task on the calling thread: what a worker runs, and the whole path when workers are off.
 * `signal` reaches the tasks that look at it between steps (imports, between parts and slides).
 */
export async function runTask<T extends OfficeTaskType>(task: TaskOf<T>, signal: AbortSignal = new AbortController().signal): Promise<OfficeTaskResults[T]> {
  const handler = HANDLERS[task.type] as Handler<T>;
  return handler(task, signal);
}

/** The byte arrays a task takes with it: copied for the worker (in slices, see ./pool.ts) and handed over. */
export function inputBytes(task: OfficeTask): Uint8Array | undefined {
  return task.type === 'pptx_boxes' || task.type === 'import_docx' || task.type === 'import_pptx' ? task.data : undefined;
}

/**
 * The byte arrays in a result, each made to own its whole buffer (copied when it is a view into
 * a larger one, such as Node's shared pool for small files), so that a worker can hand them over
 * without copying and without giving away memory that is not theirs.
 */
function ownedBuffers<T extends OfficeTaskType>(type: T, result: OfficeTaskResults[T]): { result: OfficeTaskResults[T]; transfer: ArrayBuffer[] } {
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

/** What a worker posts for a task's result, and the buffers it hands over with it. */
export function resultMessage<T extends OfficeTaskType>(type: T, result: OfficeTaskResults[T]): { message: unknown; transfer: ArrayBuffer[] } {
  if (type === 'import_docx') return { message: toPieces(result as DocumentContent, 'blocks'), transfer: [] };
  if (type === 'import_pptx') return { message: toPieces(result as Presentation, 'slides'), transfer: [] };
  const { result: owned, transfer } = ownedBuffers(type, result);
  return { message: owned, transfer };
}

/** The result a worker's message stands for, on the calling thread. */
export async function resultFrom<T extends OfficeTaskType>(type: T, message: unknown): Promise<OfficeTaskResults[T]> {
  if (type === 'import_docx' || type === 'import_pptx') return fromPieces<OfficeTaskResults[T]>(message as JsonPieces);
  return message as OfficeTaskResults[T];
}
