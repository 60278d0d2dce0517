import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoworkError } from '../errors';
import type { ExportResult } from '../plugins/exports';
import { callPluginAsync, type PluginRegistry } from '../plugins/registry';
import { checkId, checkRevision } from './input-checks';
import type { ResourceApi } from '../plugins/resource-api';

/**
 * Runs a kind's exports: reads the content (of the newest or a given revision), gives the plugin a
 * scratch directory, and removes it afterwards. Failures are attributed to the plugin.
 */
export class ExportService {
  constructor(
    private readonly resources: ResourceApi,
    private readonly registry: PluginRegistry,
  ) {}

  /** The formats a resource's kind exports to. */
  async formats(resourceId: string): Promise<{ format: string; mediaType: string; extension: string; description?: string }[]> {
    const resource = await this.resources.get(checkId(resourceId, 'resourceId'));
    const exports = this.registry.kind(resource.kind).kind.exports ?? {};
    return Object.entries(exports).map(([format, f]) => ({ format, mediaType: f.mediaType, extension: f.extension, description: f.description }));
  }

  async export(resourceId: string, format: string, options: { revision?: number; signal?: AbortSignal } = {}): Promise<ExportResult> {
    const id = checkId(resourceId, 'resourceId');
    const resource = await this.resources.get(id);
    const registered = this.registry.kind(resource.kind);
    const exporter = registered.kind.exports?.[format];
    if (!exporter || !Object.prototype.hasOwnProperty.call(registered.kind.exports, format)) {
      throw new CoworkError('unknown_format', `kind ${resource.kind} does not export ${JSON.stringify(format)}`, {
        kind: resource.kind,
        format,
        formats: Object.keys(registered.kind.exports ?? {}),
      });
    }
    const revision = options.revision === undefined ? resource.revision : checkRevision(options.revision, 'revision');
    const content = revision === resource.revision ? resource.content : await this.resources.contentAt(id, revision);
    const workDir = mkdtempSync(join(tmpdir(), 'cowork-export-'));
    try {
      const data = await callPluginAsync(registered.plugin, `export ${format}`, () =>
        exporter.export(content, { resourceId: id, revision, workDir, signal: options.signal ?? new AbortController().signal, resources: this.resources }),
      );
      if (!(data instanceof Uint8Array)) {
        throw new CoworkError('plugin_failed', `plugin ${registered.plugin} export ${format} did not return bytes`, { plugin: registered.plugin, format });
      }
      return { data, mediaType: exporter.mediaType, fileName: `${id}-r${revision}.${exporter.extension}`, revision };
    } finally {
      rmSync(workDir, { recursive: true, force: true });
    }
  }
}
