import type { ValidateFunction } from 'ajv';
import { CoworkError } from '../errors';
import type { Host } from '../host';
import { schemaProblems } from '../util/json-schema';
import { exportTools } from './export-tools';
import { pluginTool } from './plugin-tools';
import { resourceTools } from './resource-tools';
import type { McpTaskPort } from './task-port';
import { taskTools } from './task-tools';
import { toolError } from './tool-errors';
import type { McpCall, McpTool, ToolOutput } from './tool';

/**
 * Every tool the MCP server offers: the host's (resources, candidates, exports, tasks) and the
 * loaded plugins'. A plugin tool named like a host tool is left out: the host's name wins.
 */
export class ToolCatalog {
  private readonly own: McpTool[];
  private readonly validators = new WeakMap<object, ValidateFunction>();

  constructor(
    private readonly host: Host,
    tasks: McpTaskPort | undefined,
  ) {
    this.own = [...resourceTools(host), ...exportTools(host), ...(tasks ? taskTools(tasks) : [])];
  }

  list(): McpTool[] {
    const names = new Set(this.own.map((t) => t.name));
    return [...this.own, ...this.host.registry.tools().filter((r) => !names.has(r.tool.name)).map((r) => pluginTool(this.host, r))];
  }

  /** Undefined when no tool has that name (a protocol error for the caller to raise). */
  find(name: string): McpTool | undefined {
    return this.list().find((t) => t.name === name);
  }

  /**
   * Checks the arguments against the tool's schema, then runs it. Wrong arguments and failures are
   * tool errors, so the model sees them and can correct itself; nothing runs on wrong arguments.
   */
  async call(tool: McpTool, args: unknown, call: McpCall): Promise<ToolOutput> {
    const input = args ?? {};
    const validate = this.validatorFor(tool);
    if (!validate(input)) {
      return toolError(new CoworkError('invalid_input', `invalid arguments for ${tool.name}: ${schemaProblems(validate).join('; ')}`, { tool: tool.name, problems: schemaProblems(validate) }));
    }
    try {
      return await tool.run(input as Record<string, unknown>, call);
    } catch (error) {
      return toolError(error);
    }
  }

  private validatorFor(tool: McpTool): ValidateFunction {
    let validate = this.validators.get(tool.inputSchema);
    if (!validate) {
      validate = this.host.registry.compile(tool.inputSchema);
      this.validators.set(tool.inputSchema, validate);
    }
    return validate;
  }
}
