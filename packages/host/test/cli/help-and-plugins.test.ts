/**
 * Invariant: `cowork --help`, `cowork help` and `cowork <command> --help` describe every command,
 * the common options and the exit codes, from the same declarations the parser uses; `cowork
 * plugins` lists the loaded plugins with their kinds' revision semantics and their tools, and
 * reports plugins that failed to load without failing.
 */
import { join } from 'node:path';
import { COMMANDS } from '../../src/cli/main';
import { jsonOf, runCli, tempDir, workspaceCli } from './cli-harness';

const dir = tempDir();
afterAll(() => dir.cleanup());
const workspace = join(dir.path, 'ws');
const notesPlugin = join(__dirname, 'fixtures', 'notes-plugin', 'index.js');

describe('cowork --help', () => {
  it('lists every command, the common options and the exit codes, and writes no workspace', async () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const help = await runCli(args);
      expect(help).toMatchObject({ code: 0, stderr: '' });
      for (const usage of [
        'cowork plugins',
        'cowork resources list [--kind K]',
        'cowork resources create --kind K [--content JSON] [--title TEXT] [--operator OP]',
        'cowork resources show ID [--revision N]',
        'cowork resources commit ID --base N --op JSON --operator OP',
        'cowork resources history ID',
        'cowork resources candidates ID [--status S]',
        'cowork resources candidates accept CID --operator OP [--base N]',
        'cowork resources candidates discard CID --operator OP',
        'cowork resources restore ID --revision N --base N --operator OP',
        'cowork resources changes ID --since N [--exclude-operator OP]',
        '--workspace DIR',
        '--plugins a,b',
        '--json',
      ]) {
        expect(help.stdout).toContain(usage);
      }
      expect(help.stdout).toMatch(/^ {2}3 {2}revision_conflict/m);
      expect(help.stdout).toMatch(/^ {2}2 {2}usage or invalid input \(invalid_input, invalid_json, invalid_op, invalid_content, unknown_kind, content_too_large, unknown_format, invalid_file, command_not_found, model_not_configured\)/m);
      expect(help.stdout).toMatch(/^ {2}4 {2}not_found/m);
      expect(help.stdout).toMatch(/^ {2}5 {2}store_busy, external_unavailable/m);
    }
  });

  it('shows one command\'s options with `<command> --help` and `help <command>`', async () => {
    const viaFlag = await runCli(['resources', 'commit', '--help']);
    const viaHelp = await runCli(['help', 'resources', 'commit']);
    expect(viaFlag).toMatchObject({ code: 0, stderr: '' });
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
    expect(viaFlag.stdout).toMatch(/^Usage: cowork resources commit ID --base N --op JSON --operator OP\n/);
    expect(viaFlag.stdout).toMatch(/--base N +\(required\) the revision the op was made against/);
    expect((await runCli(['resources', '--help'])).stdout).toContain('cowork resources candidates accept CID');
    expect((await runCli(['resources', 'candidates', '--help'])).stdout).toContain('cowork resources candidates discard CID --operator OP');
  });

  it('rejects an unknown command with exit 2 and says where to look', async () => {
    const unknown = await runCli(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^error invalid_input: unknown command "frobnicate"\. Usage: cowork <command>\. Run `cowork --help` for details\.\n/);
  });

  it('takes a map of commands, so adding one is one entry', () => {
    expect(Object.keys(COMMANDS)).toEqual(expect.arrayContaining(['plugins', 'resources', 'jobs', 'run', 'tasks', 'task']));
  });
});

/** Plugins every host registers itself: the `text` kind and the runtime's own tools. */
const BUILT_IN = ['text', 'jobs', 'runs', 'monitors'];

describe('cowork plugins', () => {
  const { run, json } = workspaceCli(workspace);

  it('lists the built-in text plugin with its kind and revision semantics', async () => {
    const report = await json<{ plugins: { name: string }[]; problems: unknown[] }>('plugins');
    expect(report.problems).toEqual([]);
    expect(report.plugins[0]).toEqual({
      name: 'text',
      version: expect.any(String),
      description: expect.any(String),
      kinds: [{ name: 'text', description: expect.any(String), revisionSemantics: 'host' }],
      tools: [],
    });
    // The host's own tools (jobs, runs, monitors) are registered like a plugin's, with no kinds.
    expect(report.plugins.find((p) => p.name === 'jobs')).toEqual({
      name: 'jobs',
      version: expect.any(String),
      description: expect.any(String),
      kinds: [],
      tools: ['start_job', 'job_status', 'job_logs', 'cancel_job'].map((name) => ({ name, description: expect.any(String), permissions: [] })),
    });
    const text = await run('plugins');
    expect(text).toMatchObject({ code: 0, stderr: '' });
    expect(text.stdout).toMatch(/^ {2}kind text \(revisions: host\): /m);
  });

  it('loads --plugins, lists their kinds and tools, and reports the ones that failed to load', async () => {
    const listed = await run('plugins', '--plugins', `${notesPlugin}, ./no-such-plugin`, '--json');
    expect(listed.code).toBe(0);
    const report = jsonOf<{ plugins: { name: string }[]; problems: { plugin: string; problems: string[] }[] }>(listed);
    expect(report.plugins.map((p) => p.name).filter((n) => !BUILT_IN.includes(n))).toEqual(['notes']);
    expect(report.plugins[0]!.name).toBe('text');
    expect(report.plugins.find((p) => p.name === 'notes')).toEqual({
      name: 'notes',
      version: '2.1.0',
      description: 'Lists of short notes.',
      kinds: [{ name: 'notes', description: 'An ordered list of notes.', revisionSemantics: 'host' }],
      tools: [{ name: 'read_notes', description: expect.stringMatching(/^Reads a notes resource\./), permissions: [{ access: 'read' }] }],
    });
    expect(report.problems).toEqual([{ plugin: './no-such-plugin', problems: [expect.stringMatching(/Cannot find module/)] }]);

    const text = await run('plugins', '--plugins', `${notesPlugin},./no-such-plugin`);
    expect(text.stdout).toContain('notes 2.1.0: Lists of short notes.');
    expect(text.stdout).toContain('  tool read_notes (needs read): Reads a notes resource.\n');
    expect(text.stdout).toMatch(/^not loaded: \.\/no-such-plugin\n {2}.*Cannot find module/m);
  });

  it('takes the common options before the command too, as the README writes it', async () => {
    const before = await runCli(['--plugins', notesPlugin, '--workspace', workspace, '--json', 'plugins']);
    expect(before.code).toBe(0);
    expect(jsonOf<{ plugins: { name: string }[] }>(before).plugins.map((p) => p.name).filter((n) => !BUILT_IN.includes(n))).toEqual(['notes']);
  });

  it("uses a plugin's kind from COWORK_PLUGINS, and warns about plugins that failed to load", async () => {
    const env = { USER: 'ann', COWORK_PLUGINS: `${notesPlugin},./no-such-plugin` };
    const created = await runCli(['resources', 'create', '--kind', 'notes', '--json', '--workspace', workspace], { env });
    expect(created.code).toBe(0);
    expect(created.stderr).toMatch(/^warning: plugin \.\/no-such-plugin was not loaded: .*Cannot find module/);
    const id = jsonOf<{ id: string }>(created).id;
    const committed = await runCli(['resources', 'commit', id, '--base', '0', '--op', '{"add":"milk"}', '--operator', 'human:ann', '--workspace', workspace], { env });
    expect(committed.code).toBe(0);
    const shown = await runCli(['resources', 'show', id, '--workspace', workspace], { env });
    expect(shown.stdout).toBe(`${id}  kind notes  revision 1\n\n{\n  "notes": [\n    "milk"\n  ]\n}\n`);

    const withoutPlugin = await run('resources', 'show', id, '--json');
    expect(withoutPlugin.code).toBe(0);
    const commitWithoutPlugin = await run('resources', 'commit', id, '--base', '1', '--op', '{"add":"eggs"}', '--operator', 'human:ann', '--json');
    expect(commitWithoutPlugin.code).toBe(2);
    expect(jsonOf<{ error: { code: string } }>(commitWithoutPlugin).error.code).toBe('unknown_kind');
  });
});
