/**
 * The sql transmit's SQL as text: the statements MS SQL Server would get (it cannot run here, so
 * this is all that is checked of it), and the rules all dialects share. PostgreSQL and MariaDB run
 * them for real in sql-transmit.integration.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { addColumn, columnNameProblem, columnTypeOfDatabase, createJsonTable, createWideTable, fitValue, insertSkippingKnown, maxRowsPerStatement, quote, timeValue, wideTableName } from './sql-text.js';

const JSON_COLUMNS = [
  { name: 'record_id', type: 'key' as const },
  { name: 'asset', type: 'name' as const },
  { name: 'stream_type', type: 'name' as const },
  { name: 'timestamp', type: 'time' as const },
  { name: 'fields', type: 'json' as const },
];

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

  it('inserts PostgreSQL rows as one array per column, MySQL rows with a key update that changes nothing', () => {
    expect(insertSkippingKnown('postgresql', 't', JSON_COLUMNS, 10_000)).toBe(
      'INSERT INTO "t" ("record_id", "asset", "stream_type", "timestamp", "fields") SELECT * FROM unnest($1::TEXT[], $2::TEXT[], $3::TEXT[], $4::TIMESTAMPTZ[], $5::JSONB[]) ON CONFLICT ("record_id") DO NOTHING',
    );
    expect(insertSkippingKnown('mysql', 't', JSON_COLUMNS.slice(0, 2), 2)).toBe('INSERT INTO `t` (`record_id`, `asset`) VALUES (?, ?), (?, ?) ON DUPLICATE KEY UPDATE `record_id` = `record_id`');
  });
});
