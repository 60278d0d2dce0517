/**
 * Invariant: a published item is immutable. Publishing copies a resource's export at a revision,
 * or a file of the task's `work/`, into `tasks/<id>/published/<pubId>/` with a manifest, and then
 * records it; the bytes stay byte-identical whatever happens to the resource afterwards. Bad input
 * (a missing revision, an unknown format, a path outside `work/`, a missing file) is refused with a
 * clear code before anything is written. Main's `publish` waits for a person under the workspace's
 * policy; a subagent never has it.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAIN_ONLY_TOOLS } from '../../src/agents/main-tools';
import { taskPaths } from '../../src/agents/task-files';
import { caught } from '../support/temp-host';
import { mainCalls, nextPendingApproval, startRuntime, type RuntimeHarness } from './runtime-harness';

let h: RuntimeHarness;
afterEach(() => h.dispose());

const sha = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');



/** The entries of the task's published folder (none when it was never made). */
function publishedEntries(taskId: string): string[] {
  const dir = taskPaths(h.host.workspaceDir, taskId).published;
  return existsSync(dir) ? readdirSync(dir) : [];
}

it('publishes an export at revision N; the bytes stay identical after the resource moves on', async () => {
  h = await startRuntime(mainCalls([]));
  const taskId = await h.runtime.startTask('deliver the text');
  const doc = await h.host.resources.create({ kind: 'text', content: { text: 'first' }, operator: 'human:ann' });
  await h.host.resources.commit(doc.id, { baseRevision: doc.revision, op: { type: 'append', text: ' second' }, operator: 'human:ann' });
  const atN = (await h.host.resources.get(doc.id)).revision;
  const expected = (await h.host.exports.export(doc.id, 'txt', { revision: atN })).data;

  const published = await h.host.publications.publish({ taskId, source: { resourceId: doc.id, format: 'txt', revision: atN }, operator: 'human:ann' });
  for (let i = 0; i < 3; i++) {
    const head = (await h.host.resources.get(doc.id)).revision;
    await h.host.resources.commit(doc.id, { baseRevision: head, op: { type: 'set', text: `changed ${i}` }, operator: 'human:bob' });
  }

  const path = h.host.publications.filePath(published);
  const onDisk = readFileSync(path);
  expect(Buffer.compare(onDisk, Buffer.from(expected))).toBe(0);
  expect(onDisk.toString()).toBe('first second');
  expect(statSync(path).mode & 0o222).toBe(0);
  const manifest = JSON.parse(readFileSync(join(path, '..', 'manifest.json'), 'utf8'));
  expect(manifest).toEqual({
    id: published.id,
    taskId,
    source: { type: 'export', resourceId: doc.id, format: 'txt', revision: atN },
    revision: atN,
    commit: null,
    sha256: sha(onDisk),
    bytes: onDisk.byteLength,
    mediaType: 'text/plain; charset=utf-8',
    fileName: `${doc.id}-r${atN}.txt`,
    publishedAt: published.publishedAt,
    operator: 'human:ann',
  });
  expect(await h.host.publications.manifest(published.id)).toEqual(manifest);
  const read = await h.host.publications.read(published.id);
  expect(read.data.toString()).toBe('first second');
  expect((await h.host.publications.list(taskId)).map((p) => p.id)).toEqual([published.id]);
  // The newest export has moved on; the published one has not.
  expect(Buffer.from((await h.host.exports.export(doc.id, 'txt')).data).toString()).toBe('changed 2');
});

it('publishes a file of work/ under its own or a given name; the same key answers the same publication', async () => {
  h = await startRuntime(mainCalls([]));
  const taskId = await h.runtime.startTask('deliver a report');
  const work = taskPaths(h.host.workspaceDir, taskId).work;
  mkdirSync(join(work, 'out'), { recursive: true });
  writeFileSync(join(work, 'out', 'report.md'), '# Report\n');

  const first = await h.host.publications.publish({ taskId, source: { file: 'out/report.md' }, operator: 'human:ann', idempotencyKey: 'k1' });
  expect(first).toMatchObject({ fileName: 'report.md', mediaType: 'text/markdown; charset=utf-8', revision: null, commit: null, bytes: 9, sha256: sha(Buffer.from('# Report\n')) });
  expect(first.source).toEqual({ type: 'file', path: 'out/report.md', sha256: first.sha256, bytes: 9 });
  const again = await h.host.publications.publish({ taskId, source: { file: 'out/report.md' }, operator: 'human:ann', idempotencyKey: 'k1' });
  expect(again.id).toBe(first.id);

  // The work file changes; the published copy does not, and a new publication is a new folder.
  writeFileSync(join(work, 'out', 'report.md'), '# Report v2\n');
  const second = await h.host.publications.publish({ taskId, source: { file: 'out/report.md' }, name: 'final.md', operator: 'human:ann' });
  expect(second.id).not.toBe(first.id);
  expect(second.fileName).toBe('final.md');
  expect((await h.host.publications.read(first.id)).data.toString()).toBe('# Report\n');
  expect((await h.host.publications.read(second.id)).data.toString()).toBe('# Report v2\n');
  expect(publishedEntries(taskId).sort()).toEqual([first.id, second.id].sort());
});

it('refuses bad input with a clear code and writes nothing', async () => {
  h = await startRuntime(mainCalls([]));
  const taskId = await h.runtime.startTask('try bad things');
  const doc = await h.host.resources.create({ kind: 'text', content: { text: 'x' }, operator: 'human:ann' });
  const work = taskPaths(h.host.workspaceDir, taskId).work;
  writeFileSync(join(h.host.workspaceDir, 'secret.txt'), 'secret');
  symlinkSync(join(h.host.workspaceDir, 'secret.txt'), join(work, 'link-out.txt'));
  symlinkSync('../../../secret.txt', join(work, 'relative-out.txt'));
  const publish = (source: never, extra: Record<string, unknown> = {}) => caught(() => h.host.publications.publish({ taskId, source, operator: 'human:ann', ...extra }));

  const missingRevision = await publish({ resourceId: doc.id, format: 'txt', revision: 99 } as never);
  expect(missingRevision.code).toBe('not_found');
  expect(missingRevision.message).toContain('no revision 99');
  expect((await publish({ resourceId: doc.id, format: 'docx' } as never)).code).toBe('unknown_format');
  expect((await publish({ resourceId: 'res_nope', format: 'txt' } as never)).code).toBe('not_found');
  for (const file of ['../memory.md', '../../../secret.txt', join(h.host.workspaceDir, 'secret.txt'), 'link-out.txt', 'relative-out.txt']) {
    const error = await publish({ file } as never);
    expect([file, error.code]).toEqual([file, 'invalid_input']);
    expect(error.details).toMatchObject({ field: 'file' });
  }
  expect((await publish({ file: 'nope.txt' } as never)).code).toBe('not_found');
  mkdirSync(join(work, 'folder'));
  expect((await publish({ file: 'folder' } as never)).details).toMatchObject({ reason: 'not_a_file' });
  writeFileSync(join(work, 'ok.txt'), 'ok');
  expect((await publish({ file: 'ok.txt' } as never, { name: '../escape.txt' })).code).toBe('invalid_input');
  expect((await publish({ file: 'ok.txt' } as never, { name: 'manifest.json' })).code).toBe('invalid_input');
  expect((await caught(() => h.host.publications.publish({ taskId: 'task_nope', source: { file: 'ok.txt' }, operator: 'human:ann' }))).code).toBe('not_found');
  expect((await caught(() => h.host.publications.get('pub_nope'))).code).toBe('not_found');

  expect(await h.host.publications.list(taskId)).toEqual([]);
  expect(publishedEntries(taskId)).toEqual([]);
});

it("Main's publish waits for a person under the default policy: runs when approved, answers denied when denied", async () => {
  h = await startRuntime(
    mainCalls([
      ['publish', { file: 'result.txt' }],
      ['publish', { file: 'result.txt', name: 'again.txt' }],
    ]) as never,
  );
  const taskId = await h.runtime.startTask('publish the result');
  writeFileSync(join(taskPaths(h.host.workspaceDir, taskId).work, 'result.txt'), 'forty-two');
  const run = h.runtime.runTask(taskId);

  const first = await nextPendingApproval(h.host);
  expect(first).toMatchObject({ taskId, agentId: 'main', tool: 'publish', impact: 'publish', input: { file: 'result.txt' }, status: 'pending' });
  await new Promise((r) => setTimeout(r, 100));
  expect(await h.host.publications.list(taskId)).toEqual([]);
  const second = nextPendingApproval(h.host);
  await h.host.approvals.decide(first.id, 'approved', 'human:ann');
  const pendingSecond = await second;
  await h.host.approvals.decide(pendingSecond.id, 'denied', 'human:ann', 'once is enough');

  const result = await run;
  expect(result.status).toBe('done');
  const summary = (result as { summary: string }).summary;
  expect(summary).toContain('"published":true');
  expect(summary).toContain('"code":"denied"');
  expect(summary).toContain('once is enough');
  const published = await h.host.publications.list(taskId);
  expect(published.map((p) => [p.fileName, p.operator])).toEqual([['result.txt', 'agent:main']]);
  expect((await h.host.publications.read(published[0]!.id)).data.toString()).toBe('forty-two');
  expect(publishedEntries(taskId)).toEqual([published[0]!.id]);
});

it('a subagent never has publish', () => {
  h = { dispose: async () => undefined } as RuntimeHarness;
  expect(MAIN_ONLY_TOOLS).toContain('publish');
});
