import type { ResourceReader } from './resource-api';
/**
 * Exports are part of a kind's contract: a kind declares the formats it can turn a content into
 * (`pptx`, `pdf`, `step`, a zip of a web app's files), and the host serves them at
 * `GET /api/resources/:id/export/:format` and through `cowork resources export`.
 */
export interface ExportFormat<Content> {
  /** The media type of the result, e.g. `application/pdf`. */
  readonly mediaType: string;
  /** File name extension without the dot, e.g. `pdf`. */
  readonly extension: string;
  readonly description?: string;
  /**
   * Turns a content into the format's bytes. May be slow (it can run LibreOffice, a WASM kernel,
   * Blender): honour `context.signal`, and write scratch files only under `context.workDir`, which
   * the host removes afterwards.
   */
  export(content: Content, context: ExportContext): Promise<Uint8Array>;
}

export interface ExportContext {
  readonly resourceId: string;
  readonly revision: number;
  /** A fresh, empty directory for scratch files; removed when the export ends. */
  readonly workDir: string;
  readonly signal: AbortSignal;
  /** Other resources, for a content that refers to them (an assembly's `cad.part` revisions). */
  readonly resources: ResourceReader;
}

/** What an export produced, ready to serve or save. */
export interface ExportResult {
  readonly data: Uint8Array;
  readonly mediaType: string;
  /** A suggested file name: `<resourceId>-r<revision>.<extension>`. */
  readonly fileName: string;
  readonly revision: number;
}
