import { calculate } from '../src/calculate';

/** What the reference tool answers (CPython 3.11: `str(round(float(eval(e)), 2))`, or `Error: <message>`). */
const PYTHON: [string, string][] = [
  ['2 + 2', '4.0'],
  ['', 'Error: invalid syntax (<string>, line 0)'],
  [' ', 'Error: invalid syntax (<string>, line 0)'],
  ['1+', 'Error: invalid syntax (<string>, line 1)'],
  ['(1', "Error: '(' was never closed (<string>, line 1)"],
  ['1)', "Error: unmatched ')' (<string>, line 1)"],
  ['1 2', 'Error: invalid syntax (<string>, line 1)'],
  ['01', 'Error: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)'],
  ['00', '0.0'],
  ['2(3)', "Error: 'int' object is not callable"],
  ['()', "Error: float() argument must be a string or a real number, not 'tuple'"],
  ['1/0', 'Error: division by zero'],
  ['1.0/0', 'Error: float division by zero'],
  ['1//0', 'Error: integer division or modulo by zero'],
  ['1.0//0', 'Error: float floor division by zero'],
  ['2**-1', '0.5'],
  ['0**-1', 'Error: 0.0 cannot be raised to a negative power'],
  ['(-8)**0.5', "Error: float() argument must be a string or a real number, not 'complex'"],
  ['10**400', 'Error: int too large to convert to float'],
  ['10.0**400', "Error: (34, 'Numerical result out of range')"],
  ['1e5', 'Error: Invalid characters in expression'],
  ['1.2.3', 'Error: invalid syntax (<string>, line 1)'],
  ['-()', "Error: bad operand type for unary -: 'tuple'"],
  ['()+1', 'Error: can only concatenate tuple (not "int") to tuple'],
  ['1+()', "Error: unsupported operand type(s) for +: 'int' and 'tuple'"],
  ['2***3', 'Error: invalid syntax (<string>, line 1)'],
  ['2**3**2', '512.0'],
  ['-2**2', '-4.0'],
  ['7//-2', '-4.0'],
  ['-7.5//2', '-4.0'],
  ['0.1+0.2', '0.3'],
  ['10**16', '1e+16'],
  ['1/3', '0.33'],
  ['+-+1', '-1.0'],
  ['.5', '0.5'],
  ['5.', '5.0'],
  ['0.00001', '0.0'],
  ['-0.0', '-0.0'],
  ['-0', '0.0'],
  ['99999999999999999999/3', '3.333333333333333e+19'],
  ['10**309/1', 'Error: integer division result too large for a float'],
  ['1/10**400', '0.0'],
  ['(1.5 + 2.25) * 4 - 10 / 4', '12.5'],
  ['2.675 * 1', '2.67'],
];

describe('calculate, as the reference tool', () => {
  test.each(PYTHON)('%j', (expression, expected) => {
    let answer: string;
    try {
      answer = calculate(expression);
    } catch (error) {
      answer = `Error: ${(error as Error).message}`;
    }
    expect(answer).toBe(expected);
  });
});
