/**
 * Imports are the mirror of exports: a kind declares the formats a person can bring in (`pptx`,
 * `docx`, `step`), and the host turns such a file into a new resource at `POST /api/resources/import`
 * and through `cowork resources import`. The content an import returns is checked against the
 * kind's schema like any other.
 */
export interface ImportFormat<Content> {
  /** File name extension without the dot, e.g. `pptx`. */
  readonly extension: string;
  readonly description?: string;
  /**
   * Parses the bytes into a content. Bytes that are not a readable instance of the format throw
   * `rejectFile(...)`, which says what is wrong. Scratch files go under `context.workDir` only.
   */
  import(data: Uint8Array, context: ImportContext): Promise<Content>;
}

export interface ImportContext {
  /** The name the file had, when known (for messages and titles). */
  readonly fileName?: string;
  /** A fresh, empty directory for scratch files; removed when the import ends. */
  readonly workDir: string;
  readonly signal: AbortSignal;
  /**
   * The host's content limit in bytes (of the content as JSON): an importer can refuse a file that
   * unpacks to more before building anything from it (`SafeZip` limits).
   */
  readonly maxContentBytes: number;
}
