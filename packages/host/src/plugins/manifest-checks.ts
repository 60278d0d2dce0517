import { IMPACTS } from '../approvals/policy';
import type { SuiteDefinition } from './suite';
import type { PluginDefinition, ResourceKind, ToolDefinition } from './types';

/**
 * Manifest checks, one small function per rule (the shape of fastify's plugin-utils). Each returns
 * problems as sentences; an empty list means the plugin passes that check.
 */

const PLUGIN_NAME = /^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;
const SEMVER = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;
const KIND_NAME = /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)*$/;
const TOOL_NAME = /^[a-z][a-z0-9_]{0,63}$/;
const ACCESS = new Set(['read', 'draft', 'propose', 'commit']);
const KIND_FUNCTIONS = ['initialContent', 'applyOp', 'summarize', 'diff'] as const;

export function checkPluginShape(plugin: PluginDefinition): string[] {
  const problems: string[] = [];
  if (typeof plugin.name !== 'string' || !PLUGIN_NAME.test(plugin.name)) {
    problems.push(`name ${JSON.stringify(plugin.name)} must be an npm-style package name`);
  }
  if (typeof plugin.version !== 'string' || !SEMVER.test(plugin.version)) {
    problems.push(`version ${JSON.stringify(plugin.version)} must be a semantic version like 1.2.3`);
  }
  if (!Array.isArray(plugin.kinds)) problems.push('kinds must be an array');
  if (!Array.isArray(plugin.tools)) problems.push('tools must be an array');
  if (plugin.suites !== undefined && !Array.isArray(plugin.suites)) problems.push('suites must be an array when given');
  for (const hook of ['start', 'close'] as const) {
    if (plugin[hook] !== undefined && typeof plugin[hook] !== 'function') problems.push(`${hook} must be a function when given`);
  }
  return problems;
}

export function checkKind(kind: ResourceKind, ajv: SchemaCompiler): string[] {
  const where = `kind ${JSON.stringify(kind?.name)}`;
  if (typeof kind !== 'object' || kind === null) return ['every kind must be an object'];
  const problems: string[] = [];
  if (typeof kind.name !== 'string' || !KIND_NAME.test(kind.name)) {
    problems.push(`${where}: name must be lower-case words joined by dots, like "office.presentation"`);
  }
  if (kind.revisionSemantics !== 'host' && kind.revisionSemantics !== 'external') {
    problems.push(`${where}: revisionSemantics must be "host" or "external"`);
  }
  if (typeof kind.description !== 'string' || kind.description.trim() === '') {
    problems.push(`${where}: description must be a non-empty string`);
  }
  for (const fn of KIND_FUNCTIONS) {
    if (typeof kind[fn] !== 'function') problems.push(`${where}: ${fn} must be a function`);
  }
  if (kind.view !== undefined && typeof kind.view !== 'function') problems.push(`${where}: view must be a function when given`);
  if (kind.checkContent !== undefined && typeof kind.checkContent !== 'function') {
    problems.push(`${where}: checkContent must be a function when given`);
  }
  if (kind.validateOp !== undefined && typeof kind.validateOp !== 'function') {
    problems.push(`${where}: validateOp must be a function when given`);
  }
  problems.push(...checkFormats(kind, 'export', where));
  problems.push(...checkFormats(kind, 'import', where));
  problems.push(...checkExternal(kind, where));
  if (kind.app !== undefined && typeof kind.app?.file !== 'function') problems.push(`${where}: app.file must be a function when app is given`);
  problems.push(...checkSchema(ajv, kind.contentSchema, `${where}: contentSchema`));
  problems.push(...checkSchema(ajv, kind.opSchema, `${where}: opSchema`));
  return problems;
}

const FORMAT_NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/** A kind's export or import formats: each has a format name, an extension and its function (an export also a media type). */
function checkFormats(kind: ResourceKind, what: 'export' | 'import', where: string): string[] {
  const formats: unknown = what === 'export' ? kind.exports : kind.imports;
  if (formats === undefined) return [];
  if (typeof formats !== 'object' || formats === null) return [`${where}: ${what}s must be an object of formats`];
  const problems: string[] = [];
  for (const [name, format] of Object.entries(formats as Record<string, Record<string, unknown> | undefined>)) {
    const at = `${where}: ${what} ${JSON.stringify(name)}`;
    if (!FORMAT_NAME.test(name)) problems.push(`${at}: the format name must be lower-case letters, digits, - or _`);
    if (what === 'export' && (typeof format?.mediaType !== 'string' || !format.mediaType.includes('/'))) {
      problems.push(`${at}: mediaType must be a media type like application/pdf`);
    }
    if (typeof format?.extension !== 'string' || format.extension === '') problems.push(`${at}: extension must be a non-empty string`);
    if (typeof format?.[what] !== 'function') problems.push(`${at}: ${what} must be a function`);
  }
  return problems;
}

/** An external kind cannot work without its adapter; a host kind with one would never use it. */
function checkExternal(kind: ResourceKind, where: string): string[] {
  if (kind.revisionSemantics === 'external' && typeof kind.external?.open !== 'function') {
    return [`${where}: an external kind needs an external adapter with an open function (see ExternalAdapter)`];
  }
  if (kind.revisionSemantics === 'host' && kind.external !== undefined) {
    return [`${where}: external is only for revisionSemantics "external"; a host kind's content is changed by applyOp alone`];
  }
  return [];
}

export function checkTool(tool: ToolDefinition, ajv: SchemaCompiler): string[] {
  const where = `tool ${JSON.stringify(tool?.name)}`;
  if (typeof tool !== 'object' || tool === null) return ['every tool must be an object'];
  const problems: string[] = [];
  if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name)) {
    problems.push(`${where}: name must be snake_case, at most 64 characters`);
  }
  if (typeof tool.description !== 'string' || tool.description.trim() === '') {
    problems.push(`${where}: description must be a non-empty string`);
  }
  if (typeof tool.handler !== 'function') problems.push(`${where}: handler must be a function`);
  if (!Array.isArray(tool.permissions)) {
    problems.push(`${where}: permissions must be an array (empty when the tool needs none)`);
  } else {
    for (const permission of tool.permissions) {
      if (!ACCESS.has(permission?.access)) {
        problems.push(`${where}: permission access ${JSON.stringify(permission?.access)} must be one of ${[...ACCESS].join(', ')}`);
      }
    }
  }
  if (tool.impact !== undefined && typeof tool.impact !== 'function' && !(IMPACTS as readonly unknown[]).includes(tool.impact)) {
    problems.push(`${where}: impact ${JSON.stringify(tool.impact)} must be one of ${IMPACTS.join(', ')}, or a function of the input`);
  }
  if (tool.readOnly !== undefined && typeof tool.readOnly !== 'boolean') problems.push(`${where}: readOnly must be true or false`);
  // Its approval would be a record made for a model answer that a crash may lose and ask again.
  if (tool.readOnly === true && tool.impact !== undefined) problems.push(`${where}: a readOnly tool cannot have an impact; drop one of them`);
  const schemaProblems = checkSchema(ajv, tool.inputSchema, `${where}: inputSchema`);
  problems.push(...schemaProblems);
  if (schemaProblems.length === 0 && tool.inputSchema.type !== 'object') {
    problems.push(`${where}: inputSchema must describe an object ("type": "object")`);
  }
  return problems;
}

const SUITE_NAME = /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)*$/;

export function checkSuite(suite: SuiteDefinition): string[] {
  const where = `suite ${JSON.stringify(suite?.name)}`;
  if (typeof suite !== 'object' || suite === null) return ['every suite must be an object'];
  const problems: string[] = [];
  if (typeof suite.name !== 'string' || !SUITE_NAME.test(suite.name)) problems.push(`${where}: name must be lower-case words, like "office" or "tau2-retail"`);
  if (typeof suite.description !== 'string' || suite.description.trim() === '') problems.push(`${where}: description must be a non-empty string`);
  if (typeof suite.dir !== 'string' || suite.dir === '') problems.push(`${where}: dir must be the folder of its task files`);
  if (typeof suite.checks !== 'object' || suite.checks === null) problems.push(`${where}: checks must be an object of functions`);
  else for (const [name, check] of Object.entries(suite.checks)) if (typeof check !== 'function') problems.push(`${where}: check ${JSON.stringify(name)} must be a function`);
  for (const hook of ['tasks', 'user'] as const) if (suite[hook] !== undefined && typeof suite[hook] !== 'function') problems.push(`${where}: ${hook} must be a function when given`);
  return problems;
}

/** Names that appear more than once, in the plugin itself or already taken by loaded plugins. */
export function checkDuplicates(
  plugin: PluginDefinition,
  taken: { plugins: ReadonlySet<string>; kinds: ReadonlySet<string>; tools: ReadonlySet<string>; suites: ReadonlySet<string> },
): string[] {
  const problems: string[] = [];
  if (taken.plugins.has(plugin.name)) problems.push(`a plugin named ${JSON.stringify(plugin.name)} is already loaded`);
  problems.push(...duplicateNames('kind', plugin.kinds.map((k) => k.name), taken.kinds));
  problems.push(...duplicateNames('tool', plugin.tools.map((t) => t.name), taken.tools));
  problems.push(...duplicateNames('suite', (plugin.suites ?? []).map((s) => s.name), taken.suites));
  return problems;
}

function duplicateNames(what: string, names: readonly string[], taken: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) problems.push(`${what} ${JSON.stringify(name)} is declared twice`);
    else if (taken.has(name)) problems.push(`${what} ${JSON.stringify(name)} is already provided by another plugin`);
    seen.add(name);
  }
  return problems;
}

/** What compiles a schema (the registry's cached Ajv): throws on a schema that is not valid. */
export interface SchemaCompiler {
  compile(schema: object): unknown;
}

function checkSchema(ajv: SchemaCompiler, schema: unknown, where: string): string[] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return [`${where} must be a JSON Schema object`];
  }
  try {
    ajv.compile(schema);
    return [];
  } catch (error) {
    return [`${where} is not a valid JSON Schema: ${(error as Error).message}`];
  }
}
