import Ajv, { type ValidateFunction } from 'ajv';
import { CoworkError } from '../errors';
import { callPlugin, type PluginRegistry } from '../plugins/registry';
import { schemaProblems } from '../util/json-schema';
import { VIEW_BLOCK_SCHEMA, type ViewBlock } from '../plugins/views';
import { checkId, checkRevision } from './input-checks';
import type { ResourceApi } from '../plugins/resource-api';

let viewValidator: ValidateFunction | undefined;

/**
 * A resource as its kind shows it to people: the kind's `view` blocks, checked against the block
 * schema (a plugin's mistake is its own `plugin_failed`, never markup in the page). A kind without
 * a view gets `blocks: null`, and the page shows its JSON.
 */
export class ViewService {
  constructor(
    private readonly resources: ResourceApi,
    private readonly registry: PluginRegistry,
  ) {}

  /** The view blocks' validator, compiled on first use, once per process (hosts share it). */
  private get validate(): ValidateFunction {
    return (viewValidator ??= new Ajv({ allErrors: true }).compile({ type: 'array', items: VIEW_BLOCK_SCHEMA, maxItems: 1000 }));
  }

  async view(resourceId: string, options: { revision?: number } = {}): Promise<{ kind: string; revision: number; blocks: ViewBlock[] | null }> {
    const id = checkId(resourceId, 'resourceId');
    const resource = await this.resources.get(id);
    const registered = this.registry.kind(resource.kind);
    const revision = options.revision === undefined ? resource.revision : checkRevision(options.revision, 'revision');
    const view = registered.kind.view;
    if (!view) return { kind: resource.kind, revision, blocks: null };
    const content = revision === resource.revision ? resource.content : await this.resources.contentAt(id, revision);
    const exportUrl = (format: string, options: { inline?: boolean } = {}): string =>
      `/api/resources/${encodeURIComponent(id)}/export/${encodeURIComponent(format)}?revision=${revision}${options.inline === true ? '&inline=true' : ''}`;
    const blocks = callPlugin(registered.plugin, 'view', () => view(content, { resourceId: id, revision, exportUrl }));
    if (!this.validate(blocks)) {
      throw new CoworkError('plugin_failed', `plugin ${registered.plugin} returned view blocks the page cannot show`, {
        plugin: registered.plugin,
        action: 'view',
        problems: schemaProblems(this.validate),
      });
    }
    return { kind: resource.kind, revision, blocks };
  }
}
