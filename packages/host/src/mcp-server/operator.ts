import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { actingOperator, OWNER, writingOperator, type People, type Principal } from '../identity/principal';
import type { Operator } from '../store/records';
import type { JsonSchema } from '../util/json-schema';

/**
 * Who an MCP call acts as. The owner's client names the operator (`human:<name>` when a person
 * drives it, `agent:<id>` for an agent); when it does not, this fixed one, so every revision an
 * MCP client makes is recognisable in history. A person's token acts only as that person.
 */
export const MCP_OPERATOR: Operator = 'agent:mcp-client';

export const OPERATOR_ARG: JsonSchema = {
  type: 'string',
  pattern: '^(human|agent):[A-Za-z0-9][A-Za-z0-9._@-]{0,127}$',
  description: `Who acts: "human:<name>" or "agent:<id>" (default ${MCP_OPERATOR}).`,
};

/** The operator of a call that changes something (a viewer's is refused). */
export function operatorOf(args: Record<string, unknown>, call: { principal: Principal; people: People }): Promise<Operator> {
  return writingOperator(call.principal, named(args), MCP_OPERATOR, call.people);
}

/** The operator of a call that only reads (what changed since this operator last looked). */
export function readerOf(args: Record<string, unknown>, call: { principal: Principal; people: People }): Promise<Operator> {
  return actingOperator(call.principal, named(args), MCP_OPERATOR, call.people);
}

function named(args: Record<string, unknown>): string | undefined {
  return typeof args.operator === 'string' ? args.operator : undefined;
}

/** The key under which the HTTP edge puts the request's principal in the SDK's `authInfo.extra`. */
export const PRINCIPAL_KEY = 'coworkPrincipal';

/**
 * Whose credential made an MCP request: the HTTP edge (after its guard) puts it in the request's
 * auth info; a stdio server is the owner's own process, started by the owner.
 */
export function principalOf(auth: AuthInfo | undefined): Principal {
  return (auth?.extra?.[PRINCIPAL_KEY] as Principal | undefined) ?? OWNER;
}

/** The auth info the HTTP edge attaches to a request, for `principalOf`. */
export function authInfoFor(principal: Principal): AuthInfo {
  return { token: '', clientId: principal.kind === 'owner' ? 'owner' : `human:${principal.name}`, scopes: [], extra: { [PRINCIPAL_KEY]: principal } };
}
