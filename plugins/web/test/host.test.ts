// Invariant: through a real Host, ops on different files of a web.app made from the same base both
// land (the second gets revision_conflict, is kept as a candidate, and accepting it keeps both);
// bad input (a path leaving the app, an absolute path, an oversized file, a patch whose snippet is
// missing) is refused with a clear error and writes nothing; the zip export, the view and the
// summary come through the host's services; and web_check's input schema refuses malformed steps.
import { unzipSync } from 'fflate';
import { isCoworkError } from '@cowork/host';
import { PluginRegistry } from '@cowork/host/embed';
import { openTempHost, type TempHost } from '@cowork/host/testkit';
import { plugin, sampleApp, type WebApp } from '../src';

describe('web plugin in a host', () => {
  let host: TempHost;

  beforeEach(async () => {
    host = await openTempHost({ plugins: [plugin], prefix: 'cowork-web-' });
  });

  afterEach(() => host.dispose());

  async function codeOf(attempt: () => Promise<unknown>): Promise<{ code: unknown; message: string }> {
    try {
      await attempt();
    } catch (error) {
      if (isCoworkError(error)) return { code: error.code, message: error.message };
      throw error;
    }
    return { code: 'ok', message: '' };
  }

  it('passes the loader checks', () => {
    expect(new PluginRegistry().check(plugin)).toEqual([]);
    expect(host.pluginProblems).toEqual([]);
    expect(host.registry.kinds().map((k) => k.kind.name)).toContain('web.app');
    expect(host.registry.tool('web_check')?.plugin).toBe('web');
  });

  it('keeps both a person restyling and an agent fixing the script from the same base', async () => {
    const r = await host.resources.create({ kind: 'web.app', content: sampleApp('packing-planner'), operator: 'human:ann' });
    const base = r.revision;
    await host.resources.commit(r.id, {
      baseRevision: base,
      op: { type: 'patch_file', path: 'style.css', find: '#message.refused { color: #a40000;', replace: '#message.refused { color: #c00000;' },
      operator: 'human:ann',
    });
    const conflict = await codeOf(() =>
      host.resources.commit(r.id, {
        baseRevision: base,
        op: { type: 'patch_file', path: 'app.js', find: 'only ${free} L left.', replace: 'only ${free} L of ${state.capacity} L left.' },
        operator: 'agent:a1',
      }),
    );
    expect(conflict.code).toBe('revision_conflict');
    const [candidate] = await host.resources.listCandidates(r.id, 'open');
    await host.resources.acceptCandidate(candidate!.id, { operator: 'agent:a1', baseRevision: base + 1 });

    const content = (await host.resources.get(r.id)).content as WebApp;
    expect((content.files['style.css'] as { text: string }).text).toContain('#message.refused { color: #c00000;');
    expect((content.files['app.js'] as { text: string }).text).toContain('only ${free} L of ${state.capacity} L left.');
    const diff = await host.resources.diff(r.id, base, base + 2);
    expect(diff).toContain('changed app.js:');
    expect(diff).toContain('changed style.css:');
  });

  it('refuses bad input with a clear error and writes nothing', async () => {
    const r = await host.resources.create({ kind: 'web.app', content: sampleApp('packing-planner'), operator: 'human:ann' });
    const commit = (op: unknown) => () => host.resources.commit(r.id, { baseRevision: 0, op, operator: 'agent:a1' });
    const results = [
      await codeOf(commit({ type: 'put_file', path: '../x', text: 'x' })),
      await codeOf(commit({ type: 'put_file', path: '/abs.js', text: 'x' })),
      await codeOf(commit({ type: 'put_file', path: 'big.js', text: 'x'.repeat(2 * 1024 * 1024) })),
      await codeOf(commit({ type: 'patch_file', path: 'app.js', find: 'no such code', replace: 'x' })),
    ];
    expect(results.map((r) => r.code)).toEqual(['invalid_op', 'invalid_op', 'invalid_op', 'invalid_op']);
    expect(results[0]!.message).toMatch(/"\.\.\/x" contains "\.\.", which would leave the app/);
    expect(results[1]!.message).toMatch(/is absolute/);
    expect(results[2]!.message).toMatch(/"big\.js" is 2,097,152 bytes \(2\.0 MiB\); a web\.app file may be at most 1,048,576 bytes/);
    expect(results[3]!.message).toMatch(/does not occur in "app\.js"/);

    // A 50 MB file is over the host's own cap on an op (8 MB), which refuses it before the kind sees it.
    const huge = await codeOf(commit({ type: 'put_file', path: 'huge.js', text: 'x'.repeat(50 * 1024 * 1024) }));
    expect(huge.code).toBe('content_too_large');
    expect(huge.message).toMatch(/over the limit/);
    // And a content created with a bad path is refused by the content schema.
    const created = await codeOf(() => host.resources.create({ kind: 'web.app', content: { entry: 'index.html', files: { '../evil.html': { text: '' } } }, operator: 'human:ann' }));
    expect(created.code).toBe('invalid_content');

    const after = await host.resources.get(r.id);
    expect(after.revision).toBe(0);
    expect(after.content).toEqual(sampleApp('packing-planner'));
    expect(await host.resources.listCandidates(r.id)).toEqual([]);
  });

  it('exports a zip of the revision asked for', async () => {
    const r = await host.resources.create({ kind: 'web.app', content: sampleApp('packing-planner'), operator: 'human:ann' });
    await host.resources.commit(r.id, { baseRevision: 0, op: { type: 'put_file', path: 'README.md', text: '# Planner\n' }, operator: 'human:ann' });
    const latest = await host.exports.export(r.id, 'zip');
    expect(latest.mediaType).toBe('application/zip');
    expect(Object.keys(unzipSync(latest.data)).sort()).toEqual(['README.md', 'app.js', 'index.html', 'style.css']);
    const first = await host.exports.export(r.id, 'zip', { revision: 0 });
    expect(Object.keys(unzipSync(first.data)).sort()).toEqual(['app.js', 'index.html', 'style.css']);
    expect(Buffer.from(unzipSync(first.data)['app.js']!).toString('utf8')).toBe((sampleApp('packing-planner').files['app.js'] as { text: string }).text);
  });

  it('shows the app in a frame and summarizes it', async () => {
    const r = await host.resources.create({ kind: 'web.app', operator: 'human:ann' });
    const view = await host.views.view(r.id);
    expect(view.blocks?.[0]).toEqual({ type: 'frame', url: `/apps/${r.id}/r/0/`, title: `Web app ${r.id}, revision 0` });
    expect(await host.resources.summarize(r.id)).toMatch(/^web\.app: 1 file, \d+ B in all; entry index\.html/);
  });

  it('refuses malformed web_check input by its schema, saying what is wrong', () => {
    const validate = host.registry.tool('web_check')!.validateInput;
    const problems = (input: unknown): string[] => (validate(input) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`));
    expect(problems({ resourceId: 'r', steps: [{ action: 'click', selector: '#add' }, { action: 'wait', ms: 100 }, { action: 'screenshot' }] })).toEqual([]);
    expect(problems({ resourceId: 'r', steps: [{ action: 'click' }] })).toContain("/steps/0 must have required property 'selector'");
    expect(problems({ resourceId: 'r', steps: [{ action: 'hover', selector: 'a' }] })).toContain('/steps/0/action must be equal to one of the allowed values');
    expect(problems({ resourceId: 'r', steps: [{ action: 'click', selector: 'a', timeoutMs: 60_000 }] })).toContain('/steps/0/timeoutMs must be <= 30000');
    expect(problems({ resourceId: 'r', steps: [{ action: 'type', selector: 'a', txt: 'x' }] })).toEqual(
      expect.arrayContaining(["/steps/0 must have required property 'text'", '/steps/0 must NOT have additional properties']),
    );
    expect(problems({ resourceId: 'r', steps: [{ action: 'wait' }] })).toContain("/steps/0 must have required property 'selector'");
    expect(problems({ resourceId: 'r', steps: [{ action: 'assert_text', selector: 'p' }] })).toContain("/steps/0 must have required property 'contains'");
    expect(problems({ resourceId: 'r', steps: [] })).toContain('/steps must NOT have fewer than 1 items');
  });
});
