import type { ResourceAccess, ToolPermission } from '../plugins/types';

/**
 * What Main granted a subagent, stored on the assignment as strings so that the coordinator log
 * stays plain data:
 * - `tool:<name>`: may call that plugin tool;
 * - `<access>:resource:<id>`: read / draft / propose on one resource;
 * - `<access>:kind:<kind>`: the same on every resource of a kind.
 * `draft` implies `read`; `propose` implies `draft` and `read`.
 */
export interface ResourceGrant {
  readonly access: ResourceAccess;
  readonly resourceId?: string;
  readonly kind?: string;
}

const RANK: Record<ResourceAccess, number> = { read: 1, draft: 2, propose: 3, commit: 4 };

export function encodeGrants(tools: readonly string[], resources: readonly ResourceGrant[]): string[] {
  return [
    ...tools.map((t) => `tool:${t}`),
    ...resources.map((r) => (r.resourceId ? `${r.access}:resource:${r.resourceId}` : `${r.access}:kind:${r.kind}`)),
  ];
}

export class Grants {
  readonly tools: ReadonlySet<string>;
  private readonly resources: ResourceGrant[];

  constructor(encoded: readonly string[]) {
    const tools = new Set<string>();
    this.resources = [];
    for (const grant of encoded) {
      const [head, scope, ...rest] = grant.split(':');
      if (head === 'tool' && scope) tools.add([scope, ...rest].join(':'));
      else if (head && head in RANK && (scope === 'resource' || scope === 'kind')) {
        const target = rest.join(':');
        this.resources.push(scope === 'resource' ? { access: head as ResourceAccess, resourceId: target } : { access: head as ResourceAccess, kind: target });
      }
    }
    this.tools = tools;
  }

  /** May the holder do `access` on this resource? */
  allows(access: ResourceAccess, resource: { id: string; kind: string }): boolean {
    return this.resources.some(
      (g) => RANK[g.access] >= RANK[access] && (g.resourceId === resource.id || (g.kind !== undefined && g.kind === resource.kind)),
    );
  }

  /** May the holder do `access` on every resource of a kind (a kind-wide grant, as creating needs)? */
  allowsKind(access: ResourceAccess, kind: string): boolean {
    return this.resources.some((g) => g.kind === kind && RANK[g.access] >= RANK[access]);
  }

  /**
   * Does the grant cover a plugin tool? The tool must be granted by name; reading is implied by
   * that, but a tool that drafts, proposes or commits also needs that access on its kinds.
   */
  coversTool(name: string, permissions: readonly ToolPermission[], pluginKinds: readonly string[]): boolean {
    if (!this.tools.has(name)) return false;
    return permissions.filter((p) => p.access !== 'read').every((p) =>
      (p.kind ? [p.kind] : pluginKinds).every((kind) => this.resources.some((g) => g.kind === kind && RANK[g.access] >= RANK[p.access])),
    );
  }
}
