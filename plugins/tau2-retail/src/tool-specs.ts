import type { JsonSchema } from '@cowork/host';
import type { ToolName } from './domain';

/**
 * What the model is told about each tool: the reference's docstrings (the function's text and its
 * `Args:` lines, as τ²-bench turns them into a tool schema), and its parameters, every one
 * required, strings or lists of strings as the reference's type hints say.
 */
export interface ToolSpec {
  readonly name: ToolName;
  readonly description: string;
  readonly parameters: Readonly<Record<string, { readonly type: 'string' | 'string[]'; readonly description: string }>>;
}

const ORDER_ID = "The order id, such as '#W0000000'. Be careful there is a '#' symbol at the beginning of the order id.";
const USER_ID = "The user id, such as 'sara_doe_496'.";
const PRODUCT_ID = "The product id, such as '6086499569'. Be careful the product id is different from the item id.";
const PAYMENT_METHOD_ID =
  "The payment method id to pay or receive refund for the item price difference, such as 'gift_card_0000000' or 'credit_card_0000000'. These can be looked up from the user or order details.";
const ADDRESS = {
  address1: { type: 'string', description: "The first line of the address, such as '123 Main St'." },
  address2: { type: 'string', description: "The second line of the address, such as 'Apt 1' or ''." },
  city: { type: 'string', description: "The city, such as 'San Francisco'." },
  state: { type: 'string', description: "The state, such as 'CA'." },
  country: { type: 'string', description: "The country, such as 'USA'." },
  zip: { type: 'string', description: "The zip code, such as '12345'." },
} as const;

export const TOOL_SPECS: readonly ToolSpec[] = [
  {
    name: 'calculate',
    description: 'Calculate the result of a mathematical expression.',
    parameters: {
      expression: {
        type: 'string',
        description: "The mathematical expression to calculate, such as '2 + 2'. The expression can contain numbers, operators (+, -, *, /), parentheses, and spaces.",
      },
    },
  },
  {
    name: 'cancel_pending_order',
    description:
      'Cancel a pending order. If the order is already processed or delivered, it cannot be cancelled. The agent needs to explain the cancellation detail ' +
      "and ask for explicit user confirmation (yes/no) to proceed. If the user confirms, the order status will be changed to 'cancelled' and the payment will be refunded. " +
      "The refund will be added to the user's gift card balance immediately if the payment was made using a gift card, otherwise the refund would take 5-7 business days to process. " +
      'The function returns the order details after the cancellation.',
    parameters: {
      order_id: { type: 'string', description: ORDER_ID },
      reason: { type: 'string', description: "The reason for cancellation, which should be either 'no longer needed' or 'ordered by mistake'." },
    },
  },
  {
    name: 'exchange_delivered_order_items',
    description:
      'Exchange items in a delivered order to new items of the same product type. For a delivered order, return or exchange can be only done once by the agent. ' +
      'The agent needs to explain the exchange detail and ask for explicit user confirmation (yes/no) to proceed.',
    parameters: {
      order_id: { type: 'string', description: ORDER_ID },
      item_ids: { type: 'string[]', description: "The item ids to be exchanged, each such as '1008292230'. There could be duplicate items in the list." },
      new_item_ids: {
        type: 'string[]',
        description:
          "The item ids to be exchanged for, each such as '1008292230'. There could be duplicate items in the list. Each new item id should match the item id in the same position and be of the same product.",
      },
      payment_method_id: { type: 'string', description: PAYMENT_METHOD_ID },
    },
  },
  {
    name: 'find_user_id_by_name_zip',
    description:
      'Find user id by first name, last name, and zip code. If the user is not found, the function will return an error message. By default, find user id by email, ' +
      'and only call this function if the user is not found by email or cannot remember email.',
    parameters: {
      first_name: { type: 'string', description: "The first name of the customer, such as 'John'." },
      last_name: { type: 'string', description: "The last name of the customer, such as 'Doe'." },
      zip: { type: 'string', description: "The zip code of the customer, such as '12345'." },
    },
  },
  {
    name: 'find_user_id_by_email',
    description: 'Find user id by email. If the user is not found, the function will return an error message.',
    parameters: { email: { type: 'string', description: "The email of the user, such as 'something@example.com'." } },
  },
  { name: 'get_order_details', description: 'Get the status and details of an order.', parameters: { order_id: { type: 'string', description: ORDER_ID } } },
  { name: 'get_product_details', description: 'Get the inventory details of a product.', parameters: { product_id: { type: 'string', description: PRODUCT_ID } } },
  {
    name: 'get_item_details',
    description: 'Get the inventory details of an item.',
    parameters: { item_id: { type: 'string', description: "The item id, such as '6086499569'. Be careful the item id is different from the product id." } },
  },
  { name: 'get_user_details', description: 'Get the details of a user, including their orders.', parameters: { user_id: { type: 'string', description: USER_ID } } },
  {
    name: 'list_all_product_types',
    description:
      'List the name and product id of all product types. Each product type has a variety of different items with unique item ids and options. There are only 50 product types in the store.',
    parameters: {},
  },
  {
    name: 'modify_pending_order_address',
    description:
      'Modify the shipping address of a pending order. The agent needs to explain the modification detail and ask for explicit user confirmation (yes/no) to proceed.',
    parameters: { order_id: { type: 'string', description: ORDER_ID }, ...ADDRESS },
  },
  {
    name: 'modify_pending_order_items',
    description:
      'Modify items in a pending order to new items of the same product type. For a pending order, this function can only be called once. ' +
      'The agent needs to explain the exchange detail and ask for explicit user confirmation (yes/no) to proceed.',
    parameters: {
      order_id: { type: 'string', description: ORDER_ID },
      item_ids: { type: 'string[]', description: "The item ids to be modified, each such as '1008292230'. There could be duplicate items in the list." },
      new_item_ids: {
        type: 'string[]',
        description:
          "The item ids to be modified for, each such as '1008292230'. There could be duplicate items in the list. Each new item id should match the item id in the same position and be of the same product.",
      },
      payment_method_id: { type: 'string', description: PAYMENT_METHOD_ID },
    },
  },
  {
    name: 'modify_pending_order_payment',
    description:
      'Modify the payment method of a pending order. The agent needs to explain the modification detail and ask for explicit user confirmation (yes/no) to proceed.',
    parameters: { order_id: { type: 'string', description: ORDER_ID }, payment_method_id: { type: 'string', description: PAYMENT_METHOD_ID } },
  },
  {
    name: 'modify_user_address',
    description: 'Modify the default address of a user. The agent needs to explain the modification detail and ask for explicit user confirmation (yes/no) to proceed.',
    parameters: { user_id: { type: 'string', description: USER_ID }, ...ADDRESS },
  },
  {
    name: 'return_delivered_order_items',
    description:
      "Return some items of a delivered order. The order status will be changed to 'return requested'. " +
      'The agent needs to explain the return detail and ask for explicit user confirmation (yes/no) to proceed. ' +
      'The user will receive follow-up email for how and where to return the item.',
    parameters: {
      order_id: { type: 'string', description: ORDER_ID },
      item_ids: { type: 'string[]', description: "The item ids to be returned, each such as '1008292230'. There could be duplicate items in the list." },
      payment_method_id: {
        type: 'string',
        description:
          "The payment method id to pay or receive refund for the item price difference, such as 'gift_card_0000000' or 'credit_card_0000000'. These can be looked up from the user or order details.",
      },
    },
  },
  {
    name: 'transfer_to_human_agents',
    description:
      "Transfer the user to a human agent, with a summary of the user's issue. Only transfer if\n -  the user explicitly asks for a human agent\n -  given the policy and the available tools, you cannot solve the user's issue.",
    parameters: { summary: { type: 'string', description: "A summary of the user's issue." } },
  },
];

/** A tool's input schema: an object of its parameters, all required, nothing else. */
export function inputSchema(spec: ToolSpec): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [name, p] of Object.entries(spec.parameters)) {
    properties[name] = p.type === 'string' ? { type: 'string', description: p.description } : { type: 'array', items: { type: 'string' }, description: p.description };
  }
  return { type: 'object', properties, required: Object.keys(spec.parameters), additionalProperties: false } as JsonSchema;
}
