import type { ImportContext } from '@cowork/host';
import type { DocumentContent } from '../document/content';
import type { PptxBoxes } from '../lint/pptx-boxes';
import type { Presentation } from '../presentation/content';
import type { PageImages } from '../preview/pages';
import { officeWorkers } from './pool';

// The office tasks as the plugin calls them, each in the process's office workers (./pool.ts).

/** A deck as pptx bytes, made in a worker thread. */
export function pptxFile(deck: Presentation, signal?: AbortSignal): Promise<Uint8Array> {
  return officeWorkers.run({ type: 'pptx', deck }, signal);
}

/** A document as docx bytes, made in a worker thread. */
export function docxFile(document: DocumentContent, signal?: AbortSignal): Promise<Uint8Array> {
  return officeWorkers.run({ type: 'docx', document }, signal);
}

/** The render cache's key of a content (../preview/render-key.ts), hashed in a worker thread. */
export function renderKeyOffThread(extension: string, content: unknown, signal?: AbortSignal): Promise<string> {
  return officeWorkers.run({ type: 'render_key', extension, content }, signal);
}

/** Page PNGs decoded and stacked (../preview/pages.ts) in a worker thread. */
export function pageImagesOffThread(paths: readonly string[], signal?: AbortSignal): Promise<PageImages> {
  return officeWorkers.run({ type: 'page_images', paths }, signal);
}

/** A pptx's slide geometry for lint (../lint/pptx-boxes.ts), parsed in a worker thread. The bytes are copied there, not moved. */
export function pptxBoxesOffThread(data: Uint8Array, signal?: AbortSignal): Promise<PptxBoxes> {
  return officeWorkers.run({ type: 'pptx_boxes', data }, signal);
}

/**
 * A .docx read into a document (../import/docx.ts) in a worker thread: the zip and the XML parts
 * are read there, within the host's content limit. The file's bytes are copied there, not moved.
 */
export function importDocxOffThread(data: Uint8Array, context: Pick<ImportContext, 'fileName' | 'signal' | 'maxContentBytes'>): Promise<DocumentContent> {
  return officeWorkers.run({ type: 'import_docx', data, fileName: context.fileName, maxContentBytes: context.maxContentBytes }, context.signal);
}

/** A .pptx read into a deck (../import/pptx.ts) in a worker thread, as `importDocxOffThread` reads a .docx. */
export function importPptxOffThread(data: Uint8Array, context: Pick<ImportContext, 'fileName' | 'signal' | 'maxContentBytes'>): Promise<Presentation> {
  return officeWorkers.run({ type: 'import_pptx', data, fileName: context.fileName, maxContentBytes: context.maxContentBytes }, context.signal);
}
