import type { SuiteDefinition } from './suite';
import type { Json } from '../store/records';
import { CoworkError } from '../errors';
import type { PluginDefinition, PluginManifest, ResourceKind, ToolDefinition } from './types';

const PLUGIN_BRAND = Symbol.for('cowork.plugin');

/**
 * Declares a plugin. The manifest is checked when the host loads it (see `PluginRegistry.register`),
 * not here, so that a bad plugin is reported by the host with its name instead of crashing an import.
 */
export function definePlugin(manifest: PluginManifest): PluginDefinition {
  return Object.freeze({
    ...manifest,
    kinds: manifest.kinds ?? [],
    tools: manifest.tools ?? [],
    [PLUGIN_BRAND]: true,
  });
}

/** Typed helper for a benchmark suite; returns it unchanged. */
export function defineSuite(suite: SuiteDefinition): SuiteDefinition {
  return suite;
}

/** Typed helper for a resource kind; returns it unchanged. */
export function defineKind<Content extends Json, Op extends Json>(kind: ResourceKind<Content, Op>): ResourceKind<Content, Op> {
  return kind;
}

/** Typed helper for a tool; returns it unchanged. */
export function defineTool<Input>(tool: ToolDefinition<Input>): ToolDefinition<Input> {
  return tool;
}

export function isPluginDefinition(value: unknown): value is PluginDefinition {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[PLUGIN_BRAND] === true;
}

/**
 * Thrown from `applyOp` when an op is well-formed but does not apply to the current content.
 * The commit fails with `invalid_op` and writes nothing.
 */
export function rejectOp(message: string, details: Record<string, Json> = {}): CoworkError {
  return new CoworkError('invalid_op', message, { problems: [message], ...details });
}

/**
 * Thrown from an import when the bytes are not a readable instance of the format (a corrupt
 * `.pptx`, a truncated STEP file). The import fails with `invalid_file` and creates nothing.
 */
export function rejectFile(message: string, details: Record<string, Json> = {}): CoworkError {
  return new CoworkError('invalid_file', message, { problems: [message], ...details });
}
