/**
 * Hand-written recursive-descent parser for KPI formulas (never eval): Python's expression grammar,
 * cut down to what decisions.md allows. Lowest precedence first:
 *
 *   conditional := or_expr ['if' or_expr 'else' conditional]
 *   or_expr     := and_expr ('or' and_expr)*
 *   and_expr    := not_expr ('and' not_expr)*
 *   not_expr    := 'not' not_expr | comparison
 *   comparison  := arith (('<'|'<='|'>'|'>='|'=='|'!=') arith)*
 *   arith       := term (('+'|'-') term)*
 *   term        := factor (('*'|'/') factor)*
 *   factor      := ('+'|'-') factor | power
 *   power       := atom ['**' factor]
 *   atom        := number | 'None' | name | function '(' args ')' | '(' conditional ')'
 *                  | ('column'|'_column') '[' text ']'            (row-condition expressions only)
 *
 * Functions: abs(x), min(a, b, …), max(a, b, …), round(x[, digits]). Anything else is an error with
 * its position. Never throws, whatever the input; nesting is bounded so that no input overflows the stack.
 */
import { FUNCTIONS, type ComparisonOperator, type Expression, type FunctionName, type NameReference } from './formula-ast.js';

export interface ParseOptions {
  /** Row-condition expressions: names are raw field names and `column['…']` is allowed. */
  columns?: boolean;
}

export interface FormulaError {
  message: string;
  /** Zero-based offset into the text. */
  offset: number;
}

export type ParseResult =
  | { ok: true; expression: Expression; names: NameReference[] }
  | { ok: false; error: FormulaError };

const MAX_DEPTH = 100;
const MAX_LENGTH = 10_000;
/** Bounds the depth of left-leaning chains (a + b + c …), so that printing and evaluating never overflow the stack. */
const MAX_TOKENS = 1_000;

type TokenKind = 'number' | 'name' | 'op' | 'text' | 'end';
interface Token {
  kind: TokenKind;
  text: string;
  offset: number;
  /** The decoded value of a text token. */
  value?: string;
}

class SyntaxProblem extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const OPERATORS = ['**', '<=', '>=', '==', '!=', '+', '-', '*', '/', '<', '>', '(', ')', ',', '[', ']'];
const NUMBER = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

function describeToken(token: Token): string {
  if (token.kind === 'end') return 'the end of the formula';
  return `"${token.text}"`;
}

function tokenize(text: string, options: ParseOptions): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
      i += 1;
      continue;
    }
    const rest = text.slice(i, i + 400);
    const number = NUMBER.exec(rest);
    if (number) {
      const after = rest[number[0].length];
      if (after !== undefined && /[A-Za-z_]/.test(after) && !/^[eE]/.test(after)) throw new SyntaxProblem(`a number may not run into letters ("${number[0]}${after}…")`, i);
      tokens.push({ kind: 'number', text: number[0], offset: i });
      i += number[0].length;
      continue;
    }
    const name = NAME.exec(rest);
    if (name) {
      tokens.push({ kind: 'name', text: name[0], offset: i });
      i += name[0].length;
      continue;
    }
    if (options.columns && (ch === "'" || ch === '"')) {
      const { value, end } = readText(text, i);
      tokens.push({ kind: 'text', text: text.slice(i, end), offset: i, value });
      i = end;
      continue;
    }
    if (text.startsWith('//', i)) throw new SyntaxProblem('the operator "//" is not supported; use + - * / **', i);
    const op = OPERATORS.find((candidate) => text.startsWith(candidate, i));
    if (op) {
      tokens.push({ kind: 'op', text: op, offset: i });
      i += op.length;
      continue;
    }
    if (ch === '=') throw new SyntaxProblem('"=" is not allowed; compare with "=="', i);
    if (ch === '%') throw new SyntaxProblem('the operator "%" is not supported; use + - * / **', i);
    if (ch === '&' || ch === '|') throw new SyntaxProblem(`"${ch}" is not supported; use "${ch === '&' ? 'and' : 'or'}"`, i);
    if (ch === '!') throw new SyntaxProblem('"!" is not supported; use "not" or "!="', i);
    if (ch === "'" || ch === '"') throw new SyntaxProblem('text in quotes is not allowed in a formula; use dependency names and numbers', i);
    throw new SyntaxProblem(`unexpected character "${ch}"`, i);
  }
  if (tokens.length > MAX_TOKENS) throw new SyntaxProblem(`the formula is too long (more than ${MAX_TOKENS} numbers, names and operators)`, tokens[MAX_TOKENS]!.offset);
  tokens.push({ kind: 'end', text: '', offset: text.length });
  return tokens;
}

function readText(text: string, start: number): { value: string; end: number } {
  const quote = text[start]!;
  let value = '';
  for (let i = start + 1; i < text.length; i += 1) {
    const ch = text[i]!;
    if (ch === '\\' && i + 1 < text.length) {
      value += text[i + 1];
      i += 1;
    } else if (ch === quote) {
      return { value, end: i + 1 };
    } else {
      value += ch;
    }
  }
  throw new SyntaxProblem(`the text starting here is not closed with ${quote}`, start);
}

class Parser {
  private position = 0;
  private depth = 0;
  readonly names: NameReference[] = [];

  constructor(
    private readonly tokens: Token[],
    private readonly options: ParseOptions,
  ) {}

  private get current(): Token {
    return this.tokens[this.position]!;
  }

  private atEnd(): boolean {
    return this.current.kind === 'end';
  }

  private isOp(text: string): boolean {
    return this.current.kind === 'op' && this.current.text === text;
  }

  private isWord(word: string): boolean {
    return this.current.kind === 'name' && this.current.text === word;
  }

  private advance(): Token {
    const token = this.current;
    if (token.kind !== 'end') this.position += 1;
    return token;
  }

  private expectOp(text: string, context: string): void {
    if (!this.isOp(text)) throw new SyntaxProblem(`expected "${text}" ${context}, found ${describeToken(this.current)}`, this.current.offset);
    this.advance();
  }

  parseAll(): Expression {
    if (this.current.kind === 'end') throw new SyntaxProblem('the formula is empty', 0);
    const expression = this.conditional();
    if (!this.atEnd()) {
      const token = this.current;
      const hint = token.kind === 'name' && ['is', 'in', 'lambda', 'for', 'True', 'False'].includes(token.text) ? ` ("${token.text}" is not part of the formula language)` : '';
      throw new SyntaxProblem(`unexpected ${describeToken(token)}${hint}`, token.offset);
    }
    return expression;
  }

  private nested<T>(offset: number, parse: () => T): T {
    this.depth += 1;
    if (this.depth > MAX_DEPTH) throw new SyntaxProblem(`the formula is nested too deeply (more than ${MAX_DEPTH} levels)`, offset);
    try {
      return parse();
    } finally {
      this.depth -= 1;
    }
  }

  private conditional(): Expression {
    return this.nested(this.current.offset, () => {
      const body = this.or();
      if (!this.isWord('if')) return body;
      this.advance();
      const test = this.or();
      if (!this.isWord('else')) throw new SyntaxProblem(`expected "else" after the condition of "if", found ${describeToken(this.current)}`, this.current.offset);
      this.advance();
      return { type: 'conditional', body, test, orelse: this.conditional() };
    });
  }

  private or(): Expression {
    let left = this.and();
    while (this.isWord('or')) {
      this.advance();
      left = { type: 'logical', op: 'or', left, right: this.and() };
    }
    return left;
  }

  private and(): Expression {
    let left = this.not();
    while (this.isWord('and')) {
      this.advance();
      left = { type: 'logical', op: 'and', left, right: this.not() };
    }
    return left;
  }

  private not(): Expression {
    if (!this.isWord('not')) return this.comparison();
    const offset = this.advance().offset;
    return this.nested(offset, () => ({ type: 'unary', op: 'not', operand: this.not() }));
  }

  private comparison(): Expression {
    const first = this.arith();
    const rest: { op: ComparisonOperator; right: Expression }[] = [];
    while (this.current.kind === 'op' && ['<', '<=', '>', '>=', '==', '!='].includes(this.current.text)) {
      const op = this.advance().text as ComparisonOperator;
      rest.push({ op, right: this.arith() });
    }
    return rest.length === 0 ? first : { type: 'compare', first, rest };
  }

  private arith(): Expression {
    let left = this.term();
    while (this.isOp('+') || this.isOp('-')) {
      const op = this.advance().text as '+' | '-';
      left = { type: 'binary', op, left, right: this.term() };
    }
    return left;
  }

  private term(): Expression {
    let left = this.factor();
    while (this.isOp('*') || this.isOp('/')) {
      const op = this.advance().text as '*' | '/';
      left = { type: 'binary', op, left, right: this.factor() };
    }
    return left;
  }

  private factor(): Expression {
    if (this.isOp('-') || this.isOp('+')) {
      const token = this.advance();
      return this.nested(token.offset, () => ({ type: 'unary', op: token.text as '-' | '+', operand: this.factor() }));
    }
    return this.power();
  }

  private power(): Expression {
    const base = this.atom();
    if (!this.isOp('**')) return base;
    const offset = this.advance().offset;
    return this.nested(offset, () => ({ type: 'binary', op: '**', left: base, right: this.factor() }));
  }

  private atom(): Expression {
    const token = this.current;
    if (token.kind === 'number') {
      this.advance();
      return { type: 'number', raw: token.text, value: Number(token.text) };
    }
    if (token.kind === 'op' && token.text === '(') {
      this.advance();
      const inner = this.nested(token.offset, () => this.conditional());
      this.expectOp(')', `to close the "(" at position ${token.offset + 1}`);
      return inner;
    }
    if (token.kind === 'name') return this.named(token);
    if (token.kind === 'end') throw new SyntaxProblem('the formula ends where a value is expected', token.offset);
    if (token.kind === 'text') throw new SyntaxProblem('text in quotes is only allowed inside column[…]', token.offset);
    throw new SyntaxProblem(`expected a number, a name or "(", found ${describeToken(token)}`, token.offset);
  }

  private named(token: Token): Expression {
    const word = token.text;
    if (word === 'None') {
      this.advance();
      return { type: 'none' };
    }
    if (['and', 'or', 'not', 'if', 'else'].includes(word)) throw new SyntaxProblem(`"${word}" cannot stand here; a value is expected`, token.offset);
    if (this.options.columns && (word === 'column' || word === '_column') && this.tokens[this.position + 1]?.text === '[') {
      this.advance();
      this.advance();
      const name = this.current;
      if (name.kind !== 'text') throw new SyntaxProblem(`expected a raw field name in quotes after "${word}[", found ${describeToken(name)}`, name.offset);
      this.advance();
      this.expectOp(']', `to close "${word}["`);
      this.names.push({ name: name.value!, offset: name.offset });
      return { type: 'column', name: name.value! };
    }
    this.advance();
    if ((FUNCTIONS as readonly string[]).includes(word)) return this.call(word as FunctionName, token);
    if (this.isOp('(')) throw new SyntaxProblem(`"${word}" is not a function of the formula language; use abs, min, max or round`, token.offset);
    if (this.isOp('[')) throw new SyntaxProblem(this.options.columns ? `only column['…'] and _column['…'] may use "["` : '"[" is not allowed in a formula', this.current.offset);
    this.names.push({ name: word, offset: token.offset });
    return { type: 'name', name: word };
  }

  private call(callee: FunctionName, token: Token): Expression {
    if (!this.isOp('(')) throw new SyntaxProblem(`"${callee}" is a function; call it as ${callee}(…)`, token.offset);
    this.advance();
    const args: Expression[] = [];
    if (!this.isOp(')')) {
      for (;;) {
        args.push(this.nested(this.current.offset, () => this.conditional()));
        if (!this.isOp(',')) break;
        this.advance();
      }
    }
    this.expectOp(')', `to close the call of ${callee}`);
    const arity = callee === 'abs' ? args.length === 1 : callee === 'round' ? args.length === 1 || args.length === 2 : args.length >= 2;
    if (!arity) {
      const wanted = callee === 'abs' ? 'exactly 1 argument' : callee === 'round' ? '1 or 2 arguments (value, digits)' : 'at least 2 arguments';
      throw new SyntaxProblem(`${callee} takes ${wanted}, but has ${args.length}`, token.offset);
    }
    return { type: 'call', callee, args };
  }
}

/** Parses a formula (or, with `columns`, a row-condition expression). Never throws. */
export function parseFormula(text: string, options: ParseOptions = {}): ParseResult {
  if (text.length > MAX_LENGTH) return { ok: false, error: { message: `the formula is longer than ${MAX_LENGTH} characters`, offset: MAX_LENGTH } };
  try {
    const parser = new Parser(tokenize(text, options), options);
    const expression = parser.parseAll();
    return { ok: true, expression, names: parser.names };
  } catch (cause) {
    if (cause instanceof SyntaxProblem) return { ok: false, error: { message: cause.message, offset: cause.offset } };
    return { ok: false, error: { message: `the formula cannot be read (${(cause as Error)?.message ?? String(cause)})`, offset: 0 } };
  }
}

/** "…: <message> at position N" with a one-based position, as the violations say it. */
export function describeFormulaError(error: FormulaError): string {
  return `${error.message} at position ${error.offset + 1}`;
}
