import { describe, expect, it } from 'vitest';
import { sqlPlaceholders, sqlStatementProblem } from './rules.js';
import { validateConfiguration } from '../../validate.js';

function configWith(stream: Record<string, unknown>, connection: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return {
    data_receiver: [
      {
        data_receiver_name: 'mes',
        protocol: 'sql',
        connections: [{ host: 'db', port: 5432, username: 'u', password: 'p', database_type: 'postgresql', database_name: 'mes', ...connection }],
        streams: [{ asset: 'Line_1', stream_type: 'orders', query: 'SELECT * FROM t WHERE id > :id ORDER BY id', state_fields: [{ column_name: 'id', data_type: 'integer' }], ...stream }],
        ...extra,
      },
    ],
    transforms: [],
    data_transmit: [{ transmit_name: 'archive', transmit_type: 'csv', directory: 'archive' }],
  };
}

const violationsOf = (doc: unknown) => validateConfiguration(doc).violations.map((v) => ({ path: v.json_path.slice(3).join('.'), level: v.level, text: v.description }));

describe('SQL receiver rules', () => {
  it('passes a good stream', () => {
    expect(violationsOf(configWith({}))).toEqual([]);
    expect(violationsOf(configWith({ query: 'SELECT * FROM t WHERE ts > :ts OR (ts = :ts AND id > :id) ORDER BY ts, id', state_fields: [{ column_name: 'ts', data_type: 'datetime', initial_value: '2026-01-01 00:00:00' }, { column_name: 'id', data_type: 'integer' }] }))).toEqual([]);
  });

  it('finds placeholders outside strings, comments and casts only', () => {
    expect(sqlPlaceholders("SELECT ':a', \"x:b\", c::int, $q$ :d $q$ /* :e */ FROM t WHERE f > :f -- :g", 'postgresql')).toEqual(['f']);
    expect(sqlPlaceholders("SELECT [x:a] FROM t WHERE y = :b", 'mssql')).toEqual(['b']);
  });

  it.each([
    ['a second statement', { query: 'SELECT * FROM t WHERE id > :id ORDER BY id; DELETE FROM t' }, 'error', /more than one statement/],
    ['not a SELECT', { query: 'DELETE FROM t WHERE id > :id' }, 'error', /must be a SELECT/],
    ['positional markers', { query: 'SELECT * FROM t WHERE id > :id AND x = $1 ORDER BY id' }, 'error', /not \$1/],
    ['a placeholder without state field', { query: 'SELECT * FROM t WHERE id > :id AND ts > :ts ORDER BY id' }, 'error', /:ts has no state field/],
    ['a state field without placeholder', { query: 'SELECT * FROM t ORDER BY id' }, 'error', /no placeholder :id/],
    ['no ORDER BY', { query: 'SELECT * FROM t WHERE id > :id' }, 'warning', /no ORDER BY/],
    ['ORDER BY another column', { query: 'SELECT * FROM t WHERE id > :id ORDER BY name' }, 'warning', /does not mention id/],
    ['an initial value of the wrong type', { state_fields: [{ column_name: 'id', data_type: 'integer', initial_value: 'abc' }] }, 'error', /not a whole number/],
    ['a datetime initial value that is no date', { query: 'SELECT * FROM t WHERE ts > :ts ORDER BY ts', state_fields: [{ column_name: 'ts', data_type: 'datetime', initial_value: 'yesterday' }] }, 'error', /not a date-time/],
    ['a state field listed twice', { state_fields: [{ column_name: 'id', data_type: 'integer' }, { column_name: 'id', data_type: 'integer' }] }, 'error', /listed twice/],
    ['no state fields', { query: 'SELECT * FROM t', state_fields: [] }, 'warning', /whole result again/],
    ['an unknown connection', { connection: 'other' }, 'error', /No connection is named "other"/],
  ])('reports %s', (_name, stream, level, text) => {
    const found = violationsOf(configWith(stream)).find((v) => v.level === level && text.test(v.text));
    expect(found, JSON.stringify(violationsOf(configWith(stream)))).toBeDefined();
  });

  it('checks the dialect: ? for MySQL, @variables and writing words for MS SQL Server', () => {
    expect(sqlStatementProblem('SELECT * FROM t WHERE id > ? ORDER BY id', 'mysql')?.text).toMatch(/not "\?"/);
    expect(sqlStatementProblem("SELECT * FROM t WHERE note = '?' AND id > :id", 'mysql')).toBeUndefined();
    expect(sqlStatementProblem('SELECT * FROM t WHERE id > :id ORDER BY id DROP TABLE t', 'mssql')?.text).toMatch(/contains "DROP"/);
    expect(sqlStatementProblem('SELECT update_time, [delete] FROM t WHERE id > :id', 'mssql')).toBeUndefined();
    expect(sqlStatementProblem('WITH x AS (SELECT 1 AS id) SELECT * FROM x WHERE id > :id;', 'postgresql')).toBeUndefined();
  });

  it('checks connections: time zone, and names when there are several', () => {
    expect(violationsOf(configWith({}, { timezone: 'Mars/Olympus' })).some((v) => /not a known time zone/.test(v.text))).toBe(true);
    expect(violationsOf(configWith({}, { database_type: 'oracle' })).some((v) => v.path === '' || /mssql/.test(v.text))).toBe(true);
  });
});
