/**
 * Invariant: every `cowork resources` command reaches the resource protocol and prints what it did,
 * as text or as `--json`; a commit on a stale base exits 3 with the `revision_conflict` error and
 * leaves the op as an open candidate that `candidates` lists and `candidates accept` can commit.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CandidateRecord, ResourceRecord, RevisionRecord } from '../../src/store/records';
import { jsonOf, runCli, tempDir, workspaceCli, type ErrorJson } from './cli-harness';

const dir = tempDir();
afterAll(() => dir.cleanup());
const { run, json } = workspaceCli(join(dir.path, 'ws'));

async function createText(text: string): Promise<string> {
  const resource = await json<ResourceRecord>('resources', 'create', '--kind', 'text', '--content', JSON.stringify({ text }));
  return resource.id;
}

describe('cowork resources', () => {
  it('creates, shows, commits and lists history, as text and as JSON', async () => {
    const created = await run('resources', 'create', '--kind', 'text', '--operator', 'human:ann');
    expect(created.code).toBe(0);
    const id = /created (\S+) \(text\) at revision 0/.exec(created.stdout)?.[1];
    expect(id).toBeDefined();

    const committed = await run('resources', 'commit', id!, '--base', '0', '--op', '{"type":"append","text":"hello\\nworld"}', '--operator', 'agent:a1');
    expect(committed).toMatchObject({ code: 0, stdout: `committed ${id} at revision 1\n`, stderr: '' });

    const shown = await run('resources', 'show', id!);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toBe(`${id}  kind text  revision 1\n\nhello\nworld\n`);
    expect(await json('resources', 'show', id!)).toEqual({ id, kind: 'text', revision: 1, currentRevision: 1, content: { text: 'hello\nworld' } });
    expect(await json('resources', 'show', id!, '--revision', '0')).toMatchObject({ revision: 0, currentRevision: 1, content: { text: '' } });
    expect((await run('resources', 'show', id!, '--revision', '0')).stdout).toContain('revision 0 (current revision 1)');

    const { revisions } = await json<{ revisions: RevisionRecord[] }>('resources', 'history', id!);
    expect(revisions.map((r) => [r.revision, r.action, r.operator, r.op])).toEqual([
      [0, 'create', 'human:ann', null],
      [1, 'op', 'agent:a1', { type: 'append', text: 'hello\nworld' }],
    ]);
    const history = await run('resources', 'history', id!);
    expect(history.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^0  \S+  human:ann  create$/),
      expect.stringMatching(/^1  \S+  agent:a1  op \{"type":"append","text":"hello\\nworld"\}$/),
    ]);
  });

  it('lists resources, optionally by kind', async () => {
    const id = await createText('listed');
    const { resources } = await json<{ resources: { id: string; kind: string; revision: number }[] }>('resources', 'list', '--kind', 'text');
    expect(resources).toContainEqual(expect.objectContaining({ id, kind: 'text', revision: 0 }));
    expect(await json('resources', 'list', '--kind', 'no.such.kind')).toEqual({ resources: [] });
    expect((await run('resources', 'list')).stdout).toMatch(new RegExp(`^${id}  text  revision 0  updated `, 'm'));
  });

  it('creates a resource with a title, and lists it with its title', async () => {
    const created = await run('resources', 'create', '--kind', 'text', '--title', 'Launch plan');
    const id = /created (\S+) \(text\) "Launch plan" at revision 0/.exec(created.stdout)?.[1];
    expect(id).toBeDefined();
    const { resources } = await json<{ resources: { id: string; title?: string }[] }>('resources', 'list', '--kind', 'text');
    expect(resources.find((r) => r.id === id)).toMatchObject({ title: 'Launch plan' });
    expect((await run('resources', 'list')).stdout).toMatch(new RegExp(`^${id}  text  revision 0  updated \\S+  "Launch plan"$`, 'm'));
    const refused = await run('resources', 'create', '--kind', 'text', '--title', '   ');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('title must be text of 1 to 200 characters');
  });

  it('defaults the operator of create to human:$USER, else human:cli', async () => {
    const withUser = await runCli(['resources', 'create', '--kind', 'text', '--json', '--workspace', join(dir.path, 'ws')], { env: { USER: 'zoe' } });
    const withoutUser = await runCli(['resources', 'create', '--kind', 'text', '--json', '--workspace', join(dir.path, 'ws')], { env: {} });
    for (const [created, operator] of [[withUser, 'human:zoe'], [withoutUser, 'human:cli']] as const) {
      const { revisions } = await json<{ revisions: RevisionRecord[] }>('resources', 'history', jsonOf<ResourceRecord>(created).id);
      expect(revisions[0]!.operator).toBe(operator);
    }
  });

  it('exits 3 on a stale base, prints revision_conflict, and keeps the op as an open candidate', async () => {
    const id = await createText('a');
    await json('resources', 'commit', id, '--base', '0', '--op', '{"type":"append","text":"b"}', '--operator', 'agent:one');

    const conflict = await run('resources', 'commit', id, '--base', '0', '--op', '{"type":"append","text":"c"}', '--operator', 'agent:two');
    expect(conflict.code).toBe(3);
    expect(conflict.stdout).toBe('');
    expect(conflict.stderr).toMatch(/^error revision_conflict: resource \S+ is at revision 1, not 0/);
    expect(conflict.stderr).toMatch(/\nhint: Someone committed first\./);

    const { candidates } = await json<{ candidates: CandidateRecord[] }>('resources', 'candidates', id);
    expect(candidates).toEqual([
      expect.objectContaining({ resourceId: id, status: 'open', baseRevision: 0, operator: 'agent:two', source: 'conflict', ops: [{ type: 'append', text: 'c' }] }),
    ]);
    expect(conflict.stderr).toContain(candidates[0]!.id);
    expect((await run('resources', 'candidates', id)).stdout).toMatch(new RegExp(`^${candidates[0]!.id}  open  conflict on revision 0  agent:two`));

    const asJson = await run('resources', 'commit', id, '--base', '0', '--op', '{"type":"append","text":"d"}', '--operator', 'agent:two', '--json');
    expect(asJson.code).toBe(3);
    expect(asJson.stderr).toBe('');
    const { error } = jsonOf<ErrorJson>(asJson);
    expect(error).toMatchObject({ code: 'revision_conflict', resourceId: id, baseRevision: 0, currentRevision: 1, candidateId: expect.any(String) });
    expect(error.hint).toMatch(/Someone committed first/);
    expect(await json('resources', 'candidates', id, '--status', 'open')).toMatchObject({ candidates: [{}, { id: error.candidateId }] });
  });

  it('accepts a candidate on a newer base and discards another; a closed candidate exits 1', async () => {
    const id = await createText('x');
    await json('resources', 'commit', id, '--base', '0', '--op', '{"type":"append","text":"1"}', '--operator', 'agent:one');
    await run('resources', 'commit', id, '--base', '0', '--op', '{"type":"append","text":"2"}', '--operator', 'agent:two');
    await run('resources', 'commit', id, '--base', '0', '--op', '{"type":"append","text":"3"}', '--operator', 'agent:three');
    const { candidates } = await json<{ candidates: CandidateRecord[] }>('resources', 'candidates', id);
    const [first, second] = candidates;

    const stale = await run('resources', 'candidates', 'accept', first!.id, '--operator', 'human:main');
    expect(stale.code).toBe(3);
    const accepted = await run('resources', 'candidates', 'accept', first!.id, '--operator', 'human:main', '--base', '1');
    expect(accepted).toMatchObject({ code: 0, stdout: `accepted ${first!.id}: ${id} is at revision 2\n` });
    const discarded = await json<CandidateRecord>('resources', 'candidates', 'discard', second!.id, '--operator', 'human:main');
    expect(discarded).toMatchObject({ id: second!.id, status: 'discarded', resolvedBy: 'human:main' });

    expect(await json('resources', 'show', id)).toMatchObject({ revision: 2, content: { text: 'x12' } });
    expect(await json('resources', 'candidates', id, '--status', 'accepted')).toMatchObject({
      candidates: [{ id: first!.id, acceptedRevision: 2, resolvedBy: 'human:main' }],
    });
    expect(await json('resources', 'candidates', id, '--status', 'open')).toEqual({ candidates: [] });

    const closed = await run('resources', 'candidates', 'discard', second!.id, '--operator', 'human:main', '--json');
    expect(closed.code).toBe(1);
    expect(jsonOf<ErrorJson>(closed).error.code).toBe('candidate_closed');
  });

  it('restores an old revision as a new one, and lists changes by others', async () => {
    const id = await createText('v0');
    await json('resources', 'commit', id, '--base', '0', '--op', '{"type":"set","text":"v1"}', '--operator', 'agent:a');
    await json('resources', 'commit', id, '--base', '1', '--op', '{"type":"set","text":"v2"}', '--operator', 'human:bo');

    const restored = await run('resources', 'restore', id, '--revision', '0', '--base', '2', '--operator', 'human:bo');
    expect(restored).toMatchObject({ code: 0, stdout: `restored ${id} to the content of revision 0, now at revision 3\n` });
    expect(await json('resources', 'show', id)).toMatchObject({ revision: 3, content: { text: 'v0' } });

    const byOthers = await json<{ revisions: RevisionRecord[] }>('resources', 'changes', id, '--since', '0', '--exclude-operator', 'human:bo');
    expect(byOthers.revisions.map((r) => [r.revision, r.operator])).toEqual([[1, 'agent:a']]);
    const all = await json<{ revisions: RevisionRecord[] }>('resources', 'changes', id, '--since', '1');
    expect(all.revisions.map((r) => [r.revision, r.action])).toEqual([[2, 'op'], [3, 'restore']]);
    expect((await run('resources', 'changes', id, '--since', '3')).stdout).toBe('no changes after revision 3\n');
  });

  it('uses ./.cowork under the cwd by default, and COWORK_WORKSPACE when set', async () => {
    const cwd = join(dir.path, 'project');
    const byDefault = await runCli(['resources', 'create', '--kind', 'text'], { cwd, env: { USER: 'ann' } });
    expect(byDefault.code).toBe(0);
    expect(existsSync(join(cwd, '.cowork', 'cowork.db'))).toBe(true);

    const fromEnv = await runCli(['resources', 'create', '--kind', 'text', '--json'], { cwd, env: { USER: 'ann', COWORK_WORKSPACE: 'elsewhere' } });
    const listed = await runCli(['resources', 'list', '--json', '--workspace', join(cwd, 'elsewhere')], { cwd });
    expect(jsonOf<{ resources: { id: string }[] }>(listed).resources.map((r) => r.id)).toEqual([jsonOf<ResourceRecord>(fromEnv).id]);
  });
});
