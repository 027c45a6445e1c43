/**
 * Prints a formula tree back as text with the fewest parentheses that keep its meaning:
 * `parseFormula(printFormula(tree))` gives the same tree.
 */
import type { Expression } from './formula-ast.js';

// Binding strength, loosest first (Python's table).
const CONDITIONAL = 0;
const OR = 1;
const AND = 2;
const NOT = 3;
const COMPARE = 4;
const ADDITIVE = 5;
const MULTIPLICATIVE = 6;
const UNARY = 7;
const POWER = 8;
const ATOM = 9;

function strength(node: Expression): number {
  switch (node.type) {
    case 'conditional':
      return CONDITIONAL;
    case 'logical':
      return node.op === 'or' ? OR : AND;
    case 'unary':
      return node.op === 'not' ? NOT : UNARY;
    case 'compare':
      return COMPARE;
    case 'binary':
      return node.op === '**' ? POWER : node.op === '+' || node.op === '-' ? ADDITIVE : MULTIPLICATIVE;
    default:
      return ATOM;
  }
}

/** `node` printed where the grammar needs at least `minimum` binding strength. */
function at(node: Expression, minimum: number): string {
  const text = printFormula(node);
  return strength(node) < minimum ? `(${text})` : text;
}

function quote(name: string): string {
  return `'${name.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

export function printFormula(node: Expression): string {
  switch (node.type) {
    case 'number':
      return node.raw;
    case 'none':
      return 'None';
    case 'name':
      return node.name;
    case 'column':
      return `column[${quote(node.name)}]`;
    case 'unary':
      return node.op === 'not' ? `not ${at(node.operand, NOT)}` : `${node.op}${at(node.operand, UNARY)}`;
    case 'binary': {
      if (node.op === '**') return `${at(node.left, ATOM)} ** ${at(node.right, UNARY)}`;
      const own = strength(node);
      return `${at(node.left, own)} ${node.op} ${at(node.right, own + 1)}`;
    }
    case 'logical': {
      const own = strength(node);
      return `${at(node.left, own)} ${node.op} ${at(node.right, own + 1)}`;
    }
    case 'compare':
      return [at(node.first, ADDITIVE), ...node.rest.map((part) => `${part.op} ${at(part.right, ADDITIVE)}`)].join(' ');
    case 'conditional':
      return `${at(node.body, OR)} if ${at(node.test, OR)} else ${at(node.orelse, CONDITIONAL)}`;
    case 'call':
      return `${node.callee}(${node.args.map((arg) => at(arg, CONDITIONAL)).join(', ')})`;
  }
}
