import type { Host } from '../../host';
import type { PluginProblem } from '../../plugins/registry';
import type { RevisionSemantics, ToolPermission } from '../../plugins/types';
import { leaf } from '../command';

/** What `cowork plugins --json` prints. */
export interface PluginsReport {
  readonly plugins: {
    readonly name: string;
    readonly version: string;
    readonly description: string | null;
    readonly kinds: { readonly name: string; readonly description: string; readonly revisionSemantics: RevisionSemantics }[];
    readonly tools: { readonly name: string; readonly description: string; readonly permissions: readonly ToolPermission[] }[];
  }[];
  /** Plugins named in `--plugins` that were left out, and why. */
  readonly problems: readonly PluginProblem[];
}

export const pluginsCommand = leaf({
  summary: 'list the loaded plugins with their kinds (and revision semantics) and tools, and plugins that failed to load',
  positionals: [],
  options: {},
  async run(_args, { out, withHost }) {
    const report = await withHost(async (host) => pluginsReport(host), { reportPluginProblems: false });
    out.result(report, describeReport);
  },
});

function pluginsReport(host: Host): PluginsReport {
  return {
    plugins: host.registry.plugins().map((plugin) => ({
      name: plugin.name,
      version: plugin.version,
      description: plugin.description ?? null,
      kinds: plugin.kinds.map((kind) => ({ name: kind.name, description: kind.description, revisionSemantics: kind.revisionSemantics })),
      tools: plugin.tools.map((tool) => ({ name: tool.name, description: tool.description, permissions: tool.permissions })),
    })),
    problems: host.pluginProblems,
  };
}

function describeReport(report: PluginsReport): string[] {
  const lines: string[] = [];
  for (const plugin of report.plugins) {
    lines.push(`${plugin.name} ${plugin.version}${plugin.description ? `: ${plugin.description}` : ''}`);
    for (const kind of plugin.kinds) lines.push(`  kind ${kind.name} (revisions: ${kind.revisionSemantics}): ${kind.description}`);
    for (const tool of plugin.tools) {
      const permissions = tool.permissions.map((p) => (p.kind ? `${p.access}:${p.kind}` : p.access)).join(', ') || 'none';
      lines.push(`  tool ${tool.name} (needs ${permissions}): ${firstLine(tool.description)}`);
    }
  }
  for (const problem of report.problems) {
    lines.push(`not loaded: ${problem.plugin}`);
    for (const text of problem.problems) lines.push(`  ${text}`);
  }
  return lines;
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? '';
}
