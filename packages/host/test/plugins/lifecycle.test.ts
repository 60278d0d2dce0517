/**
 * Invariant: a plugin's `start` runs once the host has opened, with the workspace and whether the
 * host is long-lived, and its `close` runs when the host closes, plugins in reverse order. A start
 * that throws is a plugin problem, not a host that fails to open; a close that throws is reported
 * and the other plugins still close. Hooks that are not functions are refused with the manifest.
 */
import { defineKind, definePlugin } from '../../src/plugins/define-plugin';
import { PluginRegistry } from '../../src/plugins/registry';
import type { PluginDefinition, PluginStartContext } from '../../src/plugins/types';
import { openTempHost } from '../support/temp-host';

function recordingPlugin(name: string, calls: string[], hooks: Partial<Pick<PluginDefinition, 'start' | 'close'>> = {}): PluginDefinition {
  return definePlugin({
    name,
    version: '1.0.0',
    kinds: [
      defineKind({
        name: `${name}.note`,
        description: 'a note',
        revisionSemantics: 'host',
        contentSchema: { type: 'string' },
        opSchema: { type: 'string' },
        initialContent: () => '',
        applyOp: (_content: string, op: string) => op,
        summarize: (content: string) => content,
        diff: () => '',
      }),
    ],
    start: hooks.start ?? ((context: PluginStartContext) => void calls.push(`start ${name} longLived=${context.longLived} ${context.workspaceDir !== ''}`)),
    close: hooks.close ?? (() => void calls.push(`close ${name}`)),
  });
}

describe('plugin lifecycle', () => {
  it('starts plugins in load order once the host is open and closes them in reverse order', async () => {
    const calls: string[] = [];
    const host = await openTempHost({ plugins: [recordingPlugin('first', calls), recordingPlugin('second', calls)] });
    expect(calls).toEqual(['start first longLived=true true', 'start second longLived=true true']);
    await host.dispose();
    expect(calls.slice(2)).toEqual(['close second', 'close first']);
  });

  it('tells a plugin when the host serves only one short command', async () => {
    const calls: string[] = [];
    const host = await openTempHost({ plugins: [recordingPlugin('short', calls)], pollMonitors: false });
    await host.dispose();
    expect(calls[0]).toBe('start short longLived=false true');
  });

  it('reports a start that throws as a plugin problem, and keeps the plugin and the host working', async () => {
    const calls: string[] = [];
    const failing = recordingPlugin('failing', calls, {
      start: () => {
        throw new Error('the kernel did not load');
      },
    });
    const host = await openTempHost({ plugins: [failing, recordingPlugin('fine', calls)] });
    try {
      expect(host.pluginProblems).toEqual([{ plugin: 'failing', problems: ['start failed: the kernel did not load'] }]);
      const r = await host.resources.create({ kind: 'failing.note', operator: 'human:ann' });
      await host.resources.commit(r.id, { baseRevision: 0, op: 'hello', operator: 'human:ann' });
      expect((await host.resources.get(r.id)).content).toBe('hello');
      expect(calls).toEqual(['start fine longLived=true true']);
    } finally {
      await host.dispose();
    }
    expect(calls).toContain('close failing');
  });

  it('reports a close that throws and still closes the other plugins and the host', async () => {
    const calls: string[] = [];
    const errors: unknown[] = [];
    const stuck = recordingPlugin('stuck', calls, {
      close: async () => {
        throw new Error('the worker would not stop');
      },
    });
    const host = await openTempHost({ plugins: [recordingPlugin('before', calls), stuck], onBackgroundError: (error) => errors.push(error) });
    await host.dispose();
    expect(calls).toContain('close before');
    expect(errors.map(String)).toEqual(['Error: plugin stuck failed to close: the worker would not stop']);
    await expect(host.resources.list()).rejects.toThrow();
  });

  it('refuses hooks that are not functions', () => {
    const plugin = { ...recordingPlugin('odd', []), start: 'soon', close: 42 } as unknown as PluginDefinition;
    expect(new PluginRegistry().check(plugin)).toEqual(['start must be a function when given', 'close must be a function when given']);
  });
});
