/**
 * The sql transmit's SQL as text: the statements MS SQL Server would get (it cannot run here, so
 * this is all that is checked of it), and the rules all dialects share. PostgreSQL and MariaDB run
 * them for real in sql-transmit.integration.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { JSON_COLUMNS, addColumn, columnNameProblem, columnTypeOfDatabase, createJsonTable, createWideTable, fitValue, insertSkippingKnown, joinedJsonArrays, maxRowsPerStatement, recordsetJson, quote, timeValue, wideTableName } from './sql-text.js';


describe('SQL of the sql transmit', () => {
  it('writes MS SQL Server a table made once, datetime2 in UTC, and a MERGE that skips known record ids', () => {
    expect(createJsonTable('mssql', 'machine_data')).toBe(
      "IF OBJECT_ID(N'machine_data', N'U') IS NULL CREATE TABLE [machine_data] ([record_id] NVARCHAR(200) NOT NULL PRIMARY KEY, [asset] NVARCHAR(255) NOT NULL, [stream_type] NVARCHAR(255) NOT NULL, [timestamp] DATETIME2(6) NOT NULL, [fields] NVARCHAR(MAX) NOT NULL)",
    );
    expect(insertSkippingKnown('mssql', 'machine_data', JSON_COLUMNS, 2)).toBe(
      'MERGE [machine_data] AS target USING (VALUES (@p0, @p1, @p2, @p3, @p4), (@p5, @p6, @p7, @p8, @p9)) AS source ([record_id], [asset], [stream_type], [timestamp], [fields]) ON target.[record_id] = source.[record_id] WHEN NOT MATCHED THEN INSERT ([record_id], [asset], [stream_type], [timestamp], [fields]) VALUES (source.[record_id], source.[asset], source.[stream_type], source.[timestamp], source.[fields]);',
    );
    expect(timeValue('mssql', '2026-01-05T06:00:00.123456Z')).toBe('2026-01-05 06:00:00.123456');
    expect(addColumn('mssql', 'wide_cycle', 'force', 'number')).toBe('ALTER TABLE [wide_cycle] ADD [force] FLOAT NULL');
    // 2,100 parameters a statement at most.
    expect(maxRowsPerStatement('mssql', 5) * 5).toBeLessThanOrEqual(2100);
    expect(maxRowsPerStatement('mssql', 400)).toBe(5);
  });

  it('quotes names so that a field name can never end the statement', () => {
    expect(quote('postgresql', 'a"b')).toBe('"a""b"');
    expect(quote('mysql', 'a`b')).toBe('`a``b`');
    expect(quote('mssql', 'a]b')).toBe('[a]]b]');
    expect(createWideTable('postgresql', 'w_cycle', new Map([['cycle.state', 'text'], ['ok', 'boolean']]))).toBe(
      'CREATE TABLE IF NOT EXISTS "w_cycle" ("record_id" TEXT NOT NULL PRIMARY KEY, "asset" TEXT NOT NULL, "timestamp" TIMESTAMPTZ NOT NULL, "cycle.state" TEXT NULL, "ok" BOOLEAN NULL)',
    );
    expect(columnNameProblem('x'.repeat(64))).toMatch(/longer than 63 bytes/);
    expect(columnNameProblem('Timestamp')).toMatch(/the table has for itself/);
    expect(columnNameProblem('a\u0000b')).toMatch(/control character/);
    expect(columnNameProblem('Temperatur °C')).toBeUndefined();
    expect(wideTableName('machine', 'cycle/line 2')).toBe('machine_cycle_line_2');
  });

  it('fits a value to its column or says it does not fit', () => {
    expect(fitValue('number', 1.5)).toBe(1.5);
    expect(fitValue('number', 'n/a')).toBeUndefined();
    expect(fitValue('number', Number.NaN)).toBeUndefined();
    expect(fitValue('boolean', 1)).toBeUndefined();
    expect(fitValue('text', 12)).toBe('12');
    expect(fitValue('number', null)).toBeNull();
    expect(['double precision', 'bigint', 'boolean', 'tinyint', 'longtext', 'nvarchar'].map(columnTypeOfDatabase)).toEqual(['number', 'number', 'boolean', 'boolean', 'text', 'text']);
  });

  it('inserts PostgreSQL rows as one JSON parameter expanded by json_to_recordset, MySQL rows with a key update that changes nothing', () => {
    expect(insertSkippingKnown('postgresql', 't', JSON_COLUMNS, 10_000)).toBe(
      'INSERT INTO "t" ("record_id", "asset", "stream_type", "timestamp", "fields") SELECT "c0", "c1", "c2", "c3", "c4" FROM json_to_recordset($1::json) AS r("c0" TEXT, "c1" TEXT, "c2" TEXT, "c3" TIMESTAMPTZ, "c4" JSONB) ON CONFLICT ("record_id") DO NOTHING',
    );
    expect(insertSkippingKnown('mysql', 't', JSON_COLUMNS.slice(0, 2), 2)).toBe('INSERT INTO `t` (`record_id`, `asset`) VALUES (?, ?), (?, ?) ON DUPLICATE KEY UPDATE `record_id` = `record_id`');
  });

  it('writes the PostgreSQL parameter as JSON that keeps every value: quotes, nulls, a json column\'s object as an object', () => {
    const rows = [['id"1', 'Press "7"\\', 'cycle', '2026-11-29T10:00:00.000000Z', '{"t":21.5,"s":"a\\"b"}'], ['id2', null, 'cycle', '2026-11-29T10:00:01.000000Z', '{}']];
    expect(JSON.parse(recordsetJson(JSON_COLUMNS, rows))).toEqual([
      { c0: 'id"1', c1: 'Press "7"\\', c2: 'cycle', c3: '2026-11-29T10:00:00.000000Z', c4: { t: 21.5, s: 'a"b' } },
      { c0: 'id2', c1: null, c2: 'cycle', c3: '2026-11-29T10:00:01.000000Z', c4: {} },
    ]);
  });

  it('joins the outbox\'s JSON arrays into one, skipping empty ones', () => {
    const arrays = ['[{"a":1},{"a":2}]', '[]', ' [ {"a":"x,]"} ] '].map((t) => Buffer.from(t));
    expect(JSON.parse(joinedJsonArrays(arrays))).toEqual([{ a: 1 }, { a: 2 }, { a: 'x,]' }]);
    expect(joinedJsonArrays([])).toBe('[]');
  });
});
