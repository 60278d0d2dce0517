// The import rules of the monorepo, as an ESLint rule (`cowork/layers`).
//
// packages/host/src is layered: a module may import its own layer and the layers below it, never
// one above. From the bottom:
//
//   errors, util, store, identity (principals and people's tokens), approvals (high-impact calls and the policy), jobs, plugins (the plugin contract and registry), resources, coordinator,
//   monitors, models, agents, plugins/builtin (text, jobs, monitors as plugins), mcp-client (MCP
//   servers mounted as plugins), host.ts, evaluation (benchmark suites), mcp-server (the host served
//   over MCP), server, cli, testkit, and the package entries (index.ts, embed.ts).
//
// A plugin's sources (plugins/<name>/src) import only the plugin entry `@cowork/host`: never the
// host's embed or testkit entries, its files, or another plugin. Its tests may also use
// `@cowork/host/embed`, `@cowork/host/testkit` and `@cowork/host/testkit/page`. Nothing imports a package's build output.
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const hostSrc = resolve(root, 'packages', 'host', 'src');
const pluginsDir = resolve(root, 'plugins');

/** Host layers, bottom first. */
export const HOST_LAYERS = [
  'errors',
  'util',
  'store',
  'identity',
  'approvals',
  'jobs',
  'plugins',
  'resources',
  'coordinator',
  'monitors',
  'models',
  'agents',
  'plugins/builtin',
  'mcp-client',
  'host',
  'evaluation',
  'mcp-server',
  'server',
  'cli',
  'testkit',
  'entry',
];

/** The layer of a file under packages/host/src, or undefined outside it. */
function hostLayer(file) {
  const rel = relative(hostSrc, file);
  if (rel.startsWith('..') || rel === '') return undefined;
  const parts = rel.split(sep);
  if (parts.length === 1) {
    const name = parts[0].replace(/\.ts$/, '');
    return name === 'index' || name === 'embed' ? 'entry' : name;
  }
  if (parts[0] === 'plugins' && parts[1] === 'builtin') return 'plugins/builtin';
  return parts[0];
}

/** `{ name, tests }` of a file under plugins/<name>/, or undefined. */
function pluginOf(file) {
  const rel = relative(pluginsDir, file);
  if (rel.startsWith('..') || rel === '') return undefined;
  const [name, area] = rel.split(sep);
  return { name, dir: resolve(pluginsDir, name), tests: area !== 'src' };
}

function resolveSpecifier(file, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const target = resolve(dirname(file), specifier);
  return target.endsWith('.ts') || target.endsWith('.js') ? target : `${target}.ts`;
}

/** Why this import breaks the rules, or undefined when it is fine. */
export function importProblem(file, specifier) {
  if (/^@cowork\/[^/]+\/(dist|src)(\/|$)/.test(specifier)) return `import the package's entry, not its files (${specifier})`;
  const target = resolveSpecifier(file, specifier);
  const from = hostLayer(file);
  if (from !== undefined && target !== undefined) {
    const to = hostLayer(target);
    if (to === undefined) return `a host module imports from outside the host's sources (${specifier})`;
    const [fromRank, toRank] = [HOST_LAYERS.indexOf(from), HOST_LAYERS.indexOf(to)];
    if (fromRank < 0) return `${from} is not a known host layer: add it to HOST_LAYERS in tools/eslint-rules/layers.mjs`;
    if (toRank < 0) return `${to} is not a known host layer: add it to HOST_LAYERS in tools/eslint-rules/layers.mjs`;
    if (toRank > fromRank) return `${from} may not import ${to}, a layer above it (${HOST_LAYERS.join(' < ')})`;
    return undefined;
  }
  const plugin = pluginOf(file);
  if (plugin === undefined) return undefined;
  if (target !== undefined && relative(plugin.dir, target).startsWith('..')) {
    return `plugin ${plugin.name} reaches outside its own folder (${specifier}): use @cowork/host, never host internals or another plugin`;
  }
  if (/^@cowork\/plugin-/.test(specifier) && !specifier.startsWith(`@cowork/plugin-${plugin.name}`)) {
    return `plugin ${plugin.name} may not import another plugin (${specifier})`;
  }
  if (specifier.startsWith('@cowork/host/')) {
    const allowed = plugin.tests ? ['@cowork/host/embed', '@cowork/host/testkit', '@cowork/host/testkit/page'] : [];
    if (!allowed.includes(specifier)) {
      return plugin.tests
        ? `plugin tests use @cowork/host, @cowork/host/embed, @cowork/host/testkit or @cowork/host/testkit/page, not ${specifier}`
        : `a plugin's sources import only the plugin entry @cowork/host, not ${specifier}`;
    }
  }
  return undefined;
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Host layers import downward only; plugins import only the plugin entry and nothing of each other.' },
    schema: [],
    messages: { layer: '{{problem}}' },
  },
  create(context) {
    const file = context.filename;
    const check = (node, source) => {
      if (typeof source !== 'string') return;
      const problem = importProblem(file, source);
      if (problem) context.report({ node, messageId: 'layer', data: { problem } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
      TSImportType: (node) => {
        // typescript-eslint 8 names the string `source` (`argument` is deprecated).
        const literal = node.source ?? (node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument);
        if (literal?.type === 'Literal') check(node, literal.value);
      },
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments[0]?.type === 'Literal') check(node, node.arguments[0].value);
      },
    };
  },
};

export default { rules: { layers: rule } };
