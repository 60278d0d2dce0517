/** What a person may do: an editor reads and writes, a viewer reads and subscribes. */
export type UserRole = 'editor' | 'viewer';

/**
 * A person the owner added. The token itself is never stored: only its SHA-256, which is enough
 * to recognise a random 256-bit token and useless to whoever reads the database.
 */
export interface UserRecord {
  /** The `<name>` of the person's operator, `human:<name>`. */
  readonly name: string;
  readonly role: UserRole;
  readonly tokenHash: string;
  readonly createdAt: string;
  /** When the owner revoked the token; a revoked person is refused at once. */
  readonly revokedAt: string | null;
}

export interface UserRepo {
  insert(user: UserRecord): Promise<void>;
  get(name: string): Promise<UserRecord | undefined>;
  byTokenHash(tokenHash: string): Promise<UserRecord | undefined>;
  list(): Promise<UserRecord[]>;
  /** Marks the person revoked; false when there is no such person or they already were. */
  revoke(name: string, at: string): Promise<boolean>;
}
