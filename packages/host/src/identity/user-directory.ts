import { createHash, randomBytes } from 'node:crypto';
import { CoworkError } from '../errors';
import type { Store } from '../store/store';
import type { UserRecord, UserRole } from '../store/user-records';
import type { People, Principal } from './principal';

/** A person's name as it appears in `human:<name>`: the operator pattern's, minus nothing. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,127}$/;
/** Marks a person's token, so that a leaked one is recognisable (secret scanners, logs). */
const TOKEN_PREFIX = 'cwu_';
export const ROLES: readonly UserRole[] = ['editor', 'viewer'];

/** A person as shown to people: never the token or its hash. */
export interface UserSummary {
  readonly name: string;
  readonly operator: string;
  readonly role: UserRole;
  readonly createdAt: string;
  readonly revokedAt: string | null;
}

/**
 * The people of a workspace and their tokens. The token is shown once, when the person is added;
 * the store keeps only its hash, and every request looks the hash up again, so a revoked token is
 * refused at once, by every process sharing the workspace.
 */
export class UserDirectory implements People {
  constructor(
    private readonly store: Store,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async add(name: unknown, role: unknown = 'editor'): Promise<{ user: UserSummary; token: string }> {
    if (typeof name !== 'string' || !NAME.test(name) || name === 'owner') {
      throw new CoworkError('invalid_input', `a person's name is 1 to 128 letters, digits, '.', '_', '@' or '-', starting with a letter or digit, and not "owner"; got ${JSON.stringify(name)}`, { field: 'name' });
    }
    if (!ROLES.includes(role as UserRole)) {
      throw new CoworkError('invalid_input', `role must be one of ${ROLES.join(', ')}; got ${JSON.stringify(role)}`, { field: 'role', allowed: [...ROLES] });
    }
    const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const record: UserRecord = { name, role: role as UserRole, tokenHash: tokenHash(token), createdAt: this.now().toISOString(), revokedAt: null };
    await this.store.transaction(async (tx) => {
      if (await tx.users.get(name)) {
        throw new CoworkError('already_exists', `there is already a person named ${name} (revoked people keep their name, so history stays unambiguous)`, { name });
      }
      await tx.users.insert(record);
    });
    return { user: summary(record), token };
  }

  async list(): Promise<UserSummary[]> {
    return (await this.store.read((tx) => tx.users.list())).map(summary);
  }

  async revoke(name: string): Promise<UserSummary> {
    const at = this.now().toISOString();
    return this.store.transaction(async (tx) => {
      const user = await tx.users.get(name);
      if (!user) throw new CoworkError('not_found', `no person named ${JSON.stringify(name)}`, { name });
      await tx.users.revoke(name, at);
      return summary({ ...user, revokedAt: user.revokedAt ?? at });
    });
  }

  /** The person a token belongs to, unless revoked; undefined for anything else. */
  async authenticate(token: string): Promise<Principal | undefined> {
    if (!token.startsWith(TOKEN_PREFIX)) return undefined;
    const user = await this.store.read((tx) => tx.users.byTokenHash(tokenHash(token)));
    return user && user.revokedAt === null ? { kind: 'person', name: user.name, role: user.role } : undefined;
  }

  /** Whether someone of that name was ever added (a revoked person keeps their name). */
  async isPerson(name: string): Promise<boolean> {
    return (await this.store.read((tx) => tx.users.get(name))) !== undefined;
  }

  /** Whether a person signed in earlier is still allowed (a session or socket outlives its request). */
  async stillActive(name: string): Promise<boolean> {
    const user = await this.store.read((tx) => tx.users.get(name));
    return user !== undefined && user.revokedAt === null;
  }
}

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function summary(user: UserRecord): UserSummary {
  return { name: user.name, operator: `human:${user.name}`, role: user.role, createdAt: user.createdAt, revokedAt: user.revokedAt };
}
