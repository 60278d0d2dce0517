/**
 * The retail database as the reference's pydantic data model holds it (retail_data_model.py), in
 * the form `RetailDB.model_dump()` gives: every model's fields in declaration order, the optional
 * order fields present as null, unknown fields dropped. The kind's content is this form, so a
 * database read from here and one dumped from the reference compare field for field.
 */

export interface Variant {
  item_id: string;
  options: Record<string, string>;
  available: boolean;
  price: number;
}

export interface Product {
  name: string;
  product_id: string;
  variants: Record<string, Variant>;
}

export interface Address {
  address1: string;
  address2: string;
  city: string;
  country: string;
  state: string;
  zip: string;
}

export type PaymentMethod =
  | { source: 'credit_card'; id: string; brand: string; last_four: string }
  | { source: 'paypal'; id: string }
  | { source: 'gift_card'; id: string; balance: number };

export interface User {
  user_id: string;
  name: { first_name: string; last_name: string };
  address: Address;
  email: string;
  payment_methods: Record<string, PaymentMethod>;
  orders: string[];
}

export interface OrderItem {
  name: string;
  product_id: string;
  item_id: string;
  price: number;
  options: Record<string, string>;
}

export interface OrderPayment {
  transaction_type: 'payment' | 'refund';
  amount: number;
  payment_method_id: string;
}

export interface Order {
  order_id: string;
  user_id: string;
  address: Address;
  items: OrderItem[];
  status: string;
  fulfillments: { tracking_id: string[]; item_ids: string[] }[];
  payment_history: OrderPayment[];
  cancel_reason: string | null;
  exchange_items: string[] | null;
  exchange_new_items: string[] | null;
  exchange_payment_method_id: string | null;
  exchange_price_difference: number | null;
  return_items: string[] | null;
  return_payment_method_id: string | null;
}

export interface RetailDb {
  products: Record<string, Product>;
  users: Record<string, User>;
  orders: Record<string, Order>;
}

/** A database that is not the retail data model: the reason names the first field at fault. */
export class InvalidDatabase extends Error {}

type Obj = Record<string, unknown>;

function obj(value: unknown, where: string): Obj {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidDatabase(`${where} must be an object`);
  return value as Obj;
}

function str(o: Obj, key: string, where: string): string {
  const v = o[key];
  if (typeof v !== 'string') throw new InvalidDatabase(`${where}.${key} must be a string`);
  return v;
}

function num(o: Obj, key: string, where: string): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new InvalidDatabase(`${where}.${key} must be a number`);
  return v;
}

function strings(v: unknown, where: string): string[] {
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) throw new InvalidDatabase(`${where} must be a list of strings`);
  return [...v];
}

function stringMap(v: unknown, where: string): Record<string, string> {
  const o = obj(v, where);
  const out: Record<string, string> = {};
  for (const [k, s] of Object.entries(o)) {
    if (typeof s !== 'string') throw new InvalidDatabase(`${where}.${k} must be a string`);
    out[k] = s;
  }
  return out;
}

function map<T>(v: unknown, where: string, each: (value: unknown, where: string) => T): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [k, x] of Object.entries(obj(v, where))) out[k] = each(x, `${where}[${JSON.stringify(k)}]`);
  return out;
}

export function address(v: unknown, where: string): Address {
  const o = obj(v, where);
  return {
    address1: str(o, 'address1', where),
    address2: str(o, 'address2', where),
    city: str(o, 'city', where),
    country: str(o, 'country', where),
    state: str(o, 'state', where),
    zip: str(o, 'zip', where),
  };
}

function paymentMethod(v: unknown, where: string): PaymentMethod {
  const o = obj(v, where);
  const source = o.source;
  if (source === 'credit_card') return { source, id: str(o, 'id', where), brand: str(o, 'brand', where), last_four: str(o, 'last_four', where) };
  if (source === 'paypal') return { source, id: str(o, 'id', where) };
  if (source === 'gift_card') return { source, id: str(o, 'id', where), balance: num(o, 'balance', where) };
  throw new InvalidDatabase(`${where}.source must be credit_card, paypal or gift_card`);
}

function nullable<T>(o: Obj, key: string, read: (v: unknown) => T): T | null {
  return o[key] === undefined || o[key] === null ? null : read(o[key]);
}

function order(v: unknown, where: string): Order {
  const o = obj(v, where);
  if (!Array.isArray(o.items)) throw new InvalidDatabase(`${where}.items must be a list`);
  if (!Array.isArray(o.fulfillments)) throw new InvalidDatabase(`${where}.fulfillments must be a list`);
  if (!Array.isArray(o.payment_history)) throw new InvalidDatabase(`${where}.payment_history must be a list`);
  return {
    order_id: str(o, 'order_id', where),
    user_id: str(o, 'user_id', where),
    address: address(o.address, `${where}.address`),
    items: o.items.map((item, i) => {
      const w = `${where}.items[${i}]`;
      const it = obj(item, w);
      return { name: str(it, 'name', w), product_id: str(it, 'product_id', w), item_id: str(it, 'item_id', w), price: num(it, 'price', w), options: stringMap(it.options, `${w}.options`) };
    }),
    status: str(o, 'status', where),
    fulfillments: o.fulfillments.map((f, i) => {
      const w = `${where}.fulfillments[${i}]`;
      const fo = obj(f, w);
      return { tracking_id: strings(fo.tracking_id, `${w}.tracking_id`), item_ids: strings(fo.item_ids, `${w}.item_ids`) };
    }),
    payment_history: o.payment_history.map((p, i) => {
      const w = `${where}.payment_history[${i}]`;
      const po = obj(p, w);
      const type = po.transaction_type;
      if (type !== 'payment' && type !== 'refund') throw new InvalidDatabase(`${w}.transaction_type must be payment or refund`);
      return { transaction_type: type, amount: num(po, 'amount', w), payment_method_id: str(po, 'payment_method_id', w) };
    }),
    cancel_reason: nullable(o, 'cancel_reason', (x) => String(x)),
    exchange_items: nullable(o, 'exchange_items', (x) => strings(x, `${where}.exchange_items`)),
    exchange_new_items: nullable(o, 'exchange_new_items', (x) => strings(x, `${where}.exchange_new_items`)),
    exchange_payment_method_id: nullable(o, 'exchange_payment_method_id', (x) => String(x)),
    exchange_price_difference: nullable(o, 'exchange_price_difference', () => num(o, 'exchange_price_difference', where)),
    return_items: nullable(o, 'return_items', (x) => strings(x, `${where}.return_items`)),
    return_payment_method_id: nullable(o, 'return_payment_method_id', (x) => String(x)),
  };
}

/** Reads db.json (or a database dumped by the reference) into the model's form; throws InvalidDatabase. */
export function normalizeDb(raw: unknown): RetailDb {
  const root = obj(raw, 'database');
  return {
    products: map(root.products, 'products', (v, where) => {
      const o = obj(v, where);
      return {
        name: str(o, 'name', where),
        product_id: str(o, 'product_id', where),
        variants: map(o.variants, `${where}.variants`, (x, w) => {
          const vo = obj(x, w);
          if (typeof vo.available !== 'boolean') throw new InvalidDatabase(`${w}.available must be true or false`);
          return { item_id: str(vo, 'item_id', w), options: stringMap(vo.options, `${w}.options`), available: vo.available, price: num(vo, 'price', w) };
        }),
      };
    }),
    users: map(root.users, 'users', (v, where) => {
      const o = obj(v, where);
      const name = obj(o.name, `${where}.name`);
      return {
        user_id: str(o, 'user_id', where),
        name: { first_name: str(name, 'first_name', `${where}.name`), last_name: str(name, 'last_name', `${where}.name`) },
        address: address(o.address, `${where}.address`),
        email: str(o, 'email', where),
        payment_methods: map(o.payment_methods, `${where}.payment_methods`, paymentMethod),
        orders: strings(o.orders, `${where}.orders`),
      };
    }),
    orders: map(root.orders, 'orders', order),
  };
}
