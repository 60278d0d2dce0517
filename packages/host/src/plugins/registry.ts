import type { default as Ajv, ValidateFunction } from 'ajv';
import { CoworkError, isCoworkError } from '../errors';
import { checkDuplicates, checkKind, checkPluginShape, checkSuite, checkTool } from './manifest-checks';
import type { SuiteDefinition } from './suite';
import type { PluginDefinition, ResourceKind, ToolDefinition } from './types';

/** A kind of a loaded plugin, with its schemas compiled once. */
export interface RegisteredKind {
  readonly plugin: string;
  readonly kind: ResourceKind;
  readonly validateContent: ValidateFunction;
  readonly validateOpShape: ValidateFunction;
}

export interface RegisteredTool {
  readonly plugin: string;
  readonly tool: ToolDefinition;
  readonly validateInput: ValidateFunction;
}

/** Why a plugin was left out. */
export interface PluginProblem {
  readonly plugin: string;
  readonly problems: string[];
}

/**
 * The loaded plugins, their kinds and their tools. `register` runs every manifest check and either
 * takes the whole plugin or none of it.
 */
export class PluginRegistry {
  private compiler: Ajv | undefined;
  private readonly pluginsByName = new Map<string, PluginDefinition>();
  private readonly kindsByName = new Map<string, RegisteredKind>();
  private readonly toolsByName = new Map<string, RegisteredTool>();

  /**
   * The schema compiler, made on first use: Ajv is some 30 ms of module loading, which a registry
   * that is only read (a CLI command on stored records) never needs.
   */
  private get ajv(): Ajv {
    if (!this.compiler) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const AjvClass = (require('ajv') as typeof import('ajv')).default;
      this.compiler = new AjvClass({ allErrors: true, strict: true, strictTypes: false, strictTuples: false, strictRequired: false });
    }
    return this.compiler;
  }

  /** Registers a plugin or throws `invalid_plugin` listing every problem found. */
  register(plugin: PluginDefinition): void {
    const problems = this.check(plugin);
    if (problems.length > 0) {
      const name = typeof plugin?.name === 'string' ? plugin.name : '(unnamed)';
      throw new CoworkError('invalid_plugin', `plugin ${name} was not loaded: ${problems.join('; ')}`, {
        plugin: name,
        problems,
      });
    }
    this.pluginsByName.set(plugin.name, plugin);
    for (const kind of plugin.kinds) {
      this.kindsByName.set(kind.name, {
        plugin: plugin.name,
        kind,
        validateContent: this.compile(kind.contentSchema),
        validateOpShape: this.compile(kind.opSchema),
      });
    }
    for (const tool of plugin.tools) {
      this.toolsByName.set(tool.name, { plugin: plugin.name, tool, validateInput: this.compile(tool.inputSchema) });
    }
  }

  /**
   * Replaces a loaded plugin's tools: a mounted MCP server's tools change while it runs. Checked like
   * `register` (names, schemas, no clash with another plugin's tools); all or none.
   */
  replaceTools(pluginName: string, tools: readonly ToolDefinition[]): void {
    if (!this.pluginsByName.has(pluginName)) throw new CoworkError('not_found', `no plugin ${pluginName} is loaded`, { plugin: pluginName });
    const others = new Set([...this.toolsByName.values()].filter((t) => t.plugin !== pluginName).map((t) => t.tool.name));
    const problems = [
      ...tools.flatMap((tool) => checkTool(tool, this)),
      ...tools.filter((tool) => others.has(tool.name)).map((tool) => `tool ${JSON.stringify(tool.name)} is already provided by another plugin`),
    ];
    if (problems.length > 0) throw new CoworkError('invalid_plugin', `plugin ${pluginName}: tools not replaced: ${problems.join('; ')}`, { plugin: pluginName, problems });
    const compiled = tools.map((tool) => ({ plugin: pluginName, tool, validateInput: this.compile(tool.inputSchema) }));
    for (const [name, registered] of this.toolsByName) if (registered.plugin === pluginName) this.toolsByName.delete(name);
    for (const registered of compiled) this.toolsByName.set(registered.tool.name, registered);
  }

  /**
   * Unloads a plugin: it, its kinds and its tools go together (a mounted MCP server removed from
   * mcp.json while the host runs). Closing it is the caller's part. Resources of its kinds stay
   * stored; they answer `unknown_kind` until a plugin brings the kind again.
   */
  unregisterPlugin(pluginName: string): PluginDefinition {
    const plugin = this.pluginsByName.get(pluginName);
    if (!plugin) throw new CoworkError('not_found', `no plugin ${pluginName} is loaded`, { plugin: pluginName });
    for (const [name, registered] of this.kindsByName) if (registered.plugin === pluginName) this.kindsByName.delete(name);
    for (const [name, registered] of this.toolsByName) if (registered.plugin === pluginName) this.toolsByName.delete(name);
    this.pluginsByName.delete(pluginName);
    return plugin;
  }

  /** Every problem with the plugin, as it would be registered now. */
  check(plugin: PluginDefinition): string[] {
    if (typeof plugin !== 'object' || plugin === null) return ['the module does not export a plugin definition'];
    const shape = checkPluginShape(plugin);
    if (shape.length > 0) return shape;
    return [
      ...plugin.kinds.flatMap((kind) => checkKind(kind, this)),
      ...plugin.tools.flatMap((tool) => checkTool(tool, this)),
      ...(plugin.suites ?? []).flatMap((suite) => checkSuite(suite)),
      ...checkDuplicates(plugin, {
        plugins: new Set(this.pluginsByName.keys()),
        kinds: new Set(this.kindsByName.keys()),
        tools: new Set(this.toolsByName.keys()),
        suites: new Set(this.suites().map((s) => s.suite.name)),
      }),
    ];
  }

  kind(name: string): RegisteredKind {
    const kind = this.kindsByName.get(name);
    if (!kind) {
      throw new CoworkError('unknown_kind', `unknown resource kind ${JSON.stringify(name)}`, {
        kind: name,
        knownKinds: [...this.kindsByName.keys()],
      });
    }
    return kind;
  }

  hasKind(name: string): boolean {
    return this.kindsByName.has(name);
  }

  tool(name: string): RegisteredTool | undefined {
    return this.toolsByName.get(name);
  }

  plugins(): PluginDefinition[] {
    return [...this.pluginsByName.values()];
  }

  kinds(): RegisteredKind[] {
    return [...this.kindsByName.values()];
  }

  tools(): RegisteredTool[] {
    return [...this.toolsByName.values()];
  }

  /** Every loaded plugin's benchmark suites, with the plugin that brings each. */
  suites(): { readonly plugin: string; readonly suite: SuiteDefinition }[] {
    return this.plugins().flatMap((plugin) => (plugin.suites ?? []).map((suite) => ({ plugin: plugin.name, suite })));
  }

  /**
   * Compiles a schema with the registry's validator (plugin kinds and tools, and tool inputs of
   * other sources). A schema compiled once in this process is not compiled again, found by the
   * object or, failing that, by its text: every registry's Ajv has the same options. A process
   * opening many hosts (the benchmark runner, a trial per host) spent most of each host's opening
   * compiling the same plugins' schemas, and each agent loop builds its tools' schemas afresh, so
   * every task compiled them again (about 2 ms a task in bench:turns, and new code for the engine
   * to optimise while the task's turns run).
   */
  compile(schema: object): ValidateFunction {
    let validate = COMPILED.get(schema);
    if (validate) return validate;
    const text = schemaText(schema);
    validate = text === undefined ? undefined : COMPILED_BY_TEXT.get(text);
    if (!validate) {
      validate = this.ajv.compile(schema);
      if (text !== undefined) COMPILED_BY_TEXT.set(text, validate);
      // Bounded: MCP servers' schemas come and go with their connections.
      if (COMPILED_BY_TEXT.size > COMPILED_TEXTS_MAX) COMPILED_BY_TEXT.delete(COMPILED_BY_TEXT.keys().next().value as string);
    }
    COMPILED.set(schema, validate);
    return validate;
  }
}

/** A schema's JSON text, or undefined for one that has none (a cycle): Ajv then says what is wrong. */
function schemaText(schema: object): string | undefined {
  try {
    return JSON.stringify(schema);
  } catch {
    return undefined;
  }
}

/** Validators by schema object, for every registry of the process (weak: a dropped schema goes). */
const COMPILED = new WeakMap<object, ValidateFunction>();
/** Validators by schema text, the oldest dropped past `COMPILED_TEXTS_MAX`. */
const COMPILED_BY_TEXT = new Map<string, ValidateFunction>();
const COMPILED_TEXTS_MAX = 2_000;

/** Runs plugin code, re-coding whatever it throws with the plugin's name and what it was doing. */
export function callPlugin<T>(plugin: string, action: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw attributeToPlugin(error, plugin, action);
  }
}

/** `callPlugin` for plugin code that returns a promise. */
export async function callPluginAsync<T>(plugin: string, action: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw attributeToPlugin(error, plugin, action);
  }
}

function attributeToPlugin(error: unknown, plugin: string, action: string): CoworkError {
  if (isCoworkError(error)) {
    // A rejection is the plugin doing its job: keep it as the caller's error.
    if (error.code === 'invalid_op' || error.code === 'invalid_content') return error;
    return new CoworkError(error.code, error.message, { ...error.details, plugin, action }, { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new CoworkError('plugin_failed', `plugin ${plugin} failed in ${action}: ${message}`, { plugin, action }, { cause: error });
}
