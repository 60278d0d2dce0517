import { callTool, type ToolOutcome } from '../src/domain';
import { retailDbKind } from '../src/kind';
import type { RetailDb } from '../src/model';
import { canonicalJson, pyJson } from '../src/py';
import { smallDb } from './fixtures';

/** Calls tools one after another, each on the database the previous one left. */
function session(db: RetailDb) {
  let current = db;
  return {
    call(name: string, args: Record<string, unknown> = {}): ToolOutcome {
      const outcome = callTool(current, name, args);
      current = outcome.db;
      return outcome;
    },
    get db() {
      return current;
    },
  };
}

describe('the retail tools keep the reference tools\' quirks', () => {
  test('modify_pending_order_items: every modified item gets the LAST new item\'s price and options; the difference is not rounded', () => {
    const s = session(smallDb());
    const out = s.call('modify_pending_order_items', { order_id: '#W1', item_ids: ['9000000001', '9000000001'], new_item_ids: ['9000000002', '9000000004'], payment_method_id: 'credit_card_1' });
    expect(out.error).toBe(false);
    const order = s.db.orders['#W1']!;
    expect(order.items.map((i) => [i.item_id, i.price, i.options.switch])).toEqual([
      ['9000000002', 130.1, 'tactile'],
      ['9000000004', 130.1, 'tactile'],
    ]);
    const diff = 0 + (120.5 - 100) + (130.1 - 100); // 50.599999999999994: Python's float sum, unrounded
    expect(diff).not.toBe(50.6);
    expect(order.payment_history.at(-1)).toEqual({ transaction_type: 'payment', amount: diff, payment_method_id: 'credit_card_1' });
    expect(order.status).toBe('pending (item modified)');
    // "pending (item modified)" is pending for the address, not for a cancel or a payment change.
    expect(s.call('modify_pending_order_payment', { order_id: '#W1', payment_method_id: 'paypal_1' }).output).toBe('Error: There should be exactly one payment for a pending order');
    expect(s.call('cancel_pending_order', { order_id: '#W1', reason: 'no longer needed' }).output).toBe('Error: Non-pending order cannot be cancelled');
    expect(s.call('modify_pending_order_items', { order_id: '#W1', item_ids: ['9000000002'], new_item_ids: ['9000000001'], payment_method_id: 'credit_card_1' }).output).toBe(
      'Error: Non-pending order cannot be modified',
    );
    const moved = s.call('modify_pending_order_address', { order_id: '#W1', address1: '2 Oak Ave', address2: '', city: 'Peoria', state: 'IL', country: 'USA', zip: '61602' });
    expect(moved.error).toBe(false);
    expect(s.db.orders['#W1']!.address).toEqual({ address1: '2 Oak Ave', address2: '', city: 'Peoria', country: 'USA', state: 'IL', zip: '61602' });
  });

  test('modify_pending_order_items with empty lists records a refund of 0 and marks the order modified; a gift card refund is rounded', () => {
    const s = session(smallDb());
    s.call('modify_pending_order_items', { order_id: '#W3', item_ids: [], new_item_ids: [], payment_method_id: 'gift_card_2' });
    expect(s.db.orders['#W3']!.payment_history.at(-1)).toEqual({ transaction_type: 'refund', amount: 0, payment_method_id: 'gift_card_2' });
    expect(s.db.orders['#W3']!.status).toBe('pending (item modified)');
    const t = session(smallDb());
    expect(t.call('modify_pending_order_items', { order_id: '#W3', item_ids: ['9000000001'], new_item_ids: ['9000000002'], payment_method_id: 'gift_card_2' }).output).toBe(
      'Error: Insufficient gift card balance to pay for the new item',
    );
    expect(t.call('modify_pending_order_items', { order_id: '#W3', item_ids: ['9000000001'], new_item_ids: ['9000000001'], payment_method_id: 'gift_card_1' }).output).toBe(
      'Error: The new item id should be different from the old item id',
    );
    expect(t.call('modify_pending_order_items', { order_id: '#W3', item_ids: ['9000000001'], new_item_ids: ['9000000003'], payment_method_id: 'gift_card_1' }).output).toBe(
      'Error: New item 9000000003 not found or available',
    );
    expect(t.call('modify_pending_order_items', { order_id: '#W3', item_ids: ['9000000001', '9000000001'], new_item_ids: ['9000000002', '9000000002'], payment_method_id: 'gift_card_1' }).output).toBe(
      'Error: 9000000001 not found',
    );
    t.call('modify_pending_order_items', { order_id: '#W3', item_ids: ['9000000001'], new_item_ids: ['9000000002'], payment_method_id: 'gift_card_1' });
    expect(t.db.users.sam_lee_1!.payment_methods.gift_card_1).toEqual({ source: 'gift_card', id: 'gift_card_1', balance: 29.5 });
  });

  test('cancel after a payment change refunds every history entry, the earlier refund too', () => {
    const s = session(smallDb());
    s.call('modify_pending_order_payment', { order_id: '#W3', payment_method_id: 'credit_card_1' });
    expect(s.db.users.sam_lee_1!.payment_methods.gift_card_1).toMatchObject({ balance: 150 });
    expect(s.db.orders['#W3']!.status).toBe('pending');
    const out = s.call('cancel_pending_order', { order_id: '#W3', reason: 'ordered by mistake' });
    expect(out.error).toBe(false);
    expect(s.db.orders['#W3']!.payment_history.map((p) => `${p.transaction_type} ${p.payment_method_id} ${p.amount}`)).toEqual([
      'payment gift_card_1 100',
      'payment credit_card_1 100',
      'refund gift_card_1 100',
      'refund gift_card_1 100',
      'refund credit_card_1 100',
      'refund gift_card_1 100',
    ]);
    expect(s.db.users.sam_lee_1!.payment_methods.gift_card_1).toMatchObject({ balance: 350 });
    expect(s.db.orders['#W3']!.cancel_reason).toBe('ordered by mistake');
    expect(session(smallDb()).call('cancel_pending_order', { order_id: '#W3', reason: 'other' }).output).toBe('Error: Invalid reason');
  });

  test('exchange: the same item is allowed, the difference is rounded, checks run in the reference\'s order', () => {
    const s = session(smallDb());
    expect(s.call('exchange_delivered_order_items', { order_id: '#W2', item_ids: ['9000000002'], new_item_ids: ['9000000004'], payment_method_id: 'gift_card_2' }).output).toBe(
      'Error: Insufficient gift card balance to pay for the price difference',
    );
    expect(s.call('exchange_delivered_order_items', { order_id: '#W2', item_ids: ['9000000002', '9000000001'], new_item_ids: ['9000000001', '9000000001'], payment_method_id: 'gift_card_2' }).error).toBe(false);
    const order = s.db.orders['#W2']!;
    expect(order.status).toBe('exchange requested');
    expect(order.exchange_items).toEqual(['9000000001', '9000000002']); // sorted
    expect(order.exchange_price_difference).toBe(-20.5);
    const t = session(smallDb());
    t.call('exchange_delivered_order_items', { order_id: '#W2', item_ids: ['9000000002'], new_item_ids: ['9000000004'], payment_method_id: 'gift_card_1' });
    expect(130.1 - 120.5).not.toBe(9.6);
    expect(t.db.orders['#W2']!.exchange_price_difference).toBe(9.6);
    expect(t.call('exchange_delivered_order_items', { order_id: '#W1', item_ids: [], new_item_ids: [], payment_method_id: 'gift_card_1' }).output).toBe('Error: Non-delivered order cannot be exchanged');
    expect(session(smallDb()).call('exchange_delivered_order_items', { order_id: '#W2', item_ids: ['9000000002'], new_item_ids: [], payment_method_id: 'x' }).output).toBe(
      'Error: The number of items to be exchanged should match.',
    );
    expect(session(smallDb()).call('exchange_delivered_order_items', { order_id: '#W2', item_ids: ['9000000004'], new_item_ids: ['9000000001'], payment_method_id: 'x' }).output).toBe(
      'Error: Number of 9000000004 not found.',
    );
  });

  test('return: to the original method or any gift card of the customer; the check on the method comes before the items', () => {
    expect(session(smallDb()).call('return_delivered_order_items', { order_id: '#W4', item_ids: ['nope'], payment_method_id: 'paypal_1' }).output).toBe(
      'Error: Payment method should be the original payment method',
    );
    expect(session(smallDb()).call('return_delivered_order_items', { order_id: '#W4', item_ids: ['nope'], payment_method_id: 'gift_card_2' }).output).toBe('Error: Some item not found');
    const s = session(smallDb());
    s.call('return_delivered_order_items', { order_id: '#W4', item_ids: ['9000000002'], payment_method_id: 'gift_card_2' });
    expect(s.db.orders['#W4']).toMatchObject({ status: 'return requested', return_items: ['9000000002'], return_payment_method_id: 'gift_card_2' });
  });

  test('reads answer as the reference environment renders them', () => {
    const s = session(smallDb());
    expect(s.call('find_user_id_by_email', { email: 'sam.lee@EXAMPLE.com' }).output).toBe('sam_lee_1');
    expect(s.call('find_user_id_by_name_zip', { first_name: 'SAM', last_name: 'lee', zip: '62701' }).output).toBe('sam_lee_1');
    expect(s.call('find_user_id_by_name_zip', { first_name: 'Sam', last_name: 'Lee', zip: '62702' })).toMatchObject({ output: 'Error: User not found', error: true });
    expect(s.call('get_order_details', { order_id: 'W1' }).output).toBe('Error: Order not found');
    expect(s.call('get_item_details', { item_id: '9000000003' }).output).toBe('{"item_id": "9000000003", "options": {"switch": "silent"}, "available": false, "price": 90.25}');
    expect(s.call('list_all_product_types').output).toBe('{"Keyboard": "1000000001"}');
    expect(s.call('calculate', { expression: '100 - 20.5' }).output).toBe('79.5');
    expect(s.call('transfer_to_human_agents', { summary: 'x' }).output).toBe('Transfer successful');
    const order = s.call('get_order_details', { order_id: '#W4' }).output;
    expect(order).toBe(pyJson(s.db.orders['#W4']));
    expect(order).toContain('"price": 120.5');
    expect(order).toContain('"cancel_reason": null, "exchange_items": null');
  });

  test('the kind applies an op exactly as the tool does, never changes the content it was given, and refuses with the tool\'s message', () => {
    const db = smallDb();
    const before = canonicalJson(db);
    const op = { type: 'modify_pending_order_items', order_id: '#W1', item_ids: ['9000000001'], new_item_ids: ['9000000002'], payment_method_id: 'gift_card_1' } as const;
    const applied = retailDbKind.applyOp(db as never, op as never);
    expect(canonicalJson(applied)).toBe(canonicalJson(callTool(db, op.type, op).db));
    expect(canonicalJson(db)).toBe(before);
    expect(() => retailDbKind.applyOp(applied, op as never)).toThrow(expect.objectContaining({ code: 'invalid_op', message: 'Non-pending order cannot be modified' }));
    expect(retailDbKind.diff(db as never, applied)).toBe('order #W1: pending → pending (item modified), items, status, payment_history changed\nuser sam_lee_1: payment_methods changed');
    expect(retailDbKind.summarize(applied)).toBe('retail store database: 1 users, 4 orders (1 pending (item modified), 2 delivered, 1 pending), 1 products with 4 items');
  });
});
