import { CoworkError } from '../errors';
import type { Operator } from '../store/records';
import type { UserRole } from '../store/user-records';

/**
 * Who a credential belongs to. The server token is the owner's: the workspace's root credential,
 * which may act as any operator (the owner's integrations, such as an MCP client running an agent,
 * name their own). A person's token acts only as that person, `human:<name>`.
 */
export type Principal = { readonly kind: 'owner' } | { readonly kind: 'person'; readonly name: string; readonly role: UserRole };

export const OWNER: Principal = { kind: 'owner' };

export function personOperator(name: string): Operator {
  return `human:${name}`;
}

/** Who the people of the workspace are (the user directory). */
export interface People {
  isPerson(name: string): Promise<boolean>;
}

/**
 * The operator a request acts as: the credential's own. A person naming anyone else is refused
 * (`forbidden`). The owner names whom it acts for (an agent its integration runs, itself), or gets
 * `fallback`; it may not name a person it added: that person acts with their own token.
 */
export async function actingOperator(principal: Principal, named: string | undefined, fallback: Operator, people: People): Promise<Operator> {
  if (principal.kind === 'owner') {
    const person = named === undefined ? undefined : /^human:(.+)$/.exec(named)?.[1];
    if (person !== undefined && (await people.isPerson(person))) {
      throw new CoworkError('forbidden', `the owner's token may not act as ${named}, a person of this workspace: they act with their own token`, { named });
    }
    return (named as Operator | undefined) ?? fallback;
  }
  const own = personOperator(principal.name);
  if (named !== undefined && named !== own) {
    throw new CoworkError('forbidden', `${own} may not act as ${named}: a person's credential acts only as that person (leave operator out)`, {
      operator: own,
      named,
    });
  }
  return own;
}

/** The operator a write acts as: as `actingOperator`, and never a viewer's. */
export async function writingOperator(principal: Principal, named: string | undefined, fallback: Operator, people: People): Promise<Operator> {
  requireWriter(principal);
  return actingOperator(principal, named, fallback, people);
}

/**
 * The person a saved selection belongs to: as `actingOperator`, a viewer included (a selection
 * changes no resource: it tells agents and others what the person is looking at), and always a
 * person (`invalid_input` when the owner names an agent).
 */
export async function selectingPerson(principal: Principal, named: string | undefined, fallback: Operator, people: People): Promise<Operator> {
  const operator = await actingOperator(principal, named, fallback, people);
  if (!operator.startsWith('human:')) {
    throw new CoworkError('invalid_input', `a selection is a person's: operator must be "human:<name>", not ${operator}`, { field: 'operator', received: operator });
  }
  return operator;
}

/** Refuses a viewer: it reads and subscribes, nothing more. */
export function requireWriter(principal: Principal): void {
  if (principal.kind === 'person' && principal.role === 'viewer') {
    throw new CoworkError('forbidden', `human:${principal.name} is a viewer: viewers read and subscribe but cannot change anything`, { operator: personOperator(principal.name), role: 'viewer' });
  }
}

/** Refuses anyone but the owner (managing people, the workspace's settings). */
export function requireOwner(principal: Principal, action: string): void {
  if (principal.kind !== 'owner') {
    throw new CoworkError('forbidden', `only the workspace owner may ${action}`, { operator: personOperator(principal.name), action });
  }
}
