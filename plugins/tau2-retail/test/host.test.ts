import { openTempHost, type TempHost } from '@cowork/host/testkit';
import type { Json, ToolResult } from '@cowork/host';
import { plugin } from '../src';
import { callTool } from '../src/domain';
import { RETAIL_DB_KIND } from '../src/kind';
import { canonicalJson } from '../src/py';
import { smallDb } from './fixtures';

const OPERATOR = 'agent:main';

async function tool(host: TempHost, name: string, input: Record<string, Json>): Promise<ToolResult> {
  const registered = host.registry.tool(name)!;
  return registered.tool.handler(input as never, { operator: OPERATOR, signal: new AbortController().signal, host: { workspaceDir: host.workspaceDir, resources: host.resources } });
}

describe('the plugin in a host', () => {
  let host: TempHost;
  beforeEach(async () => {
    host = await openTempHost({ plugins: [plugin] });
  });
  afterEach(async () => host.dispose());

  test('loads: the kind, the 16 reference tools by their names, and the suite', () => {
    expect(host.pluginProblems).toEqual([]);
    expect(host.registry.kind(RETAIL_DB_KIND)).toBeDefined();
    for (const name of ['calculate', 'cancel_pending_order', 'exchange_delivered_order_items', 'find_user_id_by_name_zip', 'find_user_id_by_email', 'get_order_details', 'get_product_details', 'get_item_details', 'get_user_details', 'list_all_product_types', 'modify_pending_order_address', 'modify_pending_order_items', 'modify_pending_order_payment', 'modify_user_address', 'return_delivered_order_items', 'transfer_to_human_agents']) {
      expect(host.registry.tool(name)?.plugin).toBe('tau2-retail');
    }
    expect(host.registry.suites().map((s) => s.suite.name)).toContain('tau2-retail');
  });

  test('each successful write commits one op, the tool and its arguments; reads and failures commit nothing', async () => {
    const db = await host.resources.create({ kind: RETAIL_DB_KIND, content: smallDb(), operator: 'human:ann' });
    const read = await tool(host, 'get_order_details', { order_id: '#W3' });
    expect(read).toEqual({ content: callTool(smallDb(), 'get_order_details', { order_id: '#W3' }).output });
    const failed = await tool(host, 'cancel_pending_order', { order_id: '#W3', reason: 'because' });
    expect(failed).toEqual({ content: 'Error: Invalid reason', isError: true });
    const input = { order_id: '#W3', payment_method_id: 'credit_card_1' };
    const changed = await tool(host, 'modify_pending_order_payment', input);
    expect(changed.isError).toBeUndefined();
    await tool(host, 'cancel_pending_order', { order_id: '#W3', reason: 'no longer needed' });
    const history = await host.resources.history(db.id);
    expect(history.map((r) => [r.revision, r.operator, r.op])).toEqual([
      [0, 'human:ann', null],
      [1, OPERATOR, { type: 'modify_pending_order_payment', ...input }],
      [2, OPERATOR, { type: 'cancel_pending_order', order_id: '#W3', reason: 'no longer needed' }],
    ]);
    let expected = smallDb();
    for (const r of history.slice(1)) expected = callTool(expected, (r.op as { type: string }).type, r.op as never).db;
    expect(canonicalJson((await host.resources.get(db.id)).content)).toBe(canonicalJson(expected));
    // A write that no longer applies is refused by the kind with the tool's message.
    await expect(host.resources.commit(db.id, { baseRevision: 2, op: { type: 'cancel_pending_order', order_id: '#W3', reason: 'no longer needed' }, operator: 'human:ann' })).rejects.toMatchObject({
      code: 'invalid_op',
      message: expect.stringContaining('Non-pending order cannot be cancelled'),
    });
  });

  test('a content that is not the data model\'s form is refused; db.json imports into it', async () => {
    const raw = JSON.parse(JSON.stringify(smallDb()));
    delete raw.orders['#W1'].cancel_reason;
    await expect(host.resources.create({ kind: RETAIL_DB_KIND, content: raw, operator: 'human:ann' })).rejects.toMatchObject({ code: 'invalid_content' });
    const imported = await host.imports.importFile({ kind: RETAIL_DB_KIND, fileName: 'db.json', data: new TextEncoder().encode(JSON.stringify(raw)), operator: 'human:ann' });
    expect(canonicalJson((await host.resources.get(imported.id)).content)).toBe(canonicalJson(smallDb()));
  });

  test('the tools need exactly one retail database in the workspace', async () => {
    expect(await tool(host, 'get_user_details', { user_id: 'sam_lee_1' })).toMatchObject({ isError: true, content: { error: { code: 'invalid_input', message: expect.stringContaining('has no tau2.retail-db resource') } } });
    expect(await tool(host, 'calculate', { expression: '1 + 1' })).toEqual({ content: '2.0' });
    await host.resources.create({ kind: RETAIL_DB_KIND, content: smallDb(), operator: 'human:ann' });
    await host.resources.create({ kind: RETAIL_DB_KIND, content: smallDb(), operator: 'human:ann' });
    expect(await tool(host, 'get_user_details', { user_id: 'sam_lee_1' })).toMatchObject({ isError: true, content: { error: { code: 'invalid_input', message: expect.stringContaining('has 2 tau2.retail-db resources') } } });
  });
});
