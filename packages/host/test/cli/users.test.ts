/**
 * Invariant: `cowork users` adds a person with a token printed once (and only its hash kept),
 * lists people without their tokens, and revokes them; the token then stops authenticating.
 */
import { join } from 'node:path';
import { UserDirectory } from '../../src/identity/user-directory';
import { openWorkspaceStore } from '../../src/store';
import { jsonOf, tempDir, workspaceCli, type ErrorJson } from './cli-harness';

const dir = tempDir();
afterAll(() => dir.cleanup());
const workspace = join(dir.path, 'ws');
const { run, json } = workspaceCli(workspace);

async function authenticates(token: string): Promise<boolean> {
  const store = await openWorkspaceStore(workspace);
  try {
    return (await new UserDirectory(store).authenticate(token)) !== undefined;
  } finally {
    await store.close();
  }
}

describe('cowork users', () => {
  it('adds, lists and revokes people', async () => {
    const added = await run('users', 'add', 'ann');
    expect(added.code).toBe(0);
    const token = /token: (\S+)/.exec(added.stdout)?.[1];
    expect(added.stdout).toContain('added human:ann (editor)');
    expect(token).toMatch(/^cwu_/);
    const viewer = await json<{ user: { operator: string; role: string }; token: string }>('users', 'add', 'vic', '--role', 'viewer');
    expect(viewer.user).toMatchObject({ operator: 'human:vic', role: 'viewer' });

    const listed = await run('users');
    expect(listed.stdout).toMatch(/human:ann {2}editor/);
    expect(listed.stdout).toMatch(/human:vic {2}viewer/);
    expect(listed.stdout).not.toContain(token!);
    expect(await authenticates(token!)).toBe(true);

    expect((await run('users', 'revoke', 'ann')).stdout).toContain('revoked human:ann');
    expect(await authenticates(token!)).toBe(false);
    expect(await authenticates(viewer.token)).toBe(true);
    expect((await run('users')).stdout).toMatch(/human:ann {2}editor {2}added \S+ {2}revoked \S+/);
  });

  it('refuses a bad name or role, a taken name, and an unknown person, with their codes', async () => {
    for (const [args, code] of [
      [['users', 'add', 'bad name'], 'invalid_input'],
      [['users', 'add', 'zed', '--role', 'admin'], 'invalid_input'],
      [['users', 'add', 'vic'], 'already_exists'],
      [['users', 'revoke', 'nobody'], 'not_found'],
    ] as const) {
      const result = await run(...args, '--json');
      expect({ args, code: jsonOf<ErrorJson>(result).error.code }).toEqual({ args, code });
      expect(result.code).not.toBe(0);
    }
  });
});
