import { pyFloatRepr, pyRound2 } from './py';

/**
 * The reference `calculate` tool: `str(round(float(eval(expression)), 2))` after checking that
 * the expression holds only `0123456789+-*\/(). `. Python's evaluation of what those characters can
 * spell is done here: integers of any size (BigInt), floats, `+ - * / // **` with Python's
 * precedence, `()` as an empty tuple, a number followed by `(...)` as a call, and Python 3.11's
 * messages for the errors a model can provoke. The error's text is what the tool answers.
 */
export function calculate(expression: string): string {
  if (![...expression].every((c) => '0123456789+-*/(). '.includes(c))) throw new PyError('Invalid characters in expression');
  const value = new Parser(tokenize(expression)).parse();
  return pyFloatRepr(pyRound2(toFloat(value)));
}

/** An error as Python's `str(exception)` reads. */
export class PyError extends Error {}

type Value = { t: 'int'; v: bigint } | { t: 'float'; v: number } | { t: 'tuple' } | { t: 'complex' };
type Token = { k: 'num'; text: string } | { k: 'op'; text: string };

function syntaxError(message: string, line: number): PyError {
  return new PyError(`${message} (<string>, line ${line})`);
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let depth = 0;
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === ' ') {
      i++;
      continue;
    }
    const number = /^(\d+\.\d*|\.\d+|\d+)/.exec(source.slice(i));
    if (number) {
      const text = number[0];
      if (!text.includes('.') && /^0+[1-9]/.test(text)) {
        throw syntaxError('leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers', 1);
      }
      tokens.push({ k: 'num', text });
      i += text.length;
      continue;
    }
    const two = source.slice(i, i + 2);
    if (two === '**' || two === '//') {
      tokens.push({ k: 'op', text: two });
      i += 2;
      continue;
    }
    if (c === '(') depth++;
    if (c === ')') {
      if (depth === 0) throw syntaxError("unmatched ')'", 1);
      depth--;
    }
    tokens.push({ k: 'op', text: c });
    i++;
  }
  if (depth > 0) throw syntaxError("'(' was never closed", 1);
  if (tokens.length === 0) throw syntaxError('invalid syntax', 0);
  return tokens;
}

/** Python's expression grammar, restricted to what the allowed characters can spell. */
class Parser {
  private at = 0;
  constructor(private readonly tokens: readonly Token[]) {}

  parse(): Value {
    // Python compiles the whole expression before evaluating any of it: parse to a tree first.
    const tree = this.sum();
    if (this.at < this.tokens.length) throw syntaxError('invalid syntax', 1);
    return evaluate(tree);
  }

  private peek(): string | undefined {
    const t = this.tokens[this.at];
    return t?.k === 'op' ? t.text : undefined;
  }

  private sum(): Node {
    let left = this.term();
    for (let op = this.peek(); op === '+' || op === '-'; op = this.peek()) {
      this.at++;
      left = { op, left, right: this.term() };
    }
    return left;
  }

  private term(): Node {
    let left = this.factor();
    for (let op = this.peek(); op === '*' || op === '/' || op === '//'; op = this.peek()) {
      this.at++;
      left = { op, left, right: this.factor() };
    }
    return left;
  }

  private factor(): Node {
    const op = this.peek();
    if (op === '+' || op === '-') {
      this.at++;
      return { unary: op, operand: this.factor() };
    }
    return this.power();
  }

  private power(): Node {
    const base = this.primary();
    if (this.peek() === '**') {
      this.at++;
      return { op: '**', left: base, right: this.factor() };
    }
    return base;
  }

  private primary(): Node {
    let node = this.atom();
    while (this.peek() === '(') {
      this.at++;
      const args: Node[] = [];
      if (this.peek() !== ')') args.push(this.sum());
      if (this.peek() !== ')') throw syntaxError('invalid syntax', 1);
      this.at++;
      node = { call: node, args };
    }
    return node;
  }

  private atom(): Node {
    const token = this.tokens[this.at];
    if (!token) throw syntaxError('invalid syntax', 1);
    if (token.k === 'num') {
      this.at++;
      return { literal: token.text.includes('.') ? { t: 'float', v: Number(token.text) } : { t: 'int', v: BigInt(token.text) } };
    }
    if (token.text === '(') {
      this.at++;
      if (this.peek() === ')') {
        this.at++;
        return { literal: { t: 'tuple' } };
      }
      const inner = this.sum();
      if (this.peek() !== ')') throw syntaxError('invalid syntax', 1);
      this.at++;
      return inner;
    }
    throw syntaxError('invalid syntax', 1);
  }
}

type Node = { literal: Value } | { unary: '+' | '-'; operand: Node } | { op: string; left: Node; right: Node } | { call: Node; args: Node[] };

function evaluate(node: Node): Value {
  if ('literal' in node) return node.literal;
  if ('unary' in node) return unary(node.unary, evaluate(node.operand));
  if ('call' in node) {
    const callee = evaluate(node.call);
    node.args.forEach(evaluate);
    throw new PyError(`'${typeName(callee)}' object is not callable`);
  }
  return binary(node.op, evaluate(node.left), evaluate(node.right));
}

function typeName(v: Value): string {
  return v.t;
}

function unary(op: '+' | '-', v: Value): Value {
  if (v.t === 'int') return { t: 'int', v: op === '-' ? -v.v : v.v };
  if (v.t === 'float') return { t: 'float', v: op === '-' ? -v.v : v.v };
  if (v.t === 'complex') return v;
  throw new PyError(`bad operand type for unary ${op}: 'tuple'`);
}

function intToFloat(v: bigint): number {
  const x = Number(v);
  if (!Number.isFinite(x)) throw new PyError('int too large to convert to float');
  return x;
}

function asFloat(v: Value): number {
  return v.t === 'int' ? intToFloat(v.v) : (v as { v: number }).v;
}

function toFloat(v: Value): number {
  if (v.t === 'tuple' || v.t === 'complex') throw new PyError(`float() argument must be a string or a real number, not '${v.t}'`);
  return asFloat(v);
}

function binary(op: string, a: Value, b: Value): Value {
  if (a.t === 'tuple' || b.t === 'tuple') return tupleOp(op, a, b);
  if (a.t === 'complex' || b.t === 'complex') {
    if (op === '//') throw new PyError(`unsupported operand type(s) for //: '${a.t}' and '${b.t}'`);
    if (op === '/' && b.t !== 'complex' && asFloat(b) === 0) throw new PyError('complex division by zero');
    return { t: 'complex' };
  }
  if (a.t === 'int' && b.t === 'int') return intOp(op, a.v, b.v);
  return floatOp(op, asFloat(a), asFloat(b));
}

function tupleOp(op: string, a: Value, b: Value): Value {
  if (op === '+' && a.t === 'tuple' && b.t === 'tuple') return a;
  if (op === '*' && ((a.t === 'tuple' && b.t === 'int') || (a.t === 'int' && b.t === 'tuple'))) return { t: 'tuple' };
  if (op === '+' && a.t === 'tuple') throw new PyError(`can only concatenate tuple (not "${b.t}") to tuple`);
  if (op === '*' && (a.t === 'tuple' || b.t === 'tuple') && (a.t === 'float' || b.t === 'float')) throw new PyError("can't multiply sequence by non-int of type 'float'");
  const symbol = op === '**' ? '** or pow()' : op;
  throw new PyError(`unsupported operand type(s) for ${symbol}: '${a.t}' and '${b.t}'`);
}

const MAX_POW_BITS = 1_000_000;

function intOp(op: string, a: bigint, b: bigint): Value {
  switch (op) {
    case '+':
      return { t: 'int', v: a + b };
    case '-':
      return { t: 'int', v: a - b };
    case '*':
      return { t: 'int', v: a * b };
    case '/':
      if (b === 0n) throw new PyError('division by zero');
      return { t: 'float', v: intTrueDivide(a, b) };
    case '//': {
      if (b === 0n) throw new PyError('integer division or modulo by zero');
      const q = a / b;
      return { t: 'int', v: (a % b !== 0n && a < 0n !== b < 0n) ? q - 1n : q };
    }
    case '**': {
      if (b < 0n) return floatOp('**', intToFloat(a), intToFloat(b));
      const bits = a === 0n || a === 1n || a === -1n ? 0 : a.toString(2).length * Number(b);
      if (bits > MAX_POW_BITS) throw new PyError('the result is too large for this calculator');
      return { t: 'int', v: a ** b };
    }
  }
  throw syntaxError('invalid syntax', 1);
}

/** Python's int / int: the exact quotient rounded once to a double. */
function intTrueDivide(a: bigint, b: bigint): number {
  const limit = 2n ** 53n;
  const absA = a < 0n ? -a : a;
  const absB = b < 0n ? -b : b;
  if (absA <= limit && absB <= limit) return Number(a) / Number(b);
  // Scale so the quotient has 64+ bits, keep a sticky bit for the remainder, round once (Number of a BigInt rounds to nearest even).
  const shift = Math.max(0, 66 - (absA.toString(2).length - absB.toString(2).length));
  let q = (absA << BigInt(shift)) / absB;
  if ((absA << BigInt(shift)) % absB !== 0n) q |= 1n;
  let x = Number(q);
  for (let s = shift; s > 0; s -= Math.min(s, 1000)) x *= 2 ** -Math.min(s, 1000);
  if (!Number.isFinite(x)) throw new PyError('integer division result too large for a float');
  return a < 0n !== b < 0n ? -x : x;
}

function floatOp(op: string, a: number, b: number): Value {
  switch (op) {
    case '+':
      return { t: 'float', v: a + b };
    case '-':
      return { t: 'float', v: a - b };
    case '*':
      return { t: 'float', v: a * b };
    case '/':
      if (b === 0) throw new PyError('float division by zero');
      return { t: 'float', v: a / b };
    case '//':
      if (b === 0) throw new PyError('float floor division by zero');
      return { t: 'float', v: floatFloorDiv(a, b) };
    case '**':
      return floatPow(a, b);
  }
  throw syntaxError('invalid syntax', 1);
}

/** CPython's float floor division (float_floor_div via _float_div_mod). */
function floatFloorDiv(vx: number, wx: number): number {
  let mod = vx % wx;
  let div = (vx - mod) / wx;
  if (mod !== 0 && wx < 0 !== mod < 0) {
    mod += wx;
    div -= 1;
  }
  if (div !== 0) {
    let floordiv = Math.floor(div);
    if (div - floordiv > 0.5) floordiv += 1;
    return floordiv;
  }
  return Math.sign(vx / wx) < 0 || Object.is(vx / wx, -0) ? -0 : 0;
}

/** CPython's float_pow for finite operands. */
function floatPow(iv: number, iw: number): Value {
  if (iw === 0) return { t: 'float', v: 1 };
  if (iv === 1) return { t: 'float', v: 1 };
  if (iv === 0) {
    if (iw < 0) throw new PyError('0.0 cannot be raised to a negative power');
    return { t: 'float', v: Math.pow(iv, iw) };
  }
  if (iv < 0 && !Number.isInteger(iw)) return { t: 'complex' };
  const r = Math.pow(iv, iw);
  if (!Number.isFinite(r) && Number.isFinite(iv) && Number.isFinite(iw)) throw new PyError("(34, 'Numerical result out of range')");
  return { t: 'float', v: r };
}
