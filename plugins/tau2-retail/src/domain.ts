import { calculate } from './calculate';
import { orderedVariantIds } from './key-order';
import type { Address, Order, OrderItem, PaymentMethod, Product, RetailDb, User, Variant } from './model';
import { PyInt, pyJson, pyRound2 } from './py';

/**
 * The retail tools of τ²-bench (reference-python/retail_tools.py), done the way the reference does
 * them, statement for statement, quirks included (README lists them): the same checks in the same
 * order with the same messages, Python's float arithmetic and `round(x, 2)` where it rounds and
 * not where it does not. They work on a database in the data model's form (model.ts) and never
 * change it: a write gives a new database that shares every order, user and product it did not touch.
 */

/** A tool's failure: the reference raises ValueError(message); the agent reads `Error: <message>`. */
export class ToolError extends Error {}

/** One write, as the reference's write tool is called: the tool's name and its arguments. */
export type WriteOp =
  | { type: 'cancel_pending_order'; order_id: string; reason: string }
  | { type: 'exchange_delivered_order_items'; order_id: string; item_ids: string[]; new_item_ids: string[]; payment_method_id: string }
  | { type: 'modify_pending_order_address'; order_id: string; address1: string; address2: string; city: string; state: string; country: string; zip: string }
  | { type: 'modify_pending_order_items'; order_id: string; item_ids: string[]; new_item_ids: string[]; payment_method_id: string }
  | { type: 'modify_pending_order_payment'; order_id: string; payment_method_id: string }
  | { type: 'modify_user_address'; user_id: string; address1: string; address2: string; city: string; state: string; country: string; zip: string }
  | { type: 'return_delivered_order_items'; order_id: string; item_ids: string[]; payment_method_id: string };

export const WRITE_TOOLS = [
  'cancel_pending_order',
  'exchange_delivered_order_items',
  'modify_pending_order_address',
  'modify_pending_order_items',
  'modify_pending_order_payment',
  'modify_user_address',
  'return_delivered_order_items',
] as const satisfies readonly WriteOp['type'][];

export const READ_TOOLS = [
  'find_user_id_by_name_zip',
  'find_user_id_by_email',
  'get_order_details',
  'get_product_details',
  'get_item_details',
  'get_user_details',
  'list_all_product_types',
] as const;

/** Tools that neither read nor write the database. */
export const GENERIC_TOOLS = ['calculate', 'transfer_to_human_agents'] as const;

export type ToolName = (typeof WRITE_TOOLS)[number] | (typeof READ_TOOLS)[number] | (typeof GENERIC_TOOLS)[number];

export function isWriteTool(name: string): name is WriteOp['type'] {
  return (WRITE_TOOLS as readonly string[]).includes(name);
}

export function isToolName(name: string): name is ToolName {
  return isWriteTool(name) || (READ_TOOLS as readonly string[]).includes(name) || (GENERIC_TOOLS as readonly string[]).includes(name);
}

/** What a tool call gives: the text the agent reads (as the reference's environment renders it), and the database after it. */
export interface ToolOutcome {
  readonly output: string;
  readonly error: boolean;
  readonly db: RetailDb;
  /** The write op the call made, when it was a write that succeeded. */
  readonly op?: WriteOp;
}

/**
 * Calls a tool by name as the reference environment does: a result becomes `json.dumps` of the
 * model's dump (a string result as it is), a failure becomes `Error: <message>` and changes nothing.
 */
export function callTool(db: RetailDb, name: string, args: Record<string, unknown>): ToolOutcome {
  try {
    if (isWriteTool(name)) {
      const op = { type: name, ...args } as WriteOp;
      const { db: next, result } = applyWrite(db, op);
      return { output: render(result), error: false, db: next, op };
    }
    const result = read(db, name, args);
    return { output: typeof result === 'string' ? result : render(result), error: false, db };
  } catch (error) {
    if (error instanceof ToolError) return { output: `Error: ${error.message}`, error: true, db };
    throw error;
  }
}

/**
 * `json.dumps(model.model_dump())`. One value is a Python int rather than a float: an exchange of no
 * items stores `round(0, 2)`, the int 0, unvalidated, and an order shows it as `0`; no other write
 * leaves empty `exchange_items`, so the content tells which.
 */
function render(model: object): string {
  const order = model as Partial<Order>;
  if (Array.isArray(order.exchange_items) && order.exchange_items.length === 0 && order.exchange_price_difference === 0) {
    return pyJson({ ...order, exchange_price_difference: new PyInt(0) });
  }
  return pyJson(model);
}

const s = (args: Record<string, unknown>, key: string): string => args[key] as string;

/** A read-only tool's result: a model (order, user, product, variant) or a string. */
export function read(db: RetailDb, name: string, args: Record<string, unknown>): Order | User | Product | Variant | string {
  switch (name) {
    case 'calculate':
      try {
        return calculate(s(args, 'expression'));
      } catch (error) {
        throw new ToolError((error as Error).message);
      }
    case 'transfer_to_human_agents':
      return 'Transfer successful';
    case 'find_user_id_by_name_zip': {
      const first = s(args, 'first_name').toLowerCase();
      const last = s(args, 'last_name').toLowerCase();
      for (const [userId, user] of Object.entries(db.users)) {
        if (user.name.first_name.toLowerCase() === first && user.name.last_name.toLowerCase() === last && user.address.zip === s(args, 'zip')) return userId;
      }
      throw new ToolError('User not found');
    }
    case 'find_user_id_by_email': {
      const email = s(args, 'email').toLowerCase();
      for (const [userId, user] of Object.entries(db.users)) if (user.email.toLowerCase() === email) return userId;
      throw new ToolError('User not found');
    }
    case 'get_order_details':
      return getOrder(db, s(args, 'order_id'));
    case 'get_product_details': {
      const product = getProduct(db, s(args, 'product_id'));
      const variants = new Map(orderedVariantIds(product.product_id, product.variants).map((id) => [id, product.variants[id]!]));
      return { ...product, variants } as unknown as Product;
    }
    case 'get_item_details': {
      const itemId = s(args, 'item_id');
      for (const product of Object.values(db.products)) if (Object.hasOwn(product.variants, itemId)) return product.variants[itemId]!;
      throw new ToolError('Item not found');
    }
    case 'get_user_details':
      return getUser(db, s(args, 'user_id'));
    case 'list_all_product_types': {
      const byName: Record<string, string> = {};
      for (const product of Object.values(db.products)) byName[product.name] = product.product_id;
      return pyJson(byName, { sortKeys: true });
    }
  }
  throw new ToolError(`Tool '${name}' not found.`);
}

function getOrder(db: RetailDb, orderId: string): Order {
  if (!Object.hasOwn(db.orders, orderId)) throw new ToolError('Order not found');
  return db.orders[orderId]!;
}

function getUser(db: RetailDb, userId: string): User {
  if (!Object.hasOwn(db.users, userId)) throw new ToolError('User not found');
  return db.users[userId]!;
}

function getProduct(db: RetailDb, productId: string): Product {
  if (!Object.hasOwn(db.products, productId)) throw new ToolError('Product not found');
  return db.products[productId]!;
}

function getVariant(db: RetailDb, productId: string, variantId: string): Variant {
  const product = getProduct(db, productId);
  if (!Object.hasOwn(product.variants, variantId)) throw new ToolError('Variant not found');
  return product.variants[variantId]!;
}

function getPaymentMethod(db: RetailDb, userId: string, paymentMethodId: string): PaymentMethod {
  const user = getUser(db, userId);
  if (!Object.hasOwn(user.payment_methods, paymentMethodId)) throw new ToolError('Payment method not found');
  return user.payment_methods[paymentMethodId]!;
}

/** `_is_pending_order`: "pending" anywhere in the status, so "pending (item modified)" counts. */
function isPendingOrder(order: Order): boolean {
  return order.status.includes('pending');
}

const count = (list: readonly string[], value: string): number => list.filter((x) => x === value).length;
/** Python's sorted() of strings. */
const sorted = (list: readonly string[]): string[] => [...list].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * A copy of the database in which the one order and the one user a write touches are private
 * copies, so the reference's in-place mutations can be done literally on them.
 */
class Draft {
  readonly orders: Record<string, Order>;
  readonly users: Record<string, User>;
  constructor(private readonly base: RetailDb) {
    this.orders = base.orders;
    this.users = base.users;
  }
  private order?: Order;
  private user?: User;

  get db(): RetailDb {
    return {
      products: this.base.products,
      users: this.user ? { ...this.base.users, [this.user.user_id]: this.user } : this.base.users,
      orders: this.order ? { ...this.base.orders, [this.order.order_id]: this.order } : this.base.orders,
    };
  }

  /** The order, as a private copy this write may change. */
  editOrder(orderId: string): Order {
    const order = getOrder(this.base, orderId);
    this.order = structuredClone(order);
    return this.order;
  }

  /** The user, as a private copy this write may change (its gift card balances). */
  editUser(userId: string): User {
    if (this.user?.user_id === userId) return this.user;
    const user = getUser(this.base, userId);
    this.user = structuredClone(user);
    return this.user;
  }

  paymentMethod(userId: string, paymentMethodId: string): PaymentMethod {
    getPaymentMethod(this.base, userId, paymentMethodId);
    return this.editUser(userId).payment_methods[paymentMethodId]!;
  }
}

function newAddress(op: Address): Address {
  return { address1: op.address1, address2: op.address2, city: op.city, country: op.country, state: op.state, zip: op.zip };
}

/** Applies one write as the reference tool does; throws ToolError, changing nothing, where the tool raises. */
export function applyWrite(db: RetailDb, op: WriteOp): { db: RetailDb; result: Order | User } {
  const d = new Draft(db);
  switch (op.type) {
    case 'cancel_pending_order': {
      const order = d.editOrder(op.order_id);
      if (order.status !== 'pending') throw new ToolError('Non-pending order cannot be cancelled');
      if (op.reason !== 'no longer needed' && op.reason !== 'ordered by mistake') throw new ToolError('Invalid reason');
      const refunds = [];
      for (const payment of order.payment_history) {
        refunds.push({ transaction_type: 'refund' as const, amount: payment.amount, payment_method_id: payment.payment_method_id });
        const method = d.paymentMethod(getUser(db, order.user_id).user_id, payment.payment_method_id);
        if (method.source === 'gift_card') {
          method.balance += payment.amount;
          method.balance = pyRound2(method.balance);
        }
      }
      order.status = 'cancelled';
      order.cancel_reason = op.reason;
      order.payment_history.push(...refunds);
      return { db: d.db, result: order };
    }
    case 'exchange_delivered_order_items': {
      const order = d.editOrder(op.order_id);
      if (order.status !== 'delivered') throw new ToolError('Non-delivered order cannot be exchanged');
      const all = order.items.map((item) => item.item_id);
      for (const itemId of op.item_ids) if (count(op.item_ids, itemId) > count(all, itemId)) throw new ToolError(`Number of ${itemId} not found.`);
      if (op.item_ids.length !== op.new_item_ids.length) throw new ToolError('The number of items to be exchanged should match.');
      let diff = 0;
      op.item_ids.forEach((itemId, i) => {
        const newItemId = op.new_item_ids[i]!;
        const item = order.items.find((it) => it.item_id === itemId);
        if (!item) throw new ToolError(`Item ${itemId} not found`);
        const variant = getVariant(db, item.product_id, newItemId);
        if (!variant.available) throw new ToolError(`New item ${newItemId} not found or available`);
        diff += variant.price - item.price;
      });
      diff = pyRound2(diff);
      const method = getPaymentMethod(db, order.user_id, op.payment_method_id);
      if (method.source === 'gift_card' && method.balance < diff) throw new ToolError('Insufficient gift card balance to pay for the price difference');
      order.status = 'exchange requested';
      order.exchange_items = sorted(op.item_ids);
      order.exchange_new_items = sorted(op.new_item_ids);
      order.exchange_payment_method_id = op.payment_method_id;
      order.exchange_price_difference = diff;
      return { db: d.db, result: order };
    }
    case 'modify_pending_order_address': {
      const order = d.editOrder(op.order_id);
      if (!isPendingOrder(order)) throw new ToolError('Non-pending order cannot be modified');
      order.address = newAddress(op);
      return { db: d.db, result: order };
    }
    case 'modify_pending_order_items': {
      const order = d.editOrder(op.order_id);
      if (order.status !== 'pending') throw new ToolError('Non-pending order cannot be modified');
      const all = order.items.map((item) => item.item_id);
      for (const itemId of op.item_ids) if (count(op.item_ids, itemId) > count(all, itemId)) throw new ToolError(`${itemId} not found`);
      if (op.item_ids.length !== op.new_item_ids.length) throw new ToolError('The number of items to be exchanged should match');
      let diff = 0;
      // Python's loop variable outlives the loop: the second loop prices every item at the last new item's variant.
      let variant: Variant | undefined;
      op.item_ids.forEach((itemId, i) => {
        const newItemId = op.new_item_ids[i]!;
        if (itemId === newItemId) throw new ToolError('The new item id should be different from the old item id');
        const item = order.items.find((it) => it.item_id === itemId);
        if (!item) throw new ToolError(`Item ${itemId} not found`);
        variant = getVariant(db, item.product_id, newItemId);
        if (!variant.available) throw new ToolError(`New item ${newItemId} not found or available`);
        diff += variant.price - item.price;
      });
      const method = d.paymentMethod(order.user_id, op.payment_method_id);
      if (method.source === 'gift_card' && method.balance < diff) throw new ToolError('Insufficient gift card balance to pay for the new item');
      order.payment_history.push({ transaction_type: diff > 0 ? 'payment' : 'refund', amount: Math.abs(diff), payment_method_id: op.payment_method_id });
      if (method.source === 'gift_card') {
        method.balance -= diff;
        method.balance = pyRound2(method.balance);
      }
      for (const [i, itemId] of op.item_ids.entries()) {
        const item: OrderItem | undefined = order.items.find((it) => it.item_id === itemId);
        if (!item) throw new ToolError(`Item ${itemId} not found`);
        item.item_id = op.new_item_ids[i]!;
        item.price = variant!.price;
        item.options = { ...variant!.options };
      }
      order.status = 'pending (item modified)';
      return { db: d.db, result: order };
    }
    case 'modify_pending_order_payment': {
      const order = d.editOrder(op.order_id);
      if (!isPendingOrder(order)) throw new ToolError('Non-pending order cannot be modified');
      getPaymentMethod(db, order.user_id, op.payment_method_id);
      const history = order.payment_history;
      if (history.length !== 1 || history[0]!.transaction_type !== 'payment') throw new ToolError('There should be exactly one payment for a pending order');
      if (history[0]!.payment_method_id === op.payment_method_id) throw new ToolError('The new payment method should be different from the current one');
      const amount = history[0]!.amount;
      const method = d.paymentMethod(order.user_id, op.payment_method_id);
      if (method.source === 'gift_card' && method.balance < amount) throw new ToolError('Insufficient gift card balance to pay for the order');
      history.push(
        { transaction_type: 'payment', amount, payment_method_id: op.payment_method_id },
        { transaction_type: 'refund', amount, payment_method_id: history[0]!.payment_method_id },
      );
      if (method.source === 'gift_card') {
        method.balance -= amount;
        method.balance = pyRound2(method.balance);
      }
      const old = d.paymentMethod(order.user_id, history[0]!.payment_method_id);
      if (old.source === 'gift_card') {
        old.balance += amount;
        old.balance = pyRound2(old.balance);
      }
      return { db: d.db, result: order };
    }
    case 'modify_user_address': {
      const user = d.editUser(op.user_id);
      user.address = newAddress(op);
      return { db: d.db, result: user };
    }
    case 'return_delivered_order_items': {
      const order = d.editOrder(op.order_id);
      if (order.status !== 'delivered') throw new ToolError('Non-delivered order cannot be returned');
      const user = getUser(db, order.user_id);
      const method = getPaymentMethod(db, user.user_id, op.payment_method_id);
      if (method.source !== 'gift_card') {
        const first = order.payment_history[0];
        if (!first) throw new ToolError('list index out of range');
        if (op.payment_method_id !== first.payment_method_id) throw new ToolError('Payment method should be the original payment method');
      }
      const all = order.items.map((item) => item.item_id);
      for (const itemId of op.item_ids) if (count(op.item_ids, itemId) > count(all, itemId)) throw new ToolError('Some item not found');
      order.status = 'return requested';
      order.return_items = sorted(op.item_ids);
      order.return_payment_method_id = op.payment_method_id;
      return { db: d.db, result: order };
    }
  }
}
