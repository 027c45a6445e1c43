import mysql from 'mysql2';
import type { Logger } from '../../logging/logger.js';
import { type ReadRequest, type ReadResult, type SqlConnection, type SqlDriver, SqlError, connectionClosed, connectionLabel, connectionLabelSaid, connectionLost, networkProblem, queryFailed, tlsProblem } from './sql-driver.js';
import { say } from '../../../../shared/config/message.js';
import { type SqlCell, decimalValue, parseDateTimeText, plainValue } from './sql-values.js';

/** mysql2 column types (protocol numbers) that need more than the driver's own conversion. */
const TYPE = { decimal: 0, longlong: 8, timestamp: 7, datetime: 12, newdecimal: 246 } as const;

export function mysqlPoolConfig(connection: SqlConnection): mysql.PoolOptions {
  return {
    host: connection.host,
    port: connection.port,
    user: connection.username,
    password: connection.password,
    database: connection.database_name,
    ssl: connection.ssl ? { rejectUnauthorized: !connection.trust_server_certificate } : undefined,
    connectTimeout: connection.connect_timeout * 1000,
    // Date-times as the server writes them (exact to the microsecond), big numbers as text.
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
    decimalNumbers: false,
    multipleStatements: false,
    charset: 'UTF8MB4_UNICODE_CI',
    connectionLimit: 1,
    maxIdle: 1,
    idleTimeout: 30_000,
    enableKeepAlive: true,
  };
}

function cellOf(value: unknown, type: number | undefined): SqlCell {
  if (typeof value === 'string') {
    if (type === TYPE.datetime || type === TYPE.timestamp) {
      const parsed = parseDateTimeText(value);
      // TIMESTAMP is stored in UTC and this session reads it in UTC; DATETIME has no zone.
      if (parsed && !parsed.offset) return type === TYPE.timestamp ? { ...parsed, offset: '+00:00' } : parsed;
      return value;
    }
    if (type === TYPE.longlong || type === TYPE.decimal || type === TYPE.newdecimal) return decimalValue(value);
  }
  return plainValue(value);
}

type PoolConnection = mysql.PoolConnection;

/**
 * MySQL and MariaDB through `mysql2`: one pooled connection. A read runs as a server-side prepared
 * statement (values bound by the server; one statement only) in a READ ONLY transaction, with
 * `sql_select_limit` so that the server produces no more rows than asked; rows stream in and are
 * handed over page by page.
 */
export class MysqlDriver implements SqlDriver {
  readonly label: string;
  private readonly pool: mysql.Pool;
  private active: { connection: PoolConnection; abort: (error: SqlError) => void } | undefined;
  private closed = false;

  constructor(
    private readonly connection: SqlConnection,
    private readonly logger: Logger,
  ) {
    this.label = connectionLabel(connection);
    this.pool = mysql.createPool(mysqlPoolConfig(connection));
    this.pool.on('connection', (c) => {
      c.query("SET SESSION time_zone = '+00:00'", (error) => error && this.logger.warn(`Setting the session time zone on ${this.label} failed: ${error.message}`));
    });
  }

  async read(request: ReadRequest): Promise<ReadResult> {
    if (this.closed) throw connectionClosed(connectionLabelSaid(this.connection));
    const connection = await new Promise<PoolConnection>((resolve, reject) => this.pool.getConnection((error, c) => (error ? reject(this.classify(error)) : resolve(c))));
    let broken = false;
    try {
      await this.run(connection, `SET SESSION sql_select_limit = ${Math.floor(request.maxRows)}`);
      await this.run(connection, 'START TRANSACTION READ ONLY');
      const rows = await this.stream(connection, request);
      await this.run(connection, 'COMMIT');
      await this.run(connection, 'SET SESSION sql_select_limit = DEFAULT');
      return { rows, limited: rows >= request.maxRows };
    } catch (cause) {
      broken = !(cause instanceof SqlError) || cause.connectionLevel || /did not finish/.test(cause.message);
      if (!broken) await this.run(connection, 'ROLLBACK').then(() => this.run(connection, 'SET SESSION sql_select_limit = DEFAULT')).catch(() => (broken = true));
      throw cause;
    } finally {
      this.active = undefined;
      if (broken) connection.destroy();
      else connection.release();
    }
  }

  private run(connection: PoolConnection, sql: string): Promise<void> {
    return new Promise((resolve, reject) => connection.query(sql, (error) => (error ? reject(this.classify(error)) : resolve())));
  }

  /** Executes the prepared statement and hands rows over page by page; resolves with the row count. */
  private stream(connection: PoolConnection, request: ReadRequest): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      let settled = false;
      let columns: string[] = [];
      let types: number[] = [];
      let page: SqlCell[][] = [];
      let total = 0;
      const settle = (error?: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (error) reject(error);
        else resolve(total);
      };
      const flush = () => {
        if (page.length === 0) return;
        const rows = page;
        page = [];
        request.onPage(columns, rows);
      };
      const timer = setTimeout(() => {
        settle(
          new SqlError(
            'query_failed',
            say('sql.query_abandoned', 'The query did not finish within {seconds} s (query_timeout) and was abandoned. Add an index on the state column, lower max_rows_per_poll, or raise query_timeout.', { seconds: this.connection.query_timeout }),
          ),
        );
        connection.destroy();
      }, this.connection.query_timeout * 1000);
      this.active = { connection, abort: settle };
      const values = request.statement.order.map((name) => request.parameters.find((p) => p.name === name)!.value);
      const command = connection.execute({ sql: request.statement.text, rowsAsArray: true }, values);
      command.on('fields', (fields: { name: string; columnType?: number; type?: number }[]) => {
        columns = fields.map((f) => f.name);
        types = fields.map((f) => f.columnType ?? f.type ?? -1);
      });
      command.on('result', (row: unknown) => {
        if (settled) return;
        total += 1;
        page.push((row as unknown[]).map((value, i) => cellOf(value, types[i])));
        try {
          if (page.length >= request.pageRows) flush();
        } catch (error) {
          settle(error); // the rest of the (limited) result is read and dropped by the driver
        }
      });
      command.on('error', (error: Error) => settle(this.classify(error)));
      command.on('end', () => {
        if (settled) return;
        try {
          flush();
          settle();
        } catch (error) {
          settle(error);
        }
      });
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.active) {
      this.active.abort(new SqlError('connect_failed', say('sql.connection_closed_here', 'The connection to {label} was closed.', { label: connectionLabelSaid(this.connection) })));
      this.active.connection.destroy();
    }
    await new Promise<void>((resolve) => this.pool.end(() => resolve()));
  }

  /** Database and socket errors in words, with their marker category. */
  classify(cause: unknown): SqlError {
    if (cause instanceof SqlError) return cause;
    const error = cause as Error & { code?: string; errno?: number; sqlMessage?: string; fatal?: boolean };
    const message = error.sqlMessage ?? error.message ?? String(cause);
    const label = connectionLabelSaid(this.connection);
    const { username: user, database_name: database, connect_timeout: connectTimeout } = this.connection;
    switch (error.code) {
      case 'ER_ACCESS_DENIED_ERROR':
      case 'ER_ACCESS_DENIED_NO_PASSWORD_ERROR':
      case 'ER_NOT_SUPPORTED_AUTH_MODE':
        return new SqlError('auth_failed', say('sql.mysql_login_refused', '{label} refused the login of user "{user}": wrong user name or password. Server says: {error}', { label, user, error: message }));
      case 'ER_HOST_NOT_PRIVILEGED':
        return new SqlError('auth_failed', say('sql.host_not_allowed', '{label} does not let this computer connect: {error}', { label, error: message }));
      case 'ER_BAD_DB_ERROR':
      case 'ER_DBACCESS_DENIED_ERROR':
        return new SqlError('database_not_found', say('sql.mysql_database_not_found', 'The database "{database}" does not exist on {label}, or user "{user}" may not use it. Check database_name and the user\'s rights.', { database, label, user }));
      case 'ER_CON_COUNT_ERROR':
      case 'ER_SERVER_SHUTDOWN':
      case 'ER_CONNECTION_KILLED':
        return new SqlError('connect_failed', say('sql.not_available', '{label} is not available ({error}).', { label, error: message }));
    }
    const tls = tlsProblem(error.code, message, label);
    if (tls) return tls;
    const network = networkProblem(error.code, message, label, connectTimeout);
    if (network) return network;
    if (error.fatal) return connectionLost(label, message);
    return queryFailed(label, message);
  }
}
