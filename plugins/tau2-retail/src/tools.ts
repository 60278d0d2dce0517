import { CoworkError, defineTool, isCoworkError, type Json, type ResourceApi, type ResourceRecord, type ToolDefinition, type ToolResult } from '@cowork/host';
import { callTool, GENERIC_TOOLS, isWriteTool } from './domain';
import { RETAIL_DB_KIND } from './kind';
import type { RetailDb } from './model';
import { TOOL_SPECS, inputSchema, type ToolSpec } from './tool-specs';

/** How often a write re-reads the database when someone else committed between its read and its commit. */
const CONFLICT_RETRIES = 3;

/**
 * The workspace's retail database: the one `tau2.retail-db` resource. The tools take no resource
 * id, exactly as the reference's take none, so a workspace holds one store.
 */
async function storeDb(resources: ResourceApi): Promise<ResourceRecord> {
  const found = await resources.list({ kind: RETAIL_DB_KIND });
  if (found.length === 1) return found[0]!;
  throw new CoworkError(
    'invalid_input',
    found.length === 0
      ? `this workspace has no ${RETAIL_DB_KIND} resource; create one (import τ²-bench's db.json) before using the retail tools`
      : `this workspace has ${found.length} ${RETAIL_DB_KIND} resources (${found.map((r) => r.id).join(', ')}); the retail tools work on a workspace with exactly one`,
  );
}

/**
 * One agent tool per reference tool, with its name, parameters and description. The answer is the
 * text the reference's environment gives the agent (`json.dumps` of the order or user, a string,
 * or `Error: <message>` marked as an error). A write commits one op on the database (the tool's
 * name and arguments) with the revision it read; when another commit came in between, it reads
 * again and retries, so the op is checked against the database it lands on.
 */
function retailTool(spec: ToolSpec): ToolDefinition<Record<string, Json>> {
  const generic = (GENERIC_TOOLS as readonly string[]).includes(spec.name);
  const write = isWriteTool(spec.name);
  return defineTool<Record<string, Json>>({
    name: spec.name,
    description: spec.description,
    inputSchema: inputSchema(spec),
    permissions: generic ? [] : [{ access: write ? 'commit' : 'read', kind: RETAIL_DB_KIND }],
    handler: async (input, context): Promise<ToolResult> => {
      try {
        if (generic) return answer(callTool({ products: {}, users: {}, orders: {} }, spec.name, input));
        for (let attempt = 0; ; attempt++) {
          const resource = await storeDb(context.host.resources);
          const outcome = callTool(resource.content as unknown as RetailDb, spec.name, input);
          if (!write || outcome.error) return answer(outcome);
          try {
            await context.host.resources.commit(resource.id, {
              baseRevision: resource.revision,
              op: outcome.op,
              operator: context.operator,
              ...(context.idempotencyKey ? { idempotencyKey: attempt === 0 ? context.idempotencyKey : `${context.idempotencyKey}:${attempt}` } : {}),
            });
            return answer(outcome);
          } catch (error) {
            if (!isCoworkError(error) || error.code !== 'revision_conflict' || attempt >= CONFLICT_RETRIES) throw error;
          }
        }
      } catch (error) {
        if (isCoworkError(error)) return { content: error.toJSON() as unknown as Json, isError: true };
        throw error;
      }
    },
  });
}

function answer(outcome: { output: string; error: boolean }): ToolResult {
  return outcome.error ? { content: outcome.output, isError: true } : { content: outcome.output };
}

export const retailTools: readonly ToolDefinition<Record<string, Json>>[] = TOOL_SPECS.map(retailTool);
