/**
 * Invariant: the loader takes the plugins named in configuration and refuses bad manifests with a
 * clear, per-plugin problem list; a bad plugin is left out without taking the others down. A loaded
 * plugin's kind works through the resource protocol like the built-in `text` kind.
 */
import { join } from 'node:path';
import { definePlugin } from '../../src/plugins/define-plugin';
import { PluginRegistry } from '../../src/plugins/registry';
import { openTempHost } from '../support/temp-host';

const fixtures = join(__dirname, 'fixtures');
const spec = (name: string): string => join(fixtures, name, 'index.js');

describe('plugin loader', () => {
  it('loads a good plugin next to the built-in text kind and uses its kind', async () => {
    const host = await openTempHost({ pluginModules: [spec('good-plugin')] });
    try {
      expect(host.pluginProblems).toEqual([]);
      expect(host.registry.kinds().map((k) => [k.kind.name, k.kind.revisionSemantics, k.plugin])).toEqual([
        ['text', 'host', 'text'],
        ['counter', 'host', 'counter'],
      ]);
      expect(host.registry.tool('read_counter')?.plugin).toBe('counter');
      const r = await host.resources.create({ kind: 'counter', operator: 'human:ann' });
      await host.resources.commit(r.id, { baseRevision: 0, op: { add: 5 }, operator: 'agent:a' });
      expect((await host.resources.get(r.id)).content).toEqual({ value: 5 });
      await expect(host.resources.commit(r.id, { baseRevision: 1, op: { add: 0 }, operator: 'agent:a' })).rejects.toMatchObject({
        code: 'invalid_op',
        details: { problems: ['adding 0 changes nothing'] },
      });
      expect(await host.resources.summarize(r.id)).toBe('counter at 5');
    } finally {
      await host.dispose();
    }
  });

  const bad: [string, RegExp[]][] = [
    ['duplicate-kind', [/kind "text" is already provided by another plugin/, /tool "twice" is declared twice/]],
    ['bad-schema', [/contentSchema is not a valid JSON Schema/, /inputSchema must describe an object/]],
    ['bad-tool', [/version "1.0" must be a semantic version/]],
    ['not-a-plugin', [/does not export a plugin made with definePlugin/]],
    ['throws-on-import', [/boom at import/]],
    ['no-such-module', [/Cannot find module/]],
  ];

  it.each(bad)('leaves out %s with a clear problem and keeps the rest', async (name, expected) => {
    const host = await openTempHost({ pluginModules: [spec(name), spec('good-plugin')] });
    try {
      expect(host.pluginProblems).toHaveLength(1);
      const [problem] = host.pluginProblems;
      expect(problem!.plugin).toBe(spec(name));
      for (const pattern of expected) expect(problem!.problems.join('\n')).toMatch(pattern);
      expect(host.registry.plugins().map((p) => p.name).filter((n) => !['jobs', 'runs', 'monitors'].includes(n))).toEqual(['text', 'counter']);
    } finally {
      await host.dispose();
    }
  });

  it('reports every problem of a bad tool, not just the first', async () => {
    const registry = new PluginRegistry();
    const problems = registry.check(
      definePlugin({
        name: 'p',
        version: '1.0.0',
        tools: [{ name: 'Bad Name', description: '', inputSchema: { type: 'object' }, permissions: [{ access: 'root' as never }] } as never],
      }),
    );
    expect(problems).toEqual([
      expect.stringMatching(/name must be snake_case/),
      expect.stringMatching(/description must be a non-empty string/),
      expect.stringMatching(/handler must be a function/),
      expect.stringMatching(/permission access "root"/),
    ]);
    expect(() => registry.register(definePlugin({ name: 'p', version: 'x' }))).toThrow(expect.objectContaining({ code: 'invalid_plugin' }));
  });

  it('refuses a readOnly that is not a boolean, and a read-only tool with an impact', () => {
    const registry = new PluginRegistry();
    const tool = { name: 'peek', description: 'Looks.', inputSchema: { type: 'object' }, permissions: [], handler: async () => ({ content: 'ok' }) };
    expect(registry.check(definePlugin({ name: 'p', version: '1.0.0', tools: [{ ...tool, readOnly: 'yes' } as never] }))).toEqual([expect.stringMatching(/readOnly must be true or false/)]);
    expect(registry.check(definePlugin({ name: 'p', version: '1.0.0', tools: [{ ...tool, readOnly: true, impact: 'network' } as never] }))).toEqual([
      expect.stringMatching(/a readOnly tool cannot have an impact/),
    ]);
    expect(registry.check(definePlugin({ name: 'p', version: '1.0.0', tools: [{ ...tool, readOnly: true }] }))).toEqual([]);
  });
});
