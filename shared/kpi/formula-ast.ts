/**
 * The syntax tree of a KPI formula (and of the expressions in row conditions). Python-style, as in
 * the product's published KPI examples; see `formula-parser.ts` for the grammar.
 */

export const FUNCTIONS = ['abs', 'min', 'max', 'round'] as const;
export type FunctionName = (typeof FUNCTIONS)[number];

/** Words of the grammar that can never be a dependency name. */
export const KEYWORDS = ['and', 'or', 'not', 'if', 'else', 'None'] as const;

export type ArithmeticOperator = '+' | '-' | '*' | '/' | '**';
export type ComparisonOperator = '<' | '<=' | '>' | '>=' | '==' | '!=';

export type Expression =
  /** `raw` is the literal as written (printed back verbatim); `value` is what it means. */
  | { type: 'number'; raw: string; value: number }
  | { type: 'none' }
  /** A dependency name in a formula; a raw field (column) name in a row-condition expression. */
  | { type: 'name'; name: string }
  /** `column['raw name']` or `_column['raw name']`: only in row-condition expressions. */
  | { type: 'column'; name: string }
  | { type: 'unary'; op: '-' | '+' | 'not'; operand: Expression }
  | { type: 'binary'; op: ArithmeticOperator; left: Expression; right: Expression }
  | { type: 'logical'; op: 'and' | 'or'; left: Expression; right: Expression }
  /** Python chains comparisons: `a < b <= c` is `a < b and b <= c`. */
  | { type: 'compare'; first: Expression; rest: { op: ComparisonOperator; right: Expression }[] }
  | { type: 'conditional'; body: Expression; test: Expression; orelse: Expression }
  | { type: 'call'; callee: FunctionName; args: Expression[] };

/** A name used in the expression, with its zero-based offset (for messages). */
export interface NameReference {
  name: string;
  offset: number;
}
