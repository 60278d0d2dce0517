/**
 * Invariants of the export contract: a kind declares its formats; the host runs the exporter on the
 * newest or a given revision in a scratch directory it removes; an unknown format is
 * `unknown_format` listing the kind's formats; an exporter that throws is reported as the plugin's
 * failure; bad export declarations are refused when the plugin loads.
 */
import { existsSync } from 'node:fs';
import { definePlugin } from '../../src/plugins/define-plugin';
import { textKind } from '../../src/plugins/builtin/text-kind';
import { PluginRegistry } from '../../src/plugins/registry';
import { caught, openTempHost } from '../support/temp-host';

describe('exports', () => {
  it('exports the newest or an old revision, and cleans its scratch directory', async () => {
    let scratch = '';
    const spy = definePlugin({
      name: 'spy',
      version: '1.0.0',
      kinds: [
        {
          ...textKind,
          name: 'spy.text',
          exports: {
            upper: {
              mediaType: 'text/plain',
              extension: 'txt',
              export: async (content, context) => {
                scratch = context.workDir;
                if (!existsSync(context.workDir)) throw new Error('no scratch directory');
                return new TextEncoder().encode(`${context.revision}:${(content as { text: string }).text.toUpperCase()}`);
              },
            },
            broken: { mediaType: 'text/plain', extension: 'txt', export: async () => Promise.reject(new Error('converter crashed')) },
          },
        },
      ],
    });
    const host = await openTempHost({ plugins: [spy] });
    try {
      const r = await host.resources.create({ kind: 'spy.text', content: { text: 'one' }, operator: 'human:ann' });
      await host.resources.commit(r.id, { baseRevision: 0, op: { type: 'set', text: 'two' }, operator: 'human:ann' });
      const now = await host.exports.export(r.id, 'upper');
      expect(new TextDecoder().decode(now.data)).toBe('1:TWO');
      expect(now).toMatchObject({ mediaType: 'text/plain', fileName: `${r.id}-r1.txt`, revision: 1 });
      expect(existsSync(scratch)).toBe(false);
      const old = await host.exports.export(r.id, 'upper', { revision: 0 });
      expect(new TextDecoder().decode(old.data)).toBe('0:ONE');

      const unknown = await caught(() => host.exports.export(r.id, 'docx'));
      expect(unknown).toMatchObject({ code: 'unknown_format', details: { formats: ['upper', 'broken'] } });
      expect(await caught(() => host.exports.export(r.id, 'broken'))).toMatchObject({ code: 'plugin_failed', details: { plugin: 'spy' } });
      expect((await caught(() => host.exports.export(r.id, 'toString'))).code).toBe('unknown_format');
      expect(await host.exports.formats(r.id)).toEqual([
        { format: 'upper', mediaType: 'text/plain', extension: 'txt', description: undefined },
        { format: 'broken', mediaType: 'text/plain', extension: 'txt', description: undefined },
      ]);

      const text = await host.resources.create({ kind: 'text', content: { text: 'plain' }, operator: 'human:ann' });
      expect(new TextDecoder().decode((await host.exports.export(text.id, 'txt')).data)).toBe('plain');
    } finally {
      await host.dispose();
    }
  });

  it('refuses bad export declarations at load time', () => {
    const registry = new PluginRegistry();
    const problems = registry.check(
      definePlugin({
        name: 'bad-exports',
        version: '1.0.0',
        kinds: [{ ...textKind, name: 'bad.text', exports: { 'No Spaces': { mediaType: 'pdf', extension: '', export: 'nope' as never } } }],
      }),
    );
    expect(problems).toEqual([
      expect.stringMatching(/format name must be lower-case/),
      expect.stringMatching(/mediaType must be a media type/),
      expect.stringMatching(/extension must be a non-empty string/),
      expect.stringMatching(/export must be a function/),
    ]);
  });
});
