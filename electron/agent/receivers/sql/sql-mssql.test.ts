/**
 * The MS SQL Server driver layer, as far as it can be tested without a server (none runs on these
 * machines): query text and parameter binding, connection options (TLS, instance, timeouts), and
 * error classification against a closed port, a silent port and tedious's documented login errors.
 */
import net from 'node:net';
import sql from 'mssql';
import { afterEach, describe, expect, it } from 'vitest';
import { Logger, Redactor } from '../../logging/logger.js';
import type { LogFile } from '../../logging/log-file.js';
import { SystemClock } from '../../time/clock.js';
import { MAX_ROWS_PARAMETER, MssqlDriver, mssqlBatch, mssqlConfig, mssqlParameters } from './mssql-driver.js';
import { type SqlConnection, SqlError, prepareStatement } from './sql-driver.js';

const logger = new Logger({ append: () => undefined } as unknown as LogFile, new Redactor(), new SystemClock(), 'test');
const connection = (overrides: Partial<SqlConnection> = {}): SqlConnection => ({
  host: '127.0.0.1',
  port: 1433,
  username: 'sa',
  password: 'Secret-1',
  database_type: 'mssql',
  database_name: 'mes',
  ssl: false,
  trust_server_certificate: false,
  connect_timeout: 2,
  query_timeout: 30,
  ...overrides,
});

let driver: MssqlDriver | undefined;
let silent: net.Server | undefined;
const sockets = new Set<net.Socket>();
afterEach(async () => {
  await driver?.close();
  driver = undefined;
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await new Promise<void>((resolve) => (silent ? silent.close(() => resolve()) : resolve()));
  silent = undefined;
});

const read = (d: MssqlDriver) =>
  d.read({ statement: prepareStatement('SELECT * FROM t WHERE id > :id ORDER BY id', 'mssql', [{ column_name: 'id', data_type: 'integer' }]), parameters: [{ name: 'id', type: 'integer', value: '0' }], maxRows: 10, pageRows: 10, onPage: () => undefined });

describe('MS SQL Server driver layer (no server)', () => {
  it('sends placeholders as @names after SET ROWCOUNT, never the values', () => {
    const fields = [{ column_name: 'id', data_type: 'integer' as const }, { column_name: 'ts', data_type: 'datetime' as const }];
    const statement = prepareStatement("SELECT * FROM [t:x] WHERE note <> ':id' AND id > :id AND ts >= :ts OR id = :id -- :ts\nORDER BY ts, id;", 'mssql', fields);
    expect(statement.text).toBe("SELECT * FROM [t:x] WHERE note <> ':id' AND id > @id AND ts >= @ts OR id = @id -- :ts\nORDER BY ts, id");
    expect(statement.order).toEqual(['id', 'ts']);
    expect(mssqlBatch(statement.text)).toBe(`SET ROWCOUNT @${MAX_ROWS_PARAMETER};\n${statement.text}`);
  });

  it('binds state values with SQL Server types: bigint as text, datetime2(7) to 100 ns, datetimeoffset, nvarchar', () => {
    const params = mssqlParameters(
      [
        { name: 'id', type: 'integer', value: '9223372036854775807' },
        { name: 'ts', type: 'datetime', value: '2026-01-05 06:00:00.1234567' },
        { name: 'at', type: 'datetime', value: '2026-01-05 06:00:00.5+02:00' },
        { name: 'name', type: 'string', value: "O'Brien'; DROP TABLE t; --" },
        { name: 'f', type: 'float', value: '1.5' },
      ],
      700,
    );
    expect(params.map((p) => p.name)).toEqual(['id', 'ts', 'at', 'name', 'f', MAX_ROWS_PARAMETER]);
    expect(params[0]).toMatchObject({ type: sql.BigInt, value: '9223372036854775807' });
    const ts = params[1]!.value as Date & { nanosecondDelta: number };
    expect((params[1]!.type as { type?: unknown }).type ?? params[1]!.type).toBeDefined();
    expect(ts.toISOString()).toBe('2026-01-05T06:00:00.123Z'); // wall clock in the UTC fields (useUTC)
    expect(ts.nanosecondDelta).toBeCloseTo(0.0004567, 10);
    expect((params[2]!.value as Date).toISOString()).toBe('2026-01-05T04:00:00.500Z');
    expect(params[3]).toMatchObject({ value: "O'Brien'; DROP TABLE t; --" });
    expect(params[4]).toMatchObject({ type: sql.Float, value: 1.5 });
    expect(params[5]).toMatchObject({ type: sql.Int, value: 700 });
  });

  it('maps the connection fields to tedious options: TLS, named instance, timeouts', () => {
    expect(mssqlConfig(connection({ ssl: true }))).toMatchObject({ server: '127.0.0.1', port: 1433, connectionTimeout: 2000, requestTimeout: 30_000, options: { encrypt: true, trustServerCertificate: false, useUTC: true } });
    expect(mssqlConfig(connection({ ssl: true, trust_server_certificate: true })).options).toMatchObject({ encrypt: true, trustServerCertificate: true });
    expect(mssqlConfig(connection()).options).toMatchObject({ encrypt: false });
    const named = mssqlConfig(connection({ instance_name: 'SQLEXPRESS' }));
    expect(named.port).toBeUndefined();
    expect(named.options?.instanceName).toBe('SQLEXPRESS');
    expect(named.pool).toMatchObject({ max: 1 });
  });

  it('reports a closed port as connect_failed, in words', async () => {
    driver = new MssqlDriver(connection({ port: 9 }), logger);
    const error = (await read(driver).catch((e: unknown) => e)) as SqlError;
    expect(error).toBeInstanceOf(SqlError);
    expect(error.category).toBe('connect_failed');
    expect(error.message).toMatch(/Cannot connect to MS SQL Server at 127\.0\.0\.1:9, database "mes": connection refused or host unreachable/);
  });

  it('gives up on a server that never answers after connect_timeout', async () => {
    silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent!.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    driver = new MssqlDriver(connection({ port, connect_timeout: 1 }), logger);
    const started = Date.now();
    const error = (await read(driver).catch((e: unknown) => e)) as SqlError;
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(error.category).toBe('connect_failed');
    expect(error.message).toMatch(/no answer within 1 s/);
  });

  it('classifies the login errors tedious reports (shapes from tedious and SQL Server error numbers)', () => {
    const d = new MssqlDriver(connection(), logger);
    const login = Object.assign(new Error("Login failed for user 'sa'."), { code: 'ELOGIN', number: 18456 });
    expect(d.classify(login)).toMatchObject({ category: 'auth_failed' });
    const database = Object.assign(new Error('Cannot open database "mes" requested by the login. The login failed.'), { code: 'ELOGIN', number: 4060 });
    expect(d.classify(database)).toMatchObject({ category: 'database_not_found' });
    const tls = Object.assign(new Error('Failed to connect to 127.0.0.1:1433 - self-signed certificate'), { code: 'ESOCKET' });
    expect(d.classify(tls).category).toBe('tls_failed');
    expect(d.classify(tls).message).toMatch(/trust_server_certificate: true/);
    const syntax = Object.assign(new Error("Incorrect syntax near 'FORM'."), { code: 'EREQUEST', number: 102 });
    expect(d.classify(syntax)).toMatchObject({ category: 'query_failed' });
    const timeout = Object.assign(new Error('Timeout: Request failed to complete in 30000ms'), { code: 'ETIMEOUT' });
    expect(d.classify(timeout).message).toMatch(/did not finish within 30 s/);
  });
});
