import { normalizeDb, type RetailDb } from '../src/model';

const address = { address1: '1 Main St', address2: 'Apt 2', city: 'Springfield', country: 'USA', state: 'IL', zip: '62701' };
const item = (item_id: string, price: number, options: Record<string, string>) => ({ name: 'Keyboard', product_id: '1000000001', item_id, price, options });
const order = (order_id: string, status: string, items: ReturnType<typeof item>[], payments: [string, number][]) => ({
  order_id,
  user_id: 'sam_lee_1',
  address,
  items,
  status,
  fulfillments: [],
  payment_history: payments.map(([payment_method_id, amount]) => ({ transaction_type: 'payment', amount, payment_method_id })),
});

/** A small store: one product with four items (one unavailable), one customer with two gift cards, four orders. */
export function smallDb(): RetailDb {
  return normalizeDb({
    products: {
      '1000000001': {
        name: 'Keyboard',
        product_id: '1000000001',
        variants: {
          '9000000004': { item_id: '9000000004', options: { switch: 'tactile' }, available: true, price: 130.1 },
          '9000000001': { item_id: '9000000001', options: { switch: 'linear' }, available: true, price: 100 },
          '9000000002': { item_id: '9000000002', options: { switch: 'clicky' }, available: true, price: 120.5 },
          '9000000003': { item_id: '9000000003', options: { switch: 'silent' }, available: false, price: 90.25 },
        },
      },
    },
    users: {
      sam_lee_1: {
        user_id: 'sam_lee_1',
        name: { first_name: 'Sam', last_name: 'Lee' },
        address,
        email: 'Sam.Lee@example.com',
        payment_methods: {
          gift_card_1: { source: 'gift_card', id: 'gift_card_1', balance: 50 },
          gift_card_2: { source: 'gift_card', id: 'gift_card_2', balance: 5.5 },
          credit_card_1: { source: 'credit_card', id: 'credit_card_1', brand: 'visa', last_four: '4242' },
          paypal_1: { source: 'paypal', id: 'paypal_1' },
        },
        orders: ['#W1', '#W2', '#W3', '#W4'],
      },
    },
    orders: {
      '#W1': order('#W1', 'pending', [item('9000000001', 100, { switch: 'linear' }), item('9000000001', 100, { switch: 'linear' })], [['credit_card_1', 200]]),
      '#W2': order('#W2', 'delivered', [item('9000000001', 100, { switch: 'linear' }), item('9000000002', 120.5, { switch: 'clicky' })], [['gift_card_1', 220.5]]),
      '#W3': order('#W3', 'pending', [item('9000000001', 100, { switch: 'linear' })], [['gift_card_1', 100]]),
      '#W4': order('#W4', 'delivered', [item('9000000002', 120.5, { switch: 'clicky' })], [['credit_card_1', 120.5]]),
    },
  });
}
