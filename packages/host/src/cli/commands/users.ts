import { UserDirectory, ROLES, type UserSummary } from '../../identity/user-directory';
import type { UserRole } from '../../store/user-records';
import { group, leaf } from '../command';
import { parseChoice } from '../values';

/**
 * `cowork users ...`: the people of a workspace. Whoever runs the CLI on the workspace is its
 * owner (they can read the server token too). A new person's token is printed once; give it to
 * them, they sign in with it on the page or send it as `Authorization: Bearer`.
 */

const add = leaf({
  summary: 'add a person with their own token (printed once)',
  positionals: ['NAME'],
  options: { role: { value: 'ROLE', description: `${ROLES.join(' or ')} (default editor): a viewer reads and subscribes, nothing more` } },
  async run(args, { out, withHost }) {
    const given = args.option('role');
    const role: UserRole = given === undefined ? 'editor' : parseChoice('role', given, ROLES);
    const added = await withHost((host) => new UserDirectory(host.store).add(args.positional('NAME'), role));
    out.result(added, ({ user, token }) => [
      `added ${user.operator} (${user.role})`,
      `token: ${token}`,
      'it is shown only now; the workspace keeps only its hash',
    ]);
  },
});

const list = leaf({
  summary: 'list the people of the workspace (never their tokens)',
  positionals: [],
  options: {},
  async run(_args, { out, withHost }) {
    const users = await withHost((host) => new UserDirectory(host.store).list());
    out.result({ users }, ({ users }) => (users.length === 0 ? ['no people yet: cowork users add NAME'] : users.map(describe)));
  },
});

const revoke = leaf({
  summary: "revoke a person's token: refused at once, on every server of the workspace",
  positionals: ['NAME'],
  options: {},
  async run(args, { out, withHost }) {
    const user = await withHost((host) => new UserDirectory(host.store).revoke(args.positional('NAME')));
    out.result({ user }, ({ user }) => [`revoked ${user.operator}`]);
  },
});

export const usersCommand = group({
  summary: 'add, list and revoke the people who may use the workspace',
  children: { add, revoke },
  fallback: list,
});

function describe(user: UserSummary): string {
  return `${user.operator}  ${user.role}  added ${user.createdAt}${user.revokedAt === null ? '' : `  revoked ${user.revokedAt}`}`;
}
