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

/**
 * The operator a request acts as: the credential's own. A person naming anyone else is refused
 * (`forbidden`); the owner names whom it acts for, or gets `fallback`.
 */
export function actingOperator(principal: Principal, named: string | undefined, fallback: Operator): Operator {
  if (principal.kind === 'owner') return (named as Operator | undefined) ?? fallback;
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
export function writingOperator(principal: Principal, named: string | undefined, fallback: Operator): Operator {
  requireWriter(principal);
  return actingOperator(principal, named, fallback);
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
