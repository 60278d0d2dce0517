/**
 * Invariant: with no --plugins and no COWORK_PLUGINS, the CLI (and so `cowork serve`) loads every
 * plugin installed in a node_modules above the working directory, found by its package.json alone;
 * COWORK_PLUGINS set to empty loads none.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { discoverInstalledPlugins } from '../../src/plugins/discover';
import { jsonOf, runCli, tempDir } from './cli-harness';

describe('installed plugins', () => {
  const dir = tempDir();
  afterAll(() => dir.cleanup());
  const project = join(dir.path, 'project');
  const definePluginPath = join(__dirname, '../../src/plugins/define-plugin');

  beforeAll(() => {
    const install = (name: string, manifest: Record<string, unknown>, code?: string): void => {
      const at = join(project, 'node_modules', name);
      mkdirSync(at, { recursive: true });
      writeFileSync(join(at, 'package.json'), JSON.stringify({ name, version: '1.0.0', main: 'index.js', ...manifest }));
      if (code) writeFileSync(join(at, 'index.js'), code);
    };
    const plugin = (name: string, kind: string): string => `
      const { definePlugin } = require(${JSON.stringify(definePluginPath)});
      const { textKind } = require(${JSON.stringify(join(__dirname, '../../src/plugins/builtin/text-kind'))});
      exports.plugin = definePlugin({ name: ${JSON.stringify(name)}, version: '1.0.0', kinds: [{ ...textKind, name: ${JSON.stringify(kind)} }] });`;
    install('@acme/cowork-notes', { cowork: { plugin: true } }, plugin('acme-notes', 'acme.notes'));
    install('cowork-sketch', { keywords: ['cowork-plugin'] }, plugin('sketch', 'sketch.pad'));
    install('left-pad', {});
    mkdirSync(join(project, 'sub'), { recursive: true });
  });

  it('finds plugin packages by their manifest, scoped or not, from any folder below', () => {
    expect(discoverInstalledPlugins(join(project, 'sub'))).toEqual(expect.arrayContaining(['@acme/cowork-notes', 'cowork-sketch']));
    expect(discoverInstalledPlugins(join(project, 'sub'))).not.toContain('left-pad');
  });

  it('loads them by default, and none when COWORK_PLUGINS is empty', async () => {
    const workspace = join(dir.path, 'ws');
    const listed = await runCli(['plugins', '--json', '--workspace', workspace], { cwd: join(project, 'sub') });
    expect(listed.code).toBe(0);
    const names = jsonOf<{ plugins: { name: string }[] }>(listed).plugins.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['acme-notes', 'sketch']));
    const none = await runCli(['plugins', '--json', '--workspace', workspace], { cwd: join(project, 'sub'), env: { USER: 'tester', COWORK_PLUGINS: '' } });
    expect(jsonOf<{ plugins: { name: string }[] }>(none).plugins.map((p) => p.name)).not.toContain('acme-notes');
  });
});
