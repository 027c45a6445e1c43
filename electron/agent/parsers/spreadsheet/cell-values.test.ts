import { describe, expect, it } from 'vitest';
import { cellValue, columnNames } from './cell-values.js';

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

describe('columnNames', () => {
  it('trims names, names empty ones and numbers repeats', () => {
    expect(columnNames([' time ', 'value', 'value', '', 'value'])).toEqual(['time', 'value', 'value_2', 'Unnamed: 3', 'value_3']);
  });

  it('never produces a name that another header cell already has', () => {
    expect(columnNames(['a', 'a', 'a_2'])).toEqual(['a', 'a_3', 'a_2']);
  });
});
