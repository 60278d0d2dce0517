/**
 * Invariant: bad input to `cowork` gives the host's typed error with its stable code and the
 * matching exit code, and writes nothing: the resources, a resource's history and its candidates
 * are exactly as they were before the failed command.
 */
import { join } from 'node:path';
import { Host } from '../../src/host';
import type { ResourceRecord } from '../../src/store/records';
import { jsonOf, tempDir, workspaceCli, type ErrorJson } from './cli-harness';

const dir = tempDir();
afterAll(() => dir.cleanup());
const { run, json } = workspaceCli(join(dir.path, 'ws'));

/** Over the host's default 8 MiB limit on content and ops. */
const HUGE = 'x'.repeat(8 * 1024 * 1024 + 1);

let id: string;
beforeAll(async () => {
  id = (await json<ResourceRecord>('resources', 'create', '--kind', 'text', '--content', '{"text":"abc"}')).id;
  await json('resources', 'commit', id, '--base', '0', '--op', '{"type":"append","text":"d"}', '--operator', 'human:ann');
});

/** Everything a command could have written, read straight from the workspace. */
async function snapshot(): Promise<unknown> {
  const host = await Host.open({ workspaceDir: join(dir.path, 'ws') });
  try {
    return {
      resources: await host.resources.list(),
      history: await host.resources.history(id),
      candidates: await host.resources.listCandidates(id),
    };
  } finally {
    await host.close();
  }
}

const commit = (base: string, op: string, operator = 'human:ann'): string[] => ['resources', 'commit', '$ID', '--base', base, '--op', op, '--operator', operator];

/** [what, exit code, error code, args ($ID is the resource)] */
const cases: [string, number, string, string[]][] = [
  ['malformed JSON in --op', 2, 'invalid_json', commit('1', '{"type":"append",')],
  ['malformed JSON in --content', 2, 'invalid_json', ['resources', 'create', '--kind', 'text', '--content', '{text: 1}']],
  ['an unknown kind', 2, 'unknown_kind', ['resources', 'create', '--kind', 'no.such.kind']],
  ['content the kind rejects', 2, 'invalid_content', ['resources', 'create', '--kind', 'text', '--content', '{"txt":"a"}']],
  ['content over the size limit', 2, 'content_too_large', ['resources', 'create', '--kind', 'text', '--content', JSON.stringify({ text: HUGE })]],
  ['an op over the size limit', 2, 'content_too_large', commit('1', JSON.stringify({ type: 'append', text: HUGE }))],
  ['an op the kind schema rejects', 2, 'invalid_op', commit('1', '{"type":"bogus"}')],
  ['an op that does not apply to the content', 2, 'invalid_op', commit('1', '{"type":"delete","at":2,"length":10}')],
  ['a non-integer --base', 2, 'invalid_input', commit('1.5', '{"type":"append","text":"e"}')],
  ['a non-numeric --base', 2, 'invalid_input', commit('one', '{"type":"append","text":"e"}')],
  ['a negative --base=', 2, 'invalid_input', ['resources', 'commit', '$ID', '--base=-1', '--op', '{"type":"append","text":"e"}', '--operator', 'human:ann']],
  ['a negative --base', 2, 'invalid_input', commit('-1', '{"type":"append","text":"e"}')],
  ['a malformed operator', 2, 'invalid_input', commit('1', '{"type":"append","text":"e"}', 'ann')],
  ['an unknown resource on commit', 4, 'not_found', ['resources', 'commit', 'res_nope', '--base', '0', '--op', '{"type":"append","text":"e"}', '--operator', 'human:ann']],
  ['an unknown resource on show', 4, 'not_found', ['resources', 'show', 'res_nope']],
  ['an unknown resource on history', 4, 'not_found', ['resources', 'history', 'res_nope']],
  ['an unknown resource on candidates', 4, 'not_found', ['resources', 'candidates', 'res_nope']],
  ['an unknown resource on changes', 4, 'not_found', ['resources', 'changes', 'res_nope', '--since', '0']],
  ['an unknown resource on restore', 4, 'not_found', ['resources', 'restore', 'res_nope', '--revision', '0', '--base', '0', '--operator', 'human:ann']],
  ['an unknown candidate', 4, 'not_found', ['resources', 'candidates', 'accept', 'cand_nope', '--operator', 'human:ann']],
  ['a revision past the latest', 4, 'not_found', ['resources', 'show', '$ID', '--revision', '9']],
  ['a restore of a revision past the latest', 4, 'not_found', ['resources', 'restore', '$ID', '--revision', '9', '--base', '1', '--operator', 'human:ann']],
  ['a bad --status', 2, 'invalid_input', ['resources', 'candidates', '$ID', '--status', 'pending']],
  ['a bad --since', 2, 'invalid_input', ['resources', 'changes', '$ID', '--since', 'yesterday']],
  ['an unknown option', 2, 'invalid_input', ['resources', 'commit', '$ID', '--bsae', '1', '--op', '{}', '--operator', 'human:ann']],
  ['a missing --base', 2, 'invalid_input', ['resources', 'commit', '$ID', '--op', '{"type":"append","text":"e"}', '--operator', 'human:ann']],
  ['a missing --operator', 2, 'invalid_input', ['resources', 'commit', '$ID', '--base', '1', '--op', '{"type":"append","text":"e"}']],
  ['a missing --kind', 2, 'invalid_input', ['resources', 'create']],
  ['a missing ID', 2, 'invalid_input', ['resources', 'show']],
  ['an extra argument', 2, 'invalid_input', ['resources', 'history', '$ID', 'more']],
  ['an unknown command', 2, 'invalid_input', ['resources', 'delete', '$ID']],
  ['a missing command', 2, 'invalid_input', ['resources']],
];

describe('cowork with bad input', () => {
  it.each(cases)('%s: exits %i with %s and writes nothing', async (_what, exit, code, template) => {
    const args = template.map((arg) => (arg === '$ID' ? id : arg));
    const before = await snapshot();

    const human = await run(...args);
    expect(human.code).toBe(exit);
    expect(human.stdout).toBe('');
    expect(human.stderr).toMatch(new RegExp(`^error ${code}: .+\\nhint: .+\\n$`));

    const machine = await run(...args, '--json');
    expect(machine.code).toBe(exit);
    expect(machine.stderr).toBe('');
    expect(jsonOf<ErrorJson>(machine).error).toMatchObject({ code, message: expect.any(String), hint: expect.any(String) });

    expect(await snapshot()).toEqual(before);
  });

  it('says what to do about a usage error', async () => {
    const unknown = await run('resources', 'commit', id, '--bsae', '1');
    expect(unknown.stderr).toContain('unknown option --bsae');
    expect(unknown.stderr).toContain('Usage: cowork resources commit ID --base N --op JSON --operator OP');
    expect(unknown.stderr).toContain('Run `cowork resources commit --help` for details.');
    const missing = await run('resources', 'commit', id, '--op', '{}', '--operator', 'human:ann');
    expect(missing.stderr).toContain('--base N is required');
  });

  it('gives the details of a rejected op', async () => {
    const rejected = await run(...commit('1', '{"type":"bogus"}').map((a) => (a === '$ID' ? id : a)), '--json');
    expect(jsonOf<ErrorJson>(rejected).error).toMatchObject({ code: 'invalid_op', kind: 'text', problems: expect.arrayContaining([expect.any(String)]) });
    const unknownKind = await run('resources', 'create', '--kind', 'no.such.kind', '--json');
    expect(jsonOf<ErrorJson>(unknownKind).error).toMatchObject({ kind: 'no.such.kind', knownKinds: ['text'] });
  });
});
