/**
 * Evaluates a formula tree. Python's meaning (truthiness, `and`/`or` returning an operand, chained
 * comparisons, banker's rounding) except that nothing raises: division by zero, a missing value
 * (None) in arithmetic or an ordering comparison, and results that are not finite give null.
 */
import type { Expression } from './formula-ast.js';

export type FormulaValue = number | boolean | null;

/** Value of a name (a dependency, or a column in row-condition expressions); undefined = missing. */
export type NameLookup = (name: string, kind: 'name' | 'column') => FormulaValue | undefined;

export function truthy(value: FormulaValue): boolean {
  return value !== null && value !== false && value !== 0;
}

/** A value as a number: booleans count 1 and 0 (as in Python); None and non-finite numbers are null. */
export function asNumber(value: FormulaValue): number | null {
  if (value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return Number.isFinite(value) ? value : null;
}

function finite(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}

/** Python's round(): by the exact binary value (round(2.675, 2) is 2.67); exact halves go to the even neighbour. */
export function roundHalfEven(value: number, digits = 0): number {
  if (!Number.isFinite(value) || Math.abs(value) >= 1e21) return value;
  if (digits < 0) {
    const factor = 10 ** -digits;
    return roundHalfEven(value / factor) * factor;
  }
  const exact = Math.abs(value).toFixed(Math.min(100, digits + 60));
  const tail = exact.slice(exact.length - (Math.min(100, digits + 60) - digits));
  if (!/^50*$/.test(tail)) return Number(value.toFixed(digits));
  const factor = 10 ** digits;
  const floor = Math.floor(value * factor);
  return (floor % 2 === 0 ? floor : floor + 1) / factor;
}

function arithmetic(op: string, left: number, right: number): number | null {
  switch (op) {
    case '+':
      return finite(left + right);
    case '-':
      return finite(left - right);
    case '*':
      return finite(left * right);
    case '/':
      return right === 0 ? null : finite(left / right);
    default:
      return left === 0 && right < 0 ? null : finite(left ** right);
  }
}

function compare(op: string, left: FormulaValue, right: FormulaValue): boolean | null {
  if (op === '==' || op === '!=') {
    const equal = left === null || right === null ? left === right : asNumber(left) === asNumber(right);
    return op === '==' ? equal : !equal;
  }
  const a = asNumber(left);
  const b = asNumber(right);
  if (a === null || b === null) return null;
  if (op === '<') return a < b;
  if (op === '<=') return a <= b;
  if (op === '>') return a > b;
  return a >= b;
}

export function evaluateFormula(node: Expression, lookup: NameLookup): FormulaValue {
  switch (node.type) {
    case 'number':
      return finite(node.value);
    case 'none':
      return null;
    case 'name':
      return lookup(node.name, 'name') ?? null;
    case 'column':
      return lookup(node.name, 'column') ?? null;
    case 'unary': {
      const operand = evaluateFormula(node.operand, lookup);
      if (node.op === 'not') return !truthy(operand);
      const number = asNumber(operand);
      return number === null ? null : node.op === '-' ? -number : number;
    }
    case 'binary': {
      const left = asNumber(evaluateFormula(node.left, lookup));
      const right = asNumber(evaluateFormula(node.right, lookup));
      return left === null || right === null ? null : arithmetic(node.op, left, right);
    }
    case 'logical': {
      const left = evaluateFormula(node.left, lookup);
      if (node.op === 'and') return truthy(left) ? evaluateFormula(node.right, lookup) : left;
      return truthy(left) ? left : evaluateFormula(node.right, lookup);
    }
    case 'compare': {
      let left = evaluateFormula(node.first, lookup);
      for (const part of node.rest) {
        const right = evaluateFormula(part.right, lookup);
        const outcome = compare(part.op, left, right);
        if (outcome !== true) return outcome;
        left = right;
      }
      return true;
    }
    case 'conditional':
      return truthy(evaluateFormula(node.test, lookup)) ? evaluateFormula(node.body, lookup) : evaluateFormula(node.orelse, lookup);
    case 'call': {
      const args = node.args.map((arg) => asNumber(evaluateFormula(arg, lookup)));
      if (args.some((arg) => arg === null)) return null;
      const numbers = args as number[];
      if (node.callee === 'abs') return Math.abs(numbers[0]!);
      if (node.callee === 'min') return Math.min(...numbers);
      if (node.callee === 'max') return Math.max(...numbers);
      const digits = numbers[1] ?? 0;
      if (!Number.isInteger(digits) || Math.abs(digits) > 15) return null;
      return finite(roundHalfEven(numbers[0]!, digits));
    }
  }
}
