/**
 * Invariant: with no --plugins and no COWORK_PLUGINS, the CLI (and so `cowork serve`) loads every
 * plugin installed in a node_modules above the working directory, found by its package.json alone;
 * COWORK_PLUGINS set to empty loads none. A command on one resource kind imports only the plugins
 * whose package.json lists that kind (or lists no kinds), and a listed kind the plugin does not
 * bring keeps the plugin out with a message saying so.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { discoverInstalledPlugins, discoverPluginManifests, pluginsForKind } from '../../src/plugins/discover';
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
    // Lists its kind, and fails if it is ever imported: only a command that needs it may load it.
    install('cowork-heavy', { cowork: { plugin: true, kinds: ['heavy.model'] } }, 'throw new Error("cowork-heavy was imported");');
    install('cowork-listed', { cowork: { plugin: true, kinds: ['listed.pad'] } }, plugin('listed', 'listed.pad'));
    install('cowork-mislisted', { cowork: { plugin: true, kinds: ['wrong.name'] } }, plugin('mislisted', 'right.name'));
    mkdirSync(join(project, 'sub'), { recursive: true });
  });

  it('finds plugin packages by their manifest, scoped or not, from any folder below', () => {
    expect(discoverInstalledPlugins(join(project, 'sub'))).toEqual(expect.arrayContaining(['@acme/cowork-notes', 'cowork-sketch']));
    expect(discoverInstalledPlugins(join(project, 'sub'))).not.toContain('left-pad');
  });

  it('reads the kinds a plugin lists in its package.json', () => {
    const manifests = discoverPluginManifests(join(project, 'sub'));
    expect(manifests.find((m) => m.name === 'cowork-listed')).toEqual({ name: 'cowork-listed', kinds: ['listed.pad'] });
    expect(manifests.find((m) => m.name === 'cowork-sketch')).toEqual({ name: 'cowork-sketch' });
    expect(pluginsForKind(manifests, 'listed.pad')).toEqual(expect.arrayContaining(['cowork-listed', 'cowork-sketch', '@acme/cowork-notes']));
    expect(pluginsForKind(manifests, 'listed.pad')).not.toContain('cowork-heavy');
  });

  it('imports for a command on a kind only the plugins that may bring it', async () => {
    const workspace = join(dir.path, 'ws-kinds');
    const created = await runCli(['resources', 'create', '--kind', 'listed.pad', '--json', '--workspace', workspace], { cwd: join(project, 'sub') });
    expect(created.code).toBe(0);
    expect(created.stderr).not.toContain('cowork-heavy');
    const id = jsonOf<{ id: string }>(created).id;
    const committed = await runCli(['resources', 'commit', id, '--base', '0', '--op', '{"type":"append","text":"hi"}', '--operator', 'human:ann', '--workspace', workspace], { cwd: join(project, 'sub') });
    expect(committed.code).toBe(0);
    expect(committed.stderr).not.toContain('cowork-heavy');
    // Every plugin loads for a command that lists them all; the one that throws is reported.
    const listed = await runCli(['plugins', '--json', '--workspace', workspace], { cwd: join(project, 'sub') });
    const problems = jsonOf<{ problems: { plugin: string; problems: string[] }[] }>(listed).problems;
    expect(problems.find((p) => p.plugin === 'cowork-heavy')?.problems.join(' ')).toContain('cowork-heavy was imported');
  });

  it('keeps out a plugin whose package.json lists kinds it does not bring, and says how to fix it', async () => {
    const listed = await runCli(['plugins', '--json', '--workspace', join(dir.path, 'ws-mislisted')], { cwd: join(project, 'sub') });
    const report = jsonOf<{ plugins: { name: string }[]; problems: { plugin: string; problems: string[] }[] }>(listed);
    expect(report.plugins.map((p) => p.name)).not.toContain('mislisted');
    expect(report.problems.find((p) => p.plugin === 'cowork-mislisted')?.problems.join(' ')).toContain(
      'its package.json lists the kinds ["wrong.name"] but the plugin brings ["right.name"]; make "cowork": {"kinds": [...]} in package.json list exactly the kinds',
    );
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
