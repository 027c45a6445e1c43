import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FieldValue } from '../../../../shared/records/record.js';
import { cellValue, cellValueAt, cellValueByRules, columnNames } from './cell-values.js';

/** The implementation before the fast path, verbatim: the reference cellValue must equal. */
function referenceCellValue(text: string): FieldValue {
  if (text === '') return null;
  const trimmed = text.trim();
  if (trimmed === 'true' || trimmed === 'True' || trimmed === 'TRUE') return true;
  if (trimmed === 'false' || trimmed === 'False' || trimmed === 'FALSE') return false;
  if (!/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(trimmed) || /^[+-]?0\d/.test(trimmed)) return text;
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return text;
  if (/^[+-]?\d+$/.test(trimmed) && !Number.isSafeInteger(value)) return text;
  return value === 0 ? 0 : value;
}

describe('cellValue', () => {
  it.each([
    ['42', 42],
    ['-42', -42],
    ['+7', 7],
    ['3.25', 3.25],
    ['-0.5', -0.5],
    ['.5', 0.5],
    ['5.', 5],
    ['1e3', 1000],
    ['-2.5E-3', -0.0025],
    ['0', 0],
    ['-0', 0],
    ['0.75', 0.75],
    [' 12 ', 12],
    ['', null],
    ['true', true],
    ['True', true],
    ['TRUE', true],
    ['false', false],
    ['False', false],
    ['007', '007'],
    ['-007', '-007'],
    ['00.5', '00.5'],
    ['12345678901234567890', '12345678901234567890'],
    ['1e999', '1e999'],
    ['1,5', '1,5'],
    ['0x1F', '0x1F'],
    ['NaN', 'NaN'],
    ['yes', 'yes'],
    ['  ', '  '],
    ['12 kg', '12 kg'],
  ])('%j → %j', (text, value) => {
    expect(cellValue(text)).toBe(value);
  });
});

describe('cellValue against the regular-expression reference', () => {
  const digits = (maxLength: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength });
  // Number-shaped text: sign, digits, point, digits, exponent, surrounding space, in every mix.
  const numberLike = fc
    .tuple(
      fc.constantFrom('', '', '+', '-', '--', '+-'),
      fc.oneof(digits(3), digits(18), fc.constantFrom('0', '00', '007', '9007199254740993', '9007199254740992', '123456789012345', '1234567890123456')),
      fc.constantFrom('', '', '.', '..', ','),
      fc.oneof(digits(3), digits(18)),
      fc.constantFrom('', '', '', 'e5', 'E-3', 'e+308', 'e309', 'e-400', 'e', 'e+', 'x', ' kg', '_1'),
      fc.constantFrom('', '', '', ' ', '\t', '\u00a0', '\ufeff', '\n'),
      fc.constantFrom('', '', '', ' ', '\t', '\u3000', '\r'),
    )
    .map(([sign, integer, point, fraction, exponent, before, after]) => `${before}${sign}${integer}${point}${fraction}${exponent}${after}`);
  const wordLike = fc.oneof(
    fc.constantFrom('true', 'True', 'TRUE', 'tRUE', 'false', 'False', 'FALSE', 'fALSE', 't', 'F', ' true', 'false ', 'NaN', 'Infinity', '-Infinity', '0x1F', '1_000', 'ok', 'P1', 'Müller', '', ' '),
    fc.string({ maxLength: 8 }),
    fc.string({ unit: fc.constantFrom(...'0123456789+-.eE tTrRuUfFaAlLsS\u00a0'), maxLength: 10 }),
  );
  const doubles = fc.double({ noNaN: false }).map(String);

  it('gives the same value (Object.is) for any text', () => {
    fc.assert(
      fc.property(fc.oneof(numberLike, wordLike, doubles), (text) => {
        const expected = referenceCellValue(text);
        expect(cellValue(text)).toBe(expected);
        expect(cellValueByRules(text)).toBe(expected);
      }),
      { numRuns: 50_000 },
    );
  });

  it('reads a cell in place within a line like the cell on its own', () => {
    const around = fc.string({ unit: fc.constantFrom('1', '.', ',', ' ', 'e', '-', 'x', '0'), maxLength: 4 });
    fc.assert(
      fc.property(around, fc.oneof(numberLike, wordLike, doubles), around, (before, text, after) => {
        expect(cellValueAt(`${before}${text}${after}`, before.length, before.length + text.length)).toBe(referenceCellValue(text));
      }),
      { numRuns: 20_000 },
    );
  });
});

describe('columnNames', () => {
  it('trims names, names empty ones and numbers repeats', () => {
    expect(columnNames([' time ', 'value', 'value', '', 'value'])).toEqual(['time', 'value', 'value_2', 'Unnamed: 3', 'value_3']);
  });

  it('never produces a name that another header cell already has', () => {
    expect(columnNames(['a', 'a', 'a_2'])).toEqual(['a', 'a_3', 'a_2']);
  });
});
