/**
 * The scripted interaction of a check: what a reviewer does to try an app (click, type, pick,
 * wait) and what they look for (text, elements and their state). Selectors are Playwright
 * selectors: CSS (`#add`, `#items li`) or the text and role engines (`text=Undo`,
 * `role=button[name="Add"]`). A selector that a step acts on must match exactly one element.
 */
export type Step =
  | { action: 'click'; selector: string; timeoutMs?: number }
  | { action: 'type'; selector: string; text: string; timeoutMs?: number }
  | { action: 'press'; key: string; selector?: string; timeoutMs?: number }
  | { action: 'select'; selector: string; value: string; timeoutMs?: number }
  | { action: 'wait'; selector?: string; ms?: number; timeoutMs?: number }
  | { action: 'assert_text'; selector: string; contains?: string; equals?: string; timeoutMs?: number }
  | {
      action: 'assert_dom';
      selector: string;
      exists?: boolean;
      count?: number;
      visible?: boolean;
      enabled?: boolean;
      checked?: boolean;
      value?: string;
      attribute?: { name: string; value?: string };
      timeoutMs?: number;
    }
  | { action: 'screenshot' };

export type StepAction = Step['action'];

export const DEFAULT_STEP_TIMEOUT_MS = 3_000;
export const MAX_STEP_TIMEOUT_MS = 30_000;
export const MAX_STEPS = 50;

const SELECTOR = { type: 'string', minLength: 1, maxLength: 500, description: 'A Playwright selector: CSS, or text=..., role=...' };
const TIMEOUT = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_STEP_TIMEOUT_MS,
  description: `How long the step may wait for its element or condition, in ms (default ${DEFAULT_STEP_TIMEOUT_MS}).`,
};

const SHAPES: Record<StepAction, { properties: Record<string, object>; required: string[]; oneOf?: object[]; description: string }> = {
  click: { properties: { selector: SELECTOR, timeoutMs: TIMEOUT }, required: ['selector'], description: 'Clicks the element once it is visible and enabled.' },
  type: {
    properties: { selector: SELECTOR, text: { type: 'string', maxLength: 10_000 }, timeoutMs: TIMEOUT },
    required: ['selector', 'text'],
    description: "Replaces the field's value with text, as a person typing would (input events fire).",
  },
  press: {
    properties: { key: { type: 'string', minLength: 1, maxLength: 50, description: 'A key like Enter, Escape, ArrowDown, Control+z.' }, selector: SELECTOR, timeoutMs: TIMEOUT },
    required: ['key'],
    description: 'Presses a key, in the element when a selector is given, else wherever the focus is.',
  },
  select: {
    properties: { selector: SELECTOR, value: { type: 'string', description: "An option's value or its label." }, timeoutMs: TIMEOUT },
    required: ['selector', 'value'],
    description: 'Picks an option of a <select>.',
  },
  wait: {
    properties: { selector: SELECTOR, ms: { type: 'integer', minimum: 1, maximum: MAX_STEP_TIMEOUT_MS }, timeoutMs: TIMEOUT },
    required: [],
    oneOf: [{ required: ['selector'] }, { required: ['ms'] }],
    description: 'Waits until the element is visible (selector), or for a fixed time (ms); give one of the two.',
  },
  assert_text: {
    properties: { selector: SELECTOR, contains: { type: 'string' }, equals: { type: 'string' }, timeoutMs: TIMEOUT },
    required: ['selector'],
    oneOf: [{ required: ['contains'] }, { required: ['equals'] }],
    description: "Passes once the element's visible text contains (or, whitespace aside, equals) the given text; give one of the two.",
  },
  assert_dom: {
    properties: {
      selector: SELECTOR,
      exists: { type: 'boolean', description: 'true (the default): at least one element matches; false: none does.' },
      count: { type: 'integer', minimum: 0, description: 'Exactly this many elements match.' },
      visible: { type: 'boolean' },
      enabled: { type: 'boolean' },
      checked: { type: 'boolean' },
      value: { type: 'string', description: "The form field's current value." },
      attribute: {
        type: 'object',
        properties: { name: { type: 'string', minLength: 1 }, value: { type: 'string', description: 'Omit to ask only that the attribute is present.' } },
        required: ['name'],
        additionalProperties: false,
      },
      timeoutMs: TIMEOUT,
    },
    required: ['selector'],
    description: 'Passes once the matches satisfy every condition given; visible, enabled, checked, value and attribute hold for every match.',
  },
  screenshot: { properties: {}, required: [], description: 'Takes a screenshot of the whole page.' },
};

export const STEP_ACTIONS = Object.keys(SHAPES) as StepAction[];

/**
 * One step: an object with an `action`, then the fields of that action and no others. Written as
 * if/then per action, so that a wrong step gets the errors of its own action only.
 */
export const STEP_SCHEMA = {
  type: 'object',
  properties: { action: { enum: STEP_ACTIONS, description: STEP_ACTIONS.map((a) => `${a}: ${SHAPES[a].description}`).join(' ') } },
  required: ['action'],
  allOf: STEP_ACTIONS.map((action) => {
    const { properties, required, oneOf } = SHAPES[action];
    return {
      if: { properties: { action: { const: action } }, required: ['action'] },
      then: { properties: { action: { const: action }, ...properties }, required, additionalProperties: false, ...(oneOf ? { oneOf } : {}) },
    };
  }),
} as const;
