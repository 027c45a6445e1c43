import sql, { type ConnectionPool, type ISqlType, type Request, type config as MssqlConfig } from 'mssql';
import type { Logger } from '../../logging/logger.js';
import { type ReadRequest, type ReadResult, type SqlConnection, type SqlDriver, SqlError, connectionClosed, connectionLabel, connectionLabelSaid, networkProblem, queryCancelled, queryFailed, tlsProblem } from './sql-driver.js';
import { say } from '../../../../shared/config/message.js';
import { type BoundValue, type SqlCell, decimalValue, parseDateTimeText, plainValue } from './sql-values.js';

/** The parameter that carries max_rows_per_poll into `SET ROWCOUNT`. */
export const MAX_ROWS_PARAMETER = 'tributary_max_rows';

export function mssqlConfig(connection: SqlConnection): MssqlConfig {
  return {
    server: connection.host,
    ...(connection.instance_name ? {} : { port: connection.port }),
    user: connection.username,
    password: connection.password,
    database: connection.database_name,
    connectionTimeout: connection.connect_timeout * 1000,
    requestTimeout: connection.query_timeout * 1000,
    pool: { max: 1, min: 0, idleTimeoutMillis: 30_000 },
    options: {
      encrypt: connection.ssl,
      trustServerCertificate: connection.trust_server_certificate,
      ...(connection.instance_name ? { instanceName: connection.instance_name } : {}),
      // Date-times without zone arrive with their wall-clock fields in the Date's UTC fields.
      useUTC: true,
      appName: 'tributary',
      abortTransactionOnError: true,
    },
  };
}

/** The batch sent for a statement: the row limit first, then the stream's single SELECT. */
export function mssqlBatch(text: string): string {
  return `SET ROWCOUNT @${MAX_ROWS_PARAMETER};\n${text}`;
}

/** A date-time state value as a typed MS SQL parameter: datetime2(7), or datetimeoffset(7) when it has an offset. */
function dateTimeParameter(text: string): { type: ISqlType; value: Date } | undefined {
  const parsed = parseDateTimeText(text);
  if (!parsed) return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?$/.exec(parsed.wall)!;
  const digits = (m[7] ?? '').padEnd(7, '0').slice(0, 7);
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]), Number(digits.slice(0, 3))));
  date.setUTCFullYear(Number(m[1])); // years below 100 as written
  if (parsed.offset) {
    const sign = parsed.offset.startsWith('-') ? -1 : 1;
    date.setTime(date.getTime() - sign * (Number(parsed.offset.slice(1, 3)) * 60 + Number(parsed.offset.slice(4, 6))) * 60_000);
  }
  // tedious adds nanosecondDelta (seconds below the millisecond) when it writes datetime2.
  Object.assign(date, { nanosecondDelta: Number(digits.slice(3)) / 1e7 });
  return { type: parsed.offset ? sql.DateTimeOffset(7) : sql.DateTime2(7), value: date };
}

/** Typed parameters for the state values (and the row limit). */
export function mssqlParameters(values: readonly BoundValue[], maxRows: number): { name: string; type: ISqlType | (() => ISqlType); value: unknown }[] {
  const out: { name: string; type: ISqlType | (() => ISqlType); value: unknown }[] = values.map((p) => {
    if (p.type === 'integer') return { name: p.name, type: sql.BigInt, value: p.value };
    if (p.type === 'float') return { name: p.name, type: sql.Float, value: Number(p.value) };
    if (p.type === 'datetime') {
      const typed = dateTimeParameter(p.value);
      if (typed) return { name: p.name, ...typed };
    }
    return { name: p.name, type: sql.NVarChar(sql.MAX), value: p.value };
  });
  out.push({ name: MAX_ROWS_PARAMETER, type: sql.Int, value: Math.floor(maxRows) });
  return out;
}

interface ColumnInfo {
  name: string;
  type?: { declaration?: string };
}

function cellOf(value: unknown, column: ColumnInfo | undefined): SqlCell {
  const declaration = column?.type?.declaration;
  if (value instanceof Date && (declaration === 'datetime2' || declaration === 'datetime' || declaration === 'smalldatetime' || declaration === 'datetimeoffset')) {
    const iso = value.toISOString(); // UTC fields = the wall clock (useUTC), or the instant for datetimeoffset
    const below = Math.round(((value as Date & { nanosecondsDelta?: number }).nanosecondsDelta ?? 0) * 1e7);
    const wall = `${iso.slice(0, 10)} ${iso.slice(11, 23)}${String(below).padStart(4, '0')}`;
    return declaration === 'datetimeoffset' ? { kind: 'datetime', wall, offset: '+00:00' } : { kind: 'datetime', wall };
  }
  if (value instanceof Date && declaration === 'date') return value.toISOString().slice(0, 10);
  if (typeof value === 'string' && (declaration === 'bigint' || declaration === 'decimal' || declaration === 'numeric')) return decimalValue(value);
  return plainValue(value);
}

/**
 * MS SQL Server through `mssql` (tedious): one pool with one connection. A read sends one batch,
 * `SET ROWCOUNT @max; <query>`, through sp_executesql with typed parameters, and streams the rows.
 * NOT verified against a real server in this project's tests (see docs/sql.md).
 */
export class MssqlDriver implements SqlDriver {
  readonly label: string;
  private pool: ConnectionPool | undefined;
  private connecting: Promise<ConnectionPool> | undefined;
  private active: Request | undefined;
  private closed = false;

  constructor(
    private readonly connection: SqlConnection,
    private readonly logger: Logger,
  ) {
    this.label = connectionLabel(connection);
  }

  private async connect(): Promise<ConnectionPool> {
    if (this.pool?.connected) return this.pool;
    this.connecting ??= (async () => {
      const pool = new sql.ConnectionPool(mssqlConfig(this.connection));
      pool.on('error', (error: Error) => this.logger.info(`A connection to ${this.label} closed: ${error.message}`));
      try {
        await pool.connect();
      } catch (cause) {
        await pool.close().catch(() => undefined);
        throw this.classify(cause);
      }
      this.pool = pool;
      return pool;
    })().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  async read(request: ReadRequest): Promise<ReadResult> {
    if (this.closed) throw connectionClosed(connectionLabelSaid(this.connection));
    const pool = await this.connect();
    const req = new sql.Request(pool);
    req.stream = true;
    req.arrayRowMode = true;
    for (const p of mssqlParameters(request.parameters, request.maxRows)) req.input(p.name, p.type, p.value);
    this.active = req;
    return new Promise<ReadResult>((resolve, reject) => {
      let settled = false;
      let columns: ColumnInfo[] = [];
      let page: SqlCell[][] = [];
      let total = 0;
      const settle = (error?: unknown) => {
        if (settled) return;
        settled = true;
        this.active = undefined;
        if (error) reject(error);
        else resolve({ rows: total, limited: total >= request.maxRows });
      };
      const flush = () => {
        if (page.length === 0) return;
        const rows = page;
        page = [];
        request.onPage(columns.map((c) => c.name), rows);
      };
      req.on('recordset', (meta: ColumnInfo[]) => (columns = meta));
      req.on('row', (row: unknown[]) => {
        if (settled) return;
        total += 1;
        page.push(row.map((value, i) => cellOf(value, columns[i])));
        try {
          if (page.length >= request.pageRows) flush();
        } catch (error) {
          settle(error);
          req.cancel();
        }
      });
      req.on('error', (error: Error) => settle(this.classify(error)));
      req.on('done', () => {
        try {
          flush();
          settle();
        } catch (error) {
          settle(error);
        }
      });
      req.query(mssqlBatch(request.statement.text));
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.active?.cancel();
    await this.connecting?.catch(() => undefined);
    await this.pool?.close().catch(() => undefined);
  }

  /** tedious errors in words, with their marker category (codes and numbers from tedious and SQL Server's documentation). */
  classify(cause: unknown): SqlError {
    if (cause instanceof SqlError) return cause;
    const error = cause as Error & { code?: string; number?: number; originalError?: Error & { code?: string } };
    const message = error.message ?? String(cause);
    const code = error.code ?? error.originalError?.code;
    const label = connectionLabelSaid(this.connection);
    const { username: user, database_name: database, connect_timeout: connectTimeout, query_timeout: queryTimeout } = this.connection;
    if (error.number === 4060 || /cannot open database/i.test(message))
      return new SqlError('database_not_found', say('sql.mssql_database_not_found', 'The database "{database}" does not exist on {label}, or user "{user}" may not open it. Check database_name and the login\'s rights.', { database, label, user }));
    if (code === 'ELOGIN' || error.number === 18456)
      return new SqlError('auth_failed', say('sql.mssql_login_refused', '{label} refused the login of user "{user}": wrong user name or password, or SQL Server authentication is off. Server says: {error}', { label, user, error: message }));
    if (code === 'ETIMEOUT' && /request|query/i.test(message))
      return queryCancelled(queryTimeout);
    if (code === 'EINSTLOOKUP')
      return new SqlError(
        'connect_failed',
        say('sql.instance_not_found', 'Cannot find the instance "{instance}" on {host}: SQL Server Browser (UDP 1434) did not answer or does not know it.', { instance: String(this.connection.instance_name), host: this.connection.host }),
      );
    const tls = tlsProblem(code, message, label);
    if (tls) return tls;
    if (code === 'ESOCKET' || code === 'ETIMEOUT' || code === 'ECONNCLOSED') {
      const inner = error.originalError as (Error & { code?: string; cause?: Error & { code?: string } }) | undefined;
      // tedious tries every address of the host in turn and reports "Could not connect (sequence)" when none accepted.
      if (/could not connect|ECONNREFUSED/i.test(message))
        return new SqlError('connect_failed', say('sql.mssql_connection_refused', 'Cannot connect to {label}: connection refused or host unreachable. Check host and port (SQL Server\'s TCP/IP protocol must be enabled), and that the server runs.', { label }));
      const socketCode = inner?.cause?.code ?? (code === 'ETIMEOUT' ? 'ETIMEDOUT' : code);
      return networkProblem(socketCode, message, label, connectTimeout)!;
    }
    const network = networkProblem(code, message, label, connectTimeout);
    if (network) return network;
    return queryFailed(label, message);
  }
}
