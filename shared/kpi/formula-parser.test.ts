import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FUNCTIONS, KEYWORDS, type Expression } from './formula-ast.js';
import { evaluateFormula, roundHalfEven, type FormulaValue } from './formula-evaluate.js';
import { describeFormulaError, parseFormula } from './formula-parser.js';
import { printFormula } from './formula-printer.js';

const parse = (text: string) => {
  const result = parseFormula(text);
  if (!result.ok) throw new Error(describeFormulaError(result.error));
  return result.expression;
};
const evaluate = (text: string, values: Record<string, FormulaValue> = {}) => evaluateFormula(parse(text), (name) => values[name]);
const errorOf = (text: string) => {
  const result = parseFormula(text);
  return result.ok ? undefined : result.error;
};

describe('parseFormula: the published KPI formulas', () => {
  it.each([
    '(up_time/all_time)*100',
    '( IdealCycle / Recorded_time ) * 100 if ( Recorded_time > 0 ) else None',
    '(prod/target)*100',
    'MTBF',
    '((Duration_Rejects/Record_Duration)*100) if (Record_Duration > 0) else None',
    '(good/(good+reject)) * (speed/max_speed) * (availability/denominator) * 100 if (good+reject) > 0 and max_speed > 0 and denominator > 0 else None',
    'round(abs(a - b), 2) + min(a, b, 3) - max(a, b) ** 2',
    'not a or b and c',
    '1 < a <= 10 != b',
    '-a ** -2',
    '1e3 + .5 + 2. + 1E-2',
  ])('reads %s', (text) => {
    expect(parseFormula(text).ok).toBe(true);
  });

  it('lists the names it uses with their offsets', () => {
    const result = parseFormula('up_time / all_time * 100');
    expect(result.ok && result.names).toEqual([
      { name: 'up_time', offset: 0 },
      { name: 'all_time', offset: 10 },
    ]);
  });

  it('follows Python precedence', () => {
    expect(evaluate('2 + 3 * 4')).toBe(14);
    expect(evaluate('-2 ** 2')).toBe(-4);
    expect(evaluate('2 ** 3 ** 2')).toBe(512);
    expect(evaluate('2 ** -1')).toBe(0.5);
    expect(evaluate('10 - 4 - 3')).toBe(3);
    expect(evaluate('1 if 0 else 2 if 1 else 3')).toBe(2);
    expect(evaluate('not 1 == 2')).toBe(true);
    expect(evaluate('1 < 2 < 3')).toBe(true);
    expect(evaluate('3 > 2 > 2')).toBe(false);
  });
});

describe('parseFormula: what it refuses, with the position', () => {
  it.each([
    ['a +', 3, /ends where a value is expected/],
    ['(a + b', 6, /expected "\)" to close the "\(" at position 1/],
    ['a % b', 2, /operator "%" is not supported/],
    ['a // b', 2, /operator "\/\/" is not supported/],
    ['a = b', 2, /compare with "=="/],
    ['a && b', 2, /use "and"/],
    ['sqrt(a)', 0, /not a function/],
    ['abs', 0, /call it as abs/],
    ['abs(a, b)', 0, /exactly 1 argument/],
    ['min(a)', 0, /at least 2 arguments/],
    ['round(a, 1, 2)', 0, /1 or 2 arguments/],
    ['a if b', 6, /expected "else"/],
    ['a is None', 2, /"is" is not part of the formula language/],
    ["a + 'x'", 4, /text in quotes/],
    ['a[0]', 1, /"\[" is not allowed/],
    ['', 0, /empty/],
    ['2a', 0, /run into letters/],
    ['a $ b', 2, /unexpected character "\$"/],
  ])('%s', (text, offset, message) => {
    const error = errorOf(text);
    expect(error?.offset).toBe(offset);
    expect(error?.message).toMatch(message);
  });

  it('says the position one-based in words', () => {
    expect(describeFormulaError({ message: 'unexpected "%"', offset: 2 })).toBe('unexpected "%" at position 3');
  });

  it('bounds nesting instead of overflowing the stack', () => {
    expect(errorOf('('.repeat(5000) + 'a' + ')'.repeat(5000))?.message).toMatch(/nested too deeply|too long|longer/);
    expect(errorOf('-'.repeat(500) + 'a')?.message).toMatch(/nested too deeply/);
    expect(errorOf(Array.from({ length: 2000 }, () => 'a').join('+'))?.message).toMatch(/too long/);
  });
});

describe('evaluateFormula: null instead of exceptions', () => {
  it('gives null for division by zero and for missing values', () => {
    expect(evaluate('a / b', { a: 1, b: 0 })).toBeNull();
    expect(evaluate('a / b * 100', { a: 1 })).toBeNull();
    expect(evaluate('a + None')).toBeNull();
    expect(evaluate('0 ** -1')).toBeNull();
    expect(evaluate('(-8) ** 0.5')).toBeNull();
    expect(evaluate('abs(a)', {})).toBeNull();
  });

  it('guards a division the published way', () => {
    const oee = '(a / b) * 100 if b > 0 else None';
    expect(evaluate(oee, { a: 30, b: 60 })).toBe(50);
    expect(evaluate(oee, { a: 30, b: 0 })).toBeNull();
    expect(evaluate(oee, { a: 30, b: null })).toBeNull();
  });

  it('keeps Python meanings of and/or, None comparisons and round', () => {
    expect(evaluate('a and b', { a: 0, b: 5 })).toBe(0);
    expect(evaluate('a or b', { a: 0, b: 5 })).toBe(5);
    expect(evaluate('a == None', { a: null })).toBe(true);
    expect(evaluate('a != None', { a: 1 })).toBe(true);
    expect(evaluate('round(2.5)')).toBe(2);
    expect(evaluate('round(3.5)')).toBe(4);
    expect(evaluate('round(2.675, 2)')).toBe(2.67);
    expect(evaluate('min(3, a, 1)', { a: 2 })).toBe(1);
    expect(roundHalfEven(-2.5)).toBe(-2);
  });
});

// ------------------------------------------------------------------ properties

const reserved = new Set<string>([...KEYWORDS, ...FUNCTIONS, 'column', '_column']);
const nameArb = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,6}$/).filter((name) => !reserved.has(name));
const numberArb = fc.oneof(fc.stringMatching(/^\d{1,5}$/), fc.stringMatching(/^\d{1,3}\.\d{0,3}$/), fc.stringMatching(/^\d[eE][+-]?\d$/)).map((raw): Expression => ({ type: 'number', raw, value: Number(raw) }));

const expressionArb: fc.Arbitrary<Expression> = fc.letrec<{ node: Expression }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    numberArb,
    nameArb.map((name): Expression => ({ type: 'name', name })),
    fc.constant<Expression>({ type: 'none' }),
    fc.record({ type: fc.constant('unary' as const), op: fc.constantFrom('-' as const, '+' as const, 'not' as const), operand: tie('node') }),
    fc.record({ type: fc.constant('binary' as const), op: fc.constantFrom('+' as const, '-' as const, '*' as const, '/' as const, '**' as const), left: tie('node'), right: tie('node') }),
    fc.record({ type: fc.constant('logical' as const), op: fc.constantFrom('and' as const, 'or' as const), left: tie('node'), right: tie('node') }),
    fc.record({
      type: fc.constant('compare' as const),
      first: tie('node'),
      rest: fc.array(fc.record({ op: fc.constantFrom('<' as const, '<=' as const, '>' as const, '>=' as const, '==' as const, '!=' as const), right: tie('node') }), { minLength: 1, maxLength: 3 }),
    }),
    fc.record({ type: fc.constant('conditional' as const), body: tie('node'), test: tie('node'), orelse: tie('node') }),
    fc.oneof(
      fc.record({ type: fc.constant('call' as const), callee: fc.constant('abs' as const), args: fc.tuple(tie('node')).map((a) => [...a]) }),
      fc.record({ type: fc.constant('call' as const), callee: fc.constant('round' as const), args: fc.array(tie('node'), { minLength: 1, maxLength: 2 }) }),
      fc.record({ type: fc.constant('call' as const), callee: fc.constantFrom('min' as const, 'max' as const), args: fc.array(tie('node'), { minLength: 2, maxLength: 4 }) }),
    ),
  ),
})).node;

const formulaAlphabet = fc.constantFrom(...'ab_1209.eE +-*/()<>=!,[]\'"%&|if else and or not None abs min max round column'.split(''), ' if ', ' else ', ' and ', ' or ', 'not ', 'None', 'abs(', 'min(', 'round(', '**', '==', "column['x y']");

describe('formula parser properties', () => {
  it('prints any tree so that it parses back to the same tree', () => {
    fc.assert(
      fc.property(expressionArb, (tree) => {
        const printed = printFormula(tree);
        const reparsed = parseFormula(printed);
        expect(reparsed.ok, printed).toBe(true);
        if (reparsed.ok) expect(reparsed.expression).toEqual(tree);
      }),
      { numRuns: 400 },
    );
  });

  it('never crashes or hangs on any text, and what it reads round-trips through the printer', () => {
    const texts = fc.oneof(fc.string({ maxLength: 60 }), fc.array(formulaAlphabet, { maxLength: 40 }).map((parts) => parts.join('')));
    fc.assert(
      fc.property(texts, (text) => {
        const first = parseFormula(text);
        if (!first.ok) {
          expect(first.error.offset).toBeGreaterThanOrEqual(0);
          expect(first.error.offset).toBeLessThanOrEqual(text.length);
          return;
        }
        const again = parseFormula(printFormula(first.expression));
        expect(again.ok).toBe(true);
        if (again.ok) expect(again.expression).toEqual(first.expression);
        // Evaluation never throws either, whatever the values.
        evaluateFormula(first.expression, () => 0);
        evaluateFormula(first.expression, () => null);
      }),
      { numRuns: 1500 },
    );
  });

  it('row-condition expressions round-trip with column references', () => {
    const parsed = parseFormula("column['Cycle Time'] * 2 + _column[\"it's\"] + speed", { columns: true });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(printFormula(parsed.expression)).toBe("column['Cycle Time'] * 2 + column['it\\'s'] + speed");
    expect(parseFormula(printFormula(parsed.expression), { columns: true })).toMatchObject({ ok: true, expression: parsed.expression });
    expect(parsed.names.map((n) => n.name)).toEqual(['Cycle Time', "it's", 'speed']);
  });
});
