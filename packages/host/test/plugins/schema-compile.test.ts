/**
 * Invariant: a schema is compiled once per process, found by its object or by its text. Each agent
 * loop builds its tools' schemas afresh, so the object alone missed every time; equal text gives
 * the same validator, different text a different one, and a schema with an `$id` compiled again from
 * a new object is not refused as a duplicate.
 */
import { PluginRegistry } from '../../src/plugins/registry';

/** A fresh object each call, as a tool factory makes. */
const schema = (): object => ({ type: 'object', properties: { path: { type: 'string', minLength: 1 } }, required: ['path'], additionalProperties: false });

describe('PluginRegistry.compile', () => {
  it('gives one validator for equal schemas built as separate objects, across registries', () => {
    const first = new PluginRegistry().compile(schema());
    const second = new PluginRegistry().compile(schema());
    expect(second).toBe(first);
    expect(first({ path: 'a.txt' })).toBe(true);
    expect(first({ path: '' })).toBe(false);
  });

  it('compiles a schema with other text on its own', () => {
    const registry = new PluginRegistry();
    const strict = registry.compile(schema());
    const loose = registry.compile({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] });
    expect(loose).not.toBe(strict);
    expect(loose({ path: '', extra: 1 })).toBe(true);
    expect(strict({ path: '', extra: 1 })).toBe(false);
  });

  it('accepts the same $id schema again from a new object (a remounted MCP server)', () => {
    const withId = (): object => ({ $id: 'https://example.test/schemas/note', type: 'object', properties: { text: { type: 'string' } } });
    const registry = new PluginRegistry();
    const validate = registry.compile(withId());
    expect(() => registry.compile(withId())).not.toThrow();
    expect(registry.compile(withId())).toBe(validate);
  });
});
