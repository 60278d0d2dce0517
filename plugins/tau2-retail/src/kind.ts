import { defineKind, rejectFile, rejectOp, type Json, type JsonSchema } from '@cowork/host';
import { applyWrite, ToolError, WRITE_TOOLS, type WriteOp } from './domain';
import { recordKeyOrder } from './key-order';
import { InvalidDatabase, normalizeDb, type RetailDb } from './model';
import { TOOL_SPECS, inputSchema } from './tool-specs';

export const RETAIL_DB_KIND = 'tau2.retail-db';

/** Each op is one write tool's call: `{type: <tool>, ...its arguments}`. */
const OP_SCHEMA: JsonSchema = {
  oneOf: WRITE_TOOLS.map((name) => {
    const schema = inputSchema(TOOL_SPECS.find((spec) => spec.name === name)!) as { properties: Record<string, JsonSchema>; required: string[] };
    return {
      type: 'object',
      properties: { type: { const: name }, ...schema.properties },
      required: ['type', ...schema.required],
      additionalProperties: false,
    };
  }),
} as JsonSchema;

/**
 * The τ²-bench retail store's database (users, orders, products) with host revisions. A write is
 * one op per write tool call, `{type: 'cancel_pending_order', order_id, reason}`: the tool's name
 * and arguments, applied by the same code as the tool (domain.ts), so replaying the ops from any
 * revision gives exactly the databases the tools made, and a write that no longer applies (the
 * order is not pending any more) is refused with the reference tool's message.
 */
export const retailDbKind = defineKind<RetailDb & Json, WriteOp & Json>({
  name: RETAIL_DB_KIND,
  description: "τ²-bench retail: the store's database of users, orders and products, changed only by the domain's write tools (one op per call).",
  revisionSemantics: 'host',
  contentSchema: {
    type: 'object',
    properties: { products: { type: 'object' }, users: { type: 'object' }, orders: { type: 'object' } },
    required: ['products', 'users', 'orders'],
    additionalProperties: false,
  },
  opSchema: OP_SCHEMA,
  initialContent: () => ({ products: {}, users: {}, orders: {} }) as RetailDb & Json,
  checkContent: (content) => {
    try {
      // The model's form has its fields in declaration order: the same JSON text, if it is that form.
      if (JSON.stringify(normalizeDb(content)) !== JSON.stringify(content)) return ['the database must be in the data model form (every optional order field present, null when unset, no other fields); import db.json through the kind to get it'];
      return [];
    } catch (error) {
      if (error instanceof InvalidDatabase) return [error.message];
      throw error;
    }
  },
  applyOp: (content, op) => {
    try {
      return applyWrite(content, op).db as RetailDb & Json;
    } catch (error) {
      if (error instanceof ToolError) throw rejectOp(error.message);
      throw error;
    }
  },
  summarize: (content) => {
    const orders = Object.values(content.orders);
    const byStatus = new Map<string, number>();
    for (const order of orders) byStatus.set(order.status, (byStatus.get(order.status) ?? 0) + 1);
    const variants = Object.values(content.products).reduce((n, p) => n + Object.keys(p.variants).length, 0);
    const statuses = [...byStatus].map(([status, n]) => `${n} ${status}`).join(', ');
    return `retail store database: ${Object.keys(content.users).length} users, ${orders.length} orders${statuses ? ` (${statuses})` : ''}, ${Object.keys(content.products).length} products with ${variants} items`;
  },
  diff: (before, after) => {
    const lines: string[] = [];
    for (const [id, order] of Object.entries(after.orders)) {
      const old = before.orders[id];
      if (!old) lines.push(`order ${id} added (${order.status})`);
      else if (JSON.stringify(old) !== JSON.stringify(order)) lines.push(`order ${id}: ${old.status === order.status ? order.status : `${old.status} → ${order.status}`}, ${changedFields(old, order).join(', ')} changed`);
    }
    for (const id of Object.keys(before.orders)) if (!after.orders[id]) lines.push(`order ${id} removed`);
    for (const [id, user] of Object.entries(after.users)) {
      const old = before.users[id];
      if (!old) lines.push(`user ${id} added`);
      else if (JSON.stringify(old) !== JSON.stringify(user)) lines.push(`user ${id}: ${changedFields(old, user).join(', ')} changed`);
    }
    for (const id of Object.keys(before.users)) if (!after.users[id]) lines.push(`user ${id} removed`);
    if (JSON.stringify(before.products) !== JSON.stringify(after.products)) lines.push('products changed');
    return lines.length > 0 ? lines.join('\n') : 'no change';
  },
  imports: {
    json: {
      extension: 'json',
      description: "τ²-bench retail's db.json (or a database dumped by the reference), read into the data model's form.",
      import: async (data, context) => {
        let raw: unknown;
        try {
          const text = new TextDecoder().decode(data);
          raw = JSON.parse(text);
          recordKeyOrder(text);
        } catch (error) {
          throw rejectFile(`${context.fileName ?? 'the file'} is not JSON: ${(error as Error).message}`);
        }
        try {
          return normalizeDb(raw) as RetailDb & Json;
        } catch (error) {
          if (error instanceof InvalidDatabase) throw rejectFile(`${context.fileName ?? 'the file'} is not a τ²-bench retail database: ${error.message}`);
          throw error;
        }
      },
    },
  },
});

function changedFields(before: object, after: object): string[] {
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  return Object.keys(b).filter((key) => JSON.stringify(a[key]) !== JSON.stringify(b[key]));
}
