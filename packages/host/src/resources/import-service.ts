import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoworkError } from '../errors';
import { callPluginAsync, type PluginRegistry } from '../plugins/registry';
import type { Operator, ResourceRecord } from '../store/records';
import type { ResourceApi } from '../plugins/resource-api';
import { checkPathText } from '../util/paths';

export interface ImportRequest {
  readonly kind: string;
  /** One of the kind's import formats; defaults to the one whose extension `fileName` has. */
  readonly format?: string;
  readonly data: Uint8Array;
  readonly fileName?: string;
  /** The new resource's title (see CreateRequest). */
  readonly title?: string;
  readonly operator: Operator;
  readonly idempotencyKey?: string;
  readonly signal?: AbortSignal;
}

/** Largest file an import reads; bigger files are refused before the plugin sees them. */
export const MAX_IMPORT_BYTES = 64 * 1024 * 1024;

/**
 * Runs a kind's imports: picks the format, gives the plugin a scratch directory (removed
 * afterwards), and creates the resource from the parsed content through the ordinary create path,
 * so the content schema and size limit apply. A file the plugin cannot read creates nothing.
 */
export class ImportService {
  constructor(
    private readonly resources: ResourceApi,
    private readonly registry: PluginRegistry,
    private readonly maxContentBytes: number,
  ) {}

  /** The formats each kind imports, for the page and `cowork plugins`. */
  formats(kind: string): { format: string; extension: string; description?: string }[] {
    const imports = this.registry.kind(kind).kind.imports ?? {};
    return Object.entries(imports).map(([format, f]) => ({ format, extension: f.extension, description: f.description }));
  }

  async importFile(request: ImportRequest): Promise<ResourceRecord> {
    const registered = this.registry.kind(String(request?.kind));
    const imports = registered.kind.imports ?? {};
    if (request.fileName !== undefined) checkFileName(request.fileName);
    const format = request.format ?? formatOfFileName(imports, request.fileName);
    const importer = format !== undefined && Object.prototype.hasOwnProperty.call(imports, format) ? imports[format] : undefined;
    if (!importer) {
      throw new CoworkError('unknown_format', `kind ${registered.kind.name} does not import ${JSON.stringify(format ?? request.fileName ?? null)}`, {
        kind: registered.kind.name,
        formats: Object.keys(imports),
      });
    }
    if (!(request.data instanceof Uint8Array)) throw new CoworkError('invalid_input', 'data must be the bytes of the file');
    if (request.data.byteLength > MAX_IMPORT_BYTES) {
      throw new CoworkError('content_too_large', `the file is ${request.data.byteLength} bytes; imports take at most ${MAX_IMPORT_BYTES}`, {
        size: request.data.byteLength,
        limit: MAX_IMPORT_BYTES,
      });
    }
    const workDir = mkdtempSync(join(tmpdir(), 'cowork-import-'));
    try {
      const content = await callPluginAsync(registered.plugin, `import ${format}`, () =>
        importer.import(request.data, { fileName: request.fileName, workDir, signal: request.signal ?? new AbortController().signal, maxContentBytes: this.maxContentBytes }),
      );
      return await this.resources.create({ kind: registered.kind.name, content, title: request.title, operator: request.operator, idempotencyKey: request.idempotencyKey });
    } finally {
      rmSync(workDir, { recursive: true, force: true });
    }
  }
}

/** The name a file was brought under is a name, never a path: importers may write it into their work folder. */
function checkFileName(fileName: unknown): void {
  const name = checkPathText(fileName, 'fileName');
  if (name.includes('/') || name === '.' || name === '..') {
    throw new CoworkError('invalid_input', `fileName ${JSON.stringify(name)} must be a file's name, not a path`, { field: 'fileName', reason: 'not_a_name' });
  }
}

function formatOfFileName(imports: Readonly<Record<string, { extension: string }>>, fileName: string | undefined): string | undefined {
  const extension = fileName?.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1];
  if (extension === undefined) return undefined;
  return Object.entries(imports).find(([, f]) => f.extension.toLowerCase() === extension)?.[0];
}
