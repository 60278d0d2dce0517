/**
 * Dimension expressions: a number field of a feature may hold a number or a string such as
 * `width / 2 - wall` over the part's named parameters. Only numbers, parameter names, `+ - * /`,
 * unary minus and parentheses exist; the string is parsed here, never handed to `eval`.
 */
export type Num = number | string;

export type Parameters = Readonly<Record<string, number>>;

type Node =
  | { kind: 'number'; value: number }
  | { kind: 'name'; name: string }
  | { kind: 'negate'; operand: Node }
  | { kind: 'binary'; operator: '+' | '-' | '*' | '/'; left: Node; right: Node };

const TOKEN = /\s*(?:(\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|([-+*/()]))/y;

/** The value of `value` with these parameters; throws an Error that says what is wrong. */
export function evaluateNum(value: Num, parameters: Parameters): number {
  if (typeof value === 'number') return value;
  const result = evaluateNode(parse(value), parameters, value);
  if (!Number.isFinite(result)) throw new Error(`${JSON.stringify(value)} is not a finite number (a division by zero?)`);
  return result;
}

/** The parameter names an expression uses (none for a number); throws when it does not parse. */
export function parameterNames(value: Num): string[] {
  if (typeof value === 'number') return [];
  const names = new Set<string>();
  const walk = (node: Node): void => {
    if (node.kind === 'name') names.add(node.name);
    else if (node.kind === 'negate') walk(node.operand);
    else if (node.kind === 'binary') {
      walk(node.left);
      walk(node.right);
    }
  };
  walk(parse(value));
  return [...names];
}

function evaluateNode(node: Node, parameters: Parameters, source: string): number {
  switch (node.kind) {
    case 'number':
      return node.value;
    case 'name': {
      const value = Object.prototype.hasOwnProperty.call(parameters, node.name) ? parameters[node.name] : undefined;
      if (value === undefined) throw new Error(`${JSON.stringify(source)} uses parameter ${JSON.stringify(node.name)}, which does not exist`);
      return value;
    }
    case 'negate':
      return -evaluateNode(node.operand, parameters, source);
    case 'binary': {
      const left = evaluateNode(node.left, parameters, source);
      const right = evaluateNode(node.right, parameters, source);
      if (node.operator === '+') return left + right;
      if (node.operator === '-') return left - right;
      if (node.operator === '*') return left * right;
      return left / right;
    }
  }
}

/** Recursive descent over `sum := product (('+'|'-') product)*`, `product := unary (('*'|'/') unary)*`. */
function parse(source: string): Node {
  const tokens = tokenize(source);
  let at = 0;
  const fail = (what: string): never => {
    throw new Error(`cannot read the expression ${JSON.stringify(source)}: ${what}; use numbers, parameter names, + - * / and parentheses`);
  };
  const sum = (): Node => {
    let node = product();
    while (tokens[at] === '+' || tokens[at] === '-') {
      const operator = tokens[at++] as '+' | '-';
      node = { kind: 'binary', operator, left: node, right: product() };
    }
    return node;
  };
  const product = (): Node => {
    let node = unary();
    while (tokens[at] === '*' || tokens[at] === '/') {
      const operator = tokens[at++] as '*' | '/';
      node = { kind: 'binary', operator, left: node, right: unary() };
    }
    return node;
  };
  const unary = (): Node => {
    const token = tokens[at++];
    if (token === undefined) return fail('it ends too early');
    if (token === '-') return { kind: 'negate', operand: unary() };
    if (token === '+') return unary();
    if (token === '(') {
      const inner = sum();
      if (tokens[at++] !== ')') fail('a parenthesis is not closed');
      return inner;
    }
    if (/^[\d.]/.test(token)) return { kind: 'number', value: Number(token) };
    if (/^[A-Za-z_]/.test(token)) return { kind: 'name', name: token };
    return fail(`unexpected ${JSON.stringify(token)}`);
  };
  const node = sum();
  if (at < tokens.length) fail(`unexpected ${JSON.stringify(tokens[at])}`);
  return node;
}

function tokenize(source: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    if (/^\s*$/.test(source.slice(TOKEN.lastIndex))) break;
    const start = TOKEN.lastIndex;
    const match = TOKEN.exec(source);
    if (!match) throw new Error(`cannot read the expression ${JSON.stringify(source)}: unexpected character at ${JSON.stringify(source.slice(start).trim().slice(0, 10))}`);
    tokens.push(match[1] ?? match[2] ?? match[3] ?? '');
  }
  return tokens;
}
