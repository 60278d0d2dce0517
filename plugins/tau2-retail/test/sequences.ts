import type { Order, RetailDb, User } from '../src/model';
import { seededRandom as seeded } from '@cowork/host/testkit';

export interface Call {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

export interface Sequence {
  readonly id: string;
  readonly calls: Call[];
}

const EXPRESSIONS = ['2 + 2', '(120.5 - 100) * 3 / 7', '1/3', '2.675 * 1', '10 // 4', '2 ** 10', '-2**2', '1/0', '3 - 3.0', '(1', '01', '12.5 + x', '((4.5))', ''];

/**
 * Tool calls a model might make, many of them wrong on purpose: each sequence takes one customer
 * and works on their orders with every write tool, arguments drawn (seeded) from the database:
 * items of the order or not, duplicates, new items of the same product or another, unavailable
 * ones, every payment method of the customer and one they do not have, valid and invalid reasons,
 * interleaved with reads and calculations. Each sequence starts from db.json; run through the
 * reference's tools and the plugin's, they must give the same outputs and the same database.
 */
export function toolSequences(db: RetailDb, count: number, seed = 7): Sequence[] {
  const random = seeded(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const chance = (p: number): boolean => random() < p;
  const users = Object.values(db.users).filter((u) => u.orders.length > 1);
  const products = Object.values(db.products);
  const allItems = products.flatMap((p) => Object.keys(p.variants));
  const sequences: Sequence[] = [];
  for (let n = 0; n < count; n++) {
    const user: User = pick(users);
    const orders: Order[] = user.orders.map((id) => db.orders[id]!).filter(Boolean);
    const methods = [...Object.keys(user.payment_methods), 'credit_card_0000000'];
    const calls: Call[] = [];
    calls.push({ name: 'find_user_id_by_email', arguments: { email: chance(0.5) ? user.email.toUpperCase() : `x${user.email}` } });
    calls.push({ name: 'find_user_id_by_name_zip', arguments: { first_name: user.name.first_name.toLowerCase(), last_name: user.name.last_name, zip: chance(0.8) ? user.address.zip : '00000' } });
    calls.push({ name: 'get_user_details', arguments: { user_id: user.user_id } });
    for (let k = 0; k < 10; k++) {
      const kind = Math.floor(random() * 10);
      // Mostly an order in the status the tool wants (as the database is at the start), sometimes any.
      const wanted = kind === 2 || kind === 3 ? 'delivered' : kind === 0 || kind === 1 || kind === 4 || kind === 5 ? 'pending' : undefined;
      const fitting = orders.filter((o) => o.status === wanted);
      const order = wanted && fitting.length > 0 && chance(0.8) ? pick(fitting) : pick(orders);
      const itemIds = (): string[] => {
        const ids = order.items.map((i) => i.item_id);
        const chosen = ids.filter(() => chance(0.4));
        if (chosen.length === 0 && ids.length > 0 && chance(0.9)) chosen.push(pick(ids));
        if (chance(0.1) && ids.length > 0) chosen.push(pick(ids));
        if (chance(0.05)) chosen.push(pick(allItems));
        return chosen;
      };
      const newIds = (old: readonly string[]): string[] => {
        const out = old.map((id) => {
          const product = db.products[order.items.find((i) => i.item_id === id)?.product_id ?? ''];
          if (!product || chance(0.05)) return pick(allItems);
          const others = Object.values(product.variants).filter((v) => v.item_id !== id && v.available);
          if (others.length > 0 && chance(0.75)) return pick(others).item_id;
          return chance(0.5) ? id : pick(Object.keys(product.variants));
        });
        if (chance(0.05)) out.pop();
        return out;
      };
      const address = { address1: `${k} Elm St`, address2: chance(0.5) ? '' : 'Suite 5', city: 'Austin', state: 'TX', country: 'USA', zip: '78701' };
      switch (kind) {
        case 0:
          calls.push({ name: 'cancel_pending_order', arguments: { order_id: order.order_id, reason: pick(['no longer needed', 'ordered by mistake', 'changed my mind']) } });
          break;
        case 1: {
          const old = itemIds();
          calls.push({ name: 'modify_pending_order_items', arguments: { order_id: order.order_id, item_ids: old, new_item_ids: newIds(old), payment_method_id: pick(methods) } });
          break;
        }
        case 2: {
          const old = itemIds();
          calls.push({ name: 'exchange_delivered_order_items', arguments: { order_id: order.order_id, item_ids: old, new_item_ids: newIds(old), payment_method_id: pick(methods) } });
          break;
        }
        case 3:
          calls.push({ name: 'return_delivered_order_items', arguments: { order_id: order.order_id, item_ids: itemIds(), payment_method_id: pick(methods) } });
          break;
        case 4:
          calls.push({ name: 'modify_pending_order_payment', arguments: { order_id: order.order_id, payment_method_id: pick(methods) } });
          break;
        case 5:
          calls.push({ name: 'modify_pending_order_address', arguments: { order_id: order.order_id, ...address } });
          break;
        case 6:
          calls.push({ name: 'modify_user_address', arguments: { user_id: chance(0.9) ? user.user_id : 'nobody_0', ...address } });
          break;
        case 7:
          calls.push({ name: 'get_order_details', arguments: { order_id: chance(0.9) ? order.order_id : order.order_id.slice(1) } });
          break;
        case 8:
          calls.push(chance(0.5) ? { name: 'get_product_details', arguments: { product_id: pick(products).product_id } } : { name: 'get_item_details', arguments: { item_id: chance(0.9) ? pick(allItems) : '123' } });
          break;
        default:
          calls.push({ name: 'calculate', arguments: { expression: pick(EXPRESSIONS) } });
      }
    }
    calls.push({ name: 'get_user_details', arguments: { user_id: user.user_id } });
    if (n === 0) calls.push({ name: 'list_all_product_types', arguments: {} });
    sequences.push({ id: `seq-${n}`, calls });
  }
  return sequences;
}

/** The quirks README lists, each provoked on real orders of db.json. */
export function quirkSequences(db: RetailDb): Sequence[] {
  const orders = Object.values(db.orders);
  const giftCardOf = (o: Order): boolean => db.users[o.user_id]!.payment_methods[o.payment_history[0]!.payment_method_id]?.source === 'gift_card';
  const paidByGiftCard = orders.find((o) => o.status === 'pending' && giftCardOf(o) && Object.keys(db.users[o.user_id]!.payment_methods).length > 1)!;
  const other = Object.keys(db.users[paidByGiftCard.user_id]!.payment_methods).find((id) => id !== paidByGiftCard.payment_history[0]!.payment_method_id)!;
  const alternative = (o: Order, itemId: string): string => {
    const item = o.items.find((i) => i.item_id === itemId)!;
    return Object.values(db.products[item.product_id]!.variants).find((v) => v.available && v.item_id !== itemId)!.item_id;
  };
  const multi = orders.filter((o) => o.status === 'pending' && Object.keys(db.users[o.user_id]!.payment_methods).length > 1 && new Set(o.items.map((i) => i.product_id)).size >= 2 && o.items.every((i) => Object.values(db.products[i.product_id]!.variants).some((v) => v.available && v.item_id !== i.item_id)))[0]!;
  const [a, b] = multi.items;
  const delivered = orders.filter((o) => o.status === 'delivered');
  const details = (o: Order): Call => ({ name: 'get_order_details', arguments: { order_id: o.order_id } });
  return [
    {
      id: 'quirk-payment-change-then-cancel',
      calls: [
        { name: 'modify_pending_order_payment', arguments: { order_id: paidByGiftCard.order_id, payment_method_id: other } },
        { name: 'cancel_pending_order', arguments: { order_id: paidByGiftCard.order_id, reason: 'no longer needed' } },
        { name: 'get_user_details', arguments: { user_id: paidByGiftCard.user_id } },
      ],
    },
    {
      id: 'quirk-several-new-items',
      calls: [
        {
          name: 'modify_pending_order_items',
          arguments: { order_id: multi.order_id, item_ids: [a!.item_id, b!.item_id], new_item_ids: [alternative(multi, a!.item_id), alternative(multi, b!.item_id)], payment_method_id: multi.payment_history[0]!.payment_method_id },
        },
        { name: 'modify_pending_order_address', arguments: { order_id: multi.order_id, address1: '9 Pine Rd', address2: '', city: 'Reno', state: 'NV', country: 'USA', zip: '89501' } },
        { name: 'modify_pending_order_payment', arguments: { order_id: multi.order_id, payment_method_id: Object.keys(db.users[multi.user_id]!.payment_methods).find((id) => id !== multi.payment_history[0]!.payment_method_id)! } },
        { name: 'cancel_pending_order', arguments: { order_id: multi.order_id, reason: 'no longer needed' } },
        details(multi),
      ],
    },
    {
      id: 'quirk-empty-lists',
      calls: [
        { name: 'exchange_delivered_order_items', arguments: { order_id: delivered[0]!.order_id, item_ids: [], new_item_ids: [], payment_method_id: delivered[0]!.payment_history[0]!.payment_method_id } },
        details(delivered[0]!),
        { name: 'return_delivered_order_items', arguments: { order_id: delivered[1]!.order_id, item_ids: [], payment_method_id: delivered[1]!.payment_history[0]!.payment_method_id } },
        { name: 'modify_pending_order_items', arguments: { order_id: multi.order_id, item_ids: [], new_item_ids: [], payment_method_id: multi.payment_history[0]!.payment_method_id } },
        details(multi),
      ],
    },
  ];
}
