import { describe, expect, it } from 'vitest';
import { prepareStatement } from './sql-driver.js';
import { decimalValue, fieldValueOf, initialStateValue, parseDateTimeText, stateValueOf } from './sql-values.js';

const id = [{ column_name: 'id', data_type: 'integer' as const }];

describe('prepareStatement', () => {
  it('numbers PostgreSQL placeholders once per name and leaves strings, comments, casts and dollar quotes alone', () => {
    const s = prepareStatement("SELECT ':id', $$ :id $$, id::text /* :id */ FROM t WHERE id > :id AND id < :id + 10 -- :id\nORDER BY id;  ", 'postgresql', id);
    expect(s.text).toBe("SELECT ':id', $$ :id $$, id::text /* :id */ FROM t WHERE id > $1 AND id < $1 + 10 -- :id\nORDER BY id");
    expect(s.order).toEqual(['id']);
  });

  it('gives MySQL one ? per occurrence, integers cast on the server', () => {
    const s = prepareStatement("SELECT * FROM `t:id` WHERE name > :name AND id > :id AND note <> 'it\\'s :id' OR id = :id # :id", 'mysql', [...id, { column_name: 'name', data_type: 'string' }]);
    expect(s.text).toBe("SELECT * FROM `t:id` WHERE name > ? AND id > CAST(? AS SIGNED) AND note <> 'it\\'s :id' OR id = CAST(? AS SIGNED)"); // a trailing comment goes with the trailing blanks
    expect(s.order).toEqual(['name', 'id', 'id']);
  });
});

describe('values', () => {
  it('keeps exact numbers exact: numbers when nothing is lost, text otherwise', () => {
    expect(decimalValue('12.5000')).toBe(12.5);
    expect(decimalValue('-0.000')).toBe(0);
    expect(decimalValue('007')).toBe(7);
    expect(decimalValue('9007199254740993')).toBe('9007199254740993');
    expect(decimalValue('0.12345678901234567890')).toBe('0.12345678901234567890');
    expect(decimalValue('NaN')).toBe('NaN');
  });

  it('reads date-time text with and without offset; state values round-trip as text', () => {
    expect(parseDateTimeText('2026-01-05 06:00:00.123456+00')).toEqual({ kind: 'datetime', wall: '2026-01-05 06:00:00.123456', offset: '+00:00' });
    expect(parseDateTimeText('2026-01-05T06:00Z')).toEqual({ kind: 'datetime', wall: '2026-01-05 06:00:00', offset: '+00:00' });
    expect(parseDateTimeText('infinity')).toBeUndefined();
    expect(stateValueOf('datetime', { kind: 'datetime', wall: '2026-01-05 06:00:00.1234567' })).toBe('2026-01-05 06:00:00.1234567');
    expect(stateValueOf('integer', null)).toBeUndefined();
    expect(stateValueOf('integer', '9223372036854775807')).toBe('9223372036854775807');
    expect(initialStateValue({ column_name: 'ts', data_type: 'datetime' })).toBe('1900-01-01 00:00:00');
    expect(initialStateValue({ column_name: 'ts', data_type: 'datetime', initial_value: '2026-01-01T00:00:00+01:00' })).toBe('2026-01-01 00:00:00+01:00');
    expect(initialStateValue({ column_name: 'id', data_type: 'integer' })).toBe('0');
  });

  it('turns date-times into UTC: naive ones in the connection zone (DST overlap: first occurrence), zoned ones by their offset', () => {
    expect(fieldValueOf({ kind: 'datetime', wall: '2026-07-01 08:00:00.5' }, 'Europe/Berlin')).toBe('2026-07-01T06:00:00.500000Z');
    expect(fieldValueOf({ kind: 'datetime', wall: '2026-10-25 02:30:00' }, 'Europe/Berlin')).toBe('2026-10-25T00:30:00.000000Z');
    expect(fieldValueOf({ kind: 'datetime', wall: '2026-07-01 08:00:00', offset: '-05:00' }, 'Europe/Berlin')).toBe('2026-07-01T13:00:00.000000Z');
    expect(fieldValueOf({ kind: 'datetime', wall: '0000-00-00 00:00:00' }, 'UTC')).toBe('0000-00-00 00:00:00');
  });
});
