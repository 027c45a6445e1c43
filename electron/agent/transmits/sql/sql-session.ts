/**
 * One connection of the sql transmit to its database, the same few operations for each driver the
 * project has (pg, mysql2, mssql): a statement, a transaction, close. Errors come back as
 * SqlWriteError with a category and words a plant engineer can act on (a missing grant said so).
 */
import { say, type AgentMessage } from '../../../../shared/config/message.js';
import mysql from 'mysql2/promise';
import sql from 'mssql';
import pg from 'pg';
import type { z } from 'zod';
import type { SqlTransmitSchema } from '../../../../shared/config/schema.js';
import type { Dialect } from './sql-text.js';

export type SqlTransmitConfig = z.infer<typeof SqlTransmitSchema>;

export type WriteProblem = 'connect_failed' | 'auth_failed' | 'permission_denied' | 'write_failed';

export class SqlWriteError extends Error {
  constructor(
    readonly category: WriteProblem,
    /** The message with its code (issue 57). */
    readonly said: AgentMessage,
    /** The database refused a value of the records (not the connection, the login or a grant). */
    readonly refusedValue = false,
  ) {
    super(said.text);
  }
}

/**
 * A value the database refuses, whatever the connection: PostgreSQL's data exceptions (class 22: a
 * NUL character, an invalid time, a number out of range) and NOT NULL/CHECK violations; MySQL's and
 * SQL Server's errors of the same kinds.
 */
function isRefusedValue(error: { code?: string | number; errno?: number; number?: number }): boolean {
  const code = String(error.code ?? '');
  if (/^22[0-9A-Z]{3}$/.test(code) || code === '23502' || code === '23514') return true;
  if ([1048, 1264, 1292, 1300, 1366, 1406, 3140].includes(error.errno ?? -1)) return true;
  return [241, 242, 245, 515, 2628, 8115, 8152].includes(error.number ?? -1);
}

export interface SqlSession {
  readonly dialect: Dialect;
  /** Runs one statement; rows as objects with lower-case keys. */
  run(text: string, params?: readonly unknown[]): Promise<Record<string, unknown>[]>;
  /** Runs `work` in one transaction: committed when it returns, rolled back when it throws. */
  transaction(work: () => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_PORTS: Record<Dialect, number> = { postgresql: 5432, mysql: 3306, mssql: 1433 };

/** Where the transmit writes, for messages: "PostgreSQL mes at 10.0.1.5:5432". */
export function targetLabel(config: SqlTransmitConfig): AgentMessage {
  const product = { postgresql: 'PostgreSQL', mysql: 'MySQL/MariaDB', mssql: 'MS SQL Server' }[config.database_type];
  return say('sql_transmit.target', '{product} database {database} at {host}:{port}', { product, database: config.database_name, host: config.host, port: config.port ?? DEFAULT_PORTS[config.database_type] });
}

/** What the transmit was doing when a database refused, for its messages. */
export const DOING = {
  connect: () => say('sql_transmit.doing_connect', 'connect'),
  write: () => say('sql_transmit.doing_write', 'write'),
  insert: (table: string) => say('sql_transmit.doing_insert', 'insert into {table}', { table }),
  create: (table: string) => say('sql_transmit.doing_create', 'create the table {table}', { table }),
  addColumn: (column: string, table: string) => say('sql_transmit.doing_add_column', 'add the column {column} to {table}', { column, table }),
};

/** An error of any driver in words and a category. */
export function explain(cause: unknown, config: SqlTransmitConfig, doing: AgentMessage, creates = false): SqlWriteError {
  if (cause instanceof SqlWriteError) return cause;
  const error = cause as { code?: string | number; errno?: number; number?: number; message?: string };
  const where = targetLabel(config);
  const code = String(error.code ?? '');
  const text = (error.message ?? String(cause)).slice(0, 500);
  if (['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ETIMEDOUT', 'ECONNRESET', 'ESOCKET', 'ETIMEOUT', 'EPIPE'].includes(code) || /timeout|terminated|closed|ECONNRESET|connect/i.test(text) && !/permission|denied/i.test(text))
    return new SqlWriteError('connect_failed', say('sql_transmit.unreachable', '{where} cannot be reached ({error}). The records stay queued and are written when it answers.', { where, error: text }));
  if (code === '28P01' || code === '28000' || error.errno === 1045 || error.number === 18456 || code === 'ELOGIN')
    return new SqlWriteError('auth_failed', say('sql_transmit.login_refused', '{where} refused the login of "{user}": wrong password or no such user. The records stay queued.', { where, user: config.username }));
  const permission = code === '42501' || error.errno === 1142 || error.errno === 1044 || error.number === 229 || error.number === 262;
  if (permission)
    return new SqlWriteError(
      'permission_denied',
      creates
        ? say('sql_transmit.may_not_create', 'The user "{user}" may not {doing} in {where} ({error}). Grant it CREATE on the database (or create the table yourself: docs/sql-transmit.md). The records stay queued.', { user: config.username, doing, where, error: text })
        : config.database_type === 'mysql'
          ? say('sql_transmit.may_not_write_mysql', 'The user "{user}" may not {doing} in {where} ({error}). Grant it SELECT, INSERT and UPDATE on the table (UPDATE for ON DUPLICATE KEY). The records stay queued.', { user: config.username, doing, where, error: text })
          : say('sql_transmit.may_not_write', 'The user "{user}" may not {doing} in {where} ({error}). Grant it SELECT and INSERT on the table. The records stay queued.', { user: config.username, doing, where, error: text }),
    );
  if (isRefusedValue(error)) return new SqlWriteError('write_failed', say('sql_transmit.value_refused', '{where} refused a value while it {doing}: {error}.', { where, doing, error: text }), true);
  return new SqlWriteError('write_failed', say('sql_transmit.write_failed', 'Writing to {where} failed while it {doing}: {error}. The records stay queued.', { where, doing, error: text }));
}

export async function openSession(config: SqlTransmitConfig): Promise<SqlSession> {
  const port = config.port ?? DEFAULT_PORTS[config.database_type];
  const ms = config.timeout * 1000;
  if (config.database_type === 'postgresql') {
    const client = new pg.Client({
      host: config.host,
      port,
      user: config.username,
      password: config.password,
      database: config.database_name,
      ssl: config.ssl ? { rejectUnauthorized: !config.trust_server_certificate, servername: config.host } : false,
      connectionTimeoutMillis: ms,
      query_timeout: ms + 5000,
      options: `-c TimeZone=UTC -c statement_timeout=${ms}`,
      application_name: 'tributary',
    });
    // A connection lost while idle is noticed at the next statement; the event must not go unheard.
    client.on('error', () => undefined);
    await client.connect();
    return {
      dialect: 'postgresql',
      run: async (text, params) => (await client.query({ text, values: params as unknown[] })).rows as Record<string, unknown>[],
      transaction: async (work) => {
        await client.query('BEGIN');
        try {
          await work();
          await client.query('COMMIT');
        } catch (cause) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw cause;
        }
      },
      close: () => client.end().catch(() => undefined),
    };
  }
  if (config.database_type === 'mysql') {
    const connection = await mysql.createConnection({
      host: config.host,
      port,
      user: config.username,
      password: config.password,
      database: config.database_name,
      ssl: config.ssl ? { rejectUnauthorized: !config.trust_server_certificate } : undefined,
      connectTimeout: ms,
      timezone: 'Z',
      supportBigNumbers: true,
    });
    connection.on('error', () => undefined);
    await connection.query(`SET SESSION max_execution_time = ${ms}`).catch(() => undefined); // MySQL only; MariaDB has its own
    return {
      dialect: 'mysql',
      run: async (text, params) => {
        const [rows] = await connection.query({ sql: text, values: params as unknown[], timeout: ms });
        return Array.isArray(rows) ? (rows as Record<string, unknown>[]).map(lowerKeys) : [];
      },
      transaction: async (work) => {
        await connection.beginTransaction();
        try {
          await work();
          await connection.commit();
        } catch (cause) {
          await connection.rollback().catch(() => undefined);
          throw cause;
        }
      },
      close: () => connection.end().catch(() => undefined),
    };
  }
  // The part of mssql used here (electron/agent/receivers/sql/mssql.d.ts types only what the receiver uses).
  const driver = sql as unknown as MssqlDriver;
  const pool = new driver.ConnectionPool({
    server: config.host,
    port,
    user: config.username,
    password: config.password,
    database: config.database_name,
    connectionTimeout: ms,
    requestTimeout: ms,
    pool: { max: 1, min: 0 },
    options: { encrypt: config.ssl, trustServerCertificate: config.trust_server_certificate, appName: 'tributary', useUTC: true },
  });
  pool.on('error', () => undefined);
  await pool.connect();
  let transaction: MssqlTransaction | undefined;
  return {
    dialect: 'mssql',
    run: async (text, params = []) => {
      const request = new driver.Request(transaction ?? pool);
      params.forEach((value, i) => request.input(`p${i}`, value));
      const result = await request.query(text);
      return (result.recordset ?? []).map(lowerKeys);
    },
    transaction: async (work) => {
      const current = new driver.Transaction(pool);
      transaction = current;
      await current.begin();
      try {
        await work();
        await current.commit();
      } catch (cause) {
        await current.rollback().catch(() => undefined);
        throw cause;
      } finally {
        transaction = undefined;
      }
    },
    close: () => pool.close().catch(() => undefined),
  };
}

interface MssqlPool {
  on(event: 'error', listener: () => void): void;
  connect(): Promise<unknown>;
  close(): Promise<void>;
}
interface MssqlTransaction {
  begin(): Promise<unknown>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
}
interface MssqlDriver {
  ConnectionPool: new (config: Record<string, unknown>) => MssqlPool;
  Transaction: new (pool: MssqlPool) => MssqlTransaction;
  Request: new (parent: MssqlPool | MssqlTransaction) => {
    input(name: string, value: unknown): void;
    query(text: string): Promise<{ recordset?: Record<string, unknown>[] }>;
  };
}

function lowerKeys(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).map(([key, value]) => [key.toLowerCase(), value]));
}
