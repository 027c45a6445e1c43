import pg from 'pg';
import type { Logger } from '../../logging/logger.js';
import { type ReadRequest, type ReadResult, type SqlConnection, type SqlDriver, SqlError, connectTimedOut, connectionClosed, connectionLabel, connectionLabelSaid, connectionLost, networkProblem, queryCancelled, queryFailed, tlsProblem } from './sql-driver.js';
import { say } from '../../../../shared/config/message.js';
import { type SqlCell, decimalValue, parseDateTimeText, plainValue } from './sql-values.js';

/** Type oids whose text we keep as the server wrote it: date-times (exact to the microsecond), exact numbers. */
const OID = { int8: 20, numeric: 1700, date: 1082, time: 1083, timetz: 1266, timestamp: 1114, timestamptz: 1184, interval: 1186 } as const;
const RAW_TEXT = new Set<number>(Object.values(OID));

export function postgresPoolConfig(connection: SqlConnection): pg.PoolConfig {
  return {
    host: connection.host,
    port: connection.port,
    user: connection.username,
    password: connection.password,
    database: connection.database_name,
    ssl: connection.ssl ? { rejectUnauthorized: !connection.trust_server_certificate, servername: connection.host } : false,
    connectionTimeoutMillis: connection.connect_timeout * 1000,
    // The server cancels a query after query_timeout; the client gives up a little later if the server does not answer at all.
    query_timeout: (connection.query_timeout + 10) * 1000,
    // timestamptz is written in UTC; statement_timeout bounds every statement on the server.
    options: `-c TimeZone=UTC -c statement_timeout=${connection.query_timeout * 1000}`,
    application_name: 'tributary',
    keepAlive: true,
    max: 1,
    idleTimeoutMillis: 30_000,
    types: { getTypeParser: ((oid: number, format?: string) => (RAW_TEXT.has(oid) ? (text: string) => text : pg.types.getTypeParser(oid, format as 'text'))) as typeof pg.types.getTypeParser },
  };
}

function cellOf(value: unknown, oid: number): SqlCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    if (oid === OID.timestamp || oid === OID.timestamptz) {
      const parsed = parseDateTimeText(value);
      return parsed && (oid === OID.timestamp) === (parsed.offset === undefined) ? parsed : value; // 'infinity', BC dates stay text
    }
    if (oid === OID.int8 || oid === OID.numeric) return decimalValue(value);
  }
  return plainValue(value);
}

/**
 * PostgreSQL through `pg`: one pooled connection. A read runs in a READ ONLY transaction through a
 * server-side cursor (DECLARE … CURSOR, FETCH n): only as many rows as asked are produced and held.
 */
export class PostgresDriver implements SqlDriver {
  readonly label: string;
  private readonly pool: pg.Pool;
  private active: pg.PoolClient | undefined;
  private closed = false;

  constructor(
    private readonly connection: SqlConnection,
    private readonly logger: Logger,
  ) {
    this.label = connectionLabel(connection);
    this.pool = new pg.Pool(postgresPoolConfig(connection));
    // An idle pooled connection that breaks (server restart) is dropped by the pool; the next read opens a new one.
    this.pool.on('error', (error) => this.logger.info(`An idle connection to ${this.label} closed: ${error.message}`));
  }

  async read(request: ReadRequest): Promise<ReadResult> {
    if (this.closed) throw connectionClosed(connectionLabelSaid(this.connection));
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (cause) {
      throw this.classify(cause);
    }
    this.active = client;
    let consumerError: { error: unknown } | undefined;
    let broken = false;
    try {
      await client.query('BEGIN READ ONLY');
      await client.query({
        text: `DECLARE tributary_rows NO SCROLL CURSOR FOR ${request.statement.text}`,
        values: request.statement.order.map((name) => request.parameters.find((p) => p.name === name)!.value),
        // Extended protocol even without values: it refuses a second statement in the text.
        queryMode: 'extended',
      } as pg.QueryConfig);
      let total = 0;
      let columns: string[] | undefined;
      for (;;) {
        const want = Math.min(request.pageRows, request.maxRows - total);
        if (want <= 0) break;
        const page = await client.query({ text: `FETCH FORWARD ${want} FROM tributary_rows`, rowMode: 'array' });
        columns ??= page.fields.map((f) => f.name);
        const oids = page.fields.map((f) => f.dataTypeID);
        total += page.rows.length;
        if (page.rows.length > 0) {
          try {
            request.onPage(columns, (page.rows as unknown[][]).map((row) => row.map((value, i) => cellOf(value, oids[i]!))));
          } catch (error) {
            consumerError = { error };
            throw error;
          }
        }
        if (page.rows.length < want) break;
      }
      await client.query('COMMIT');
      return { rows: total, limited: total >= request.maxRows };
    } catch (cause) {
      if (consumerError) {
        await client.query('ROLLBACK').catch(() => (broken = true));
        throw consumerError.error;
      }
      const problem = this.classify(cause);
      broken = problem.connectionLevel;
      if (!broken) await client.query('ROLLBACK').catch(() => (broken = true));
      throw problem;
    } finally {
      this.active = undefined;
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Ending the busy client aborts its query; pool.end() would wait for it.
    await this.active?.end().catch(() => undefined);
    await this.pool.end().catch(() => undefined);
  }

  /** Database and socket errors in words, with their marker category. */
  classify(cause: unknown): SqlError {
    if (cause instanceof SqlError) return cause;
    const error = cause as Error & { code?: string };
    const message = error.message ?? String(cause);
    const label = connectionLabelSaid(this.connection);
    const { username: user, database_name: database, query_timeout: queryTimeout, connect_timeout: connectTimeout } = this.connection;
    switch (error.code) {
      case '28P01':
      case '28000':
        return new SqlError('auth_failed', say('sql.postgres_login_refused', '{label} refused the login of user "{user}": wrong user name or password, or the user may not connect (pg_hba.conf). Server says: {error}', { label, user, error: message }));
      case '3D000':
        return new SqlError('database_not_found', say('sql.postgres_database_not_found', 'The database "{database}" does not exist on {label}. Check database_name.', { database, label }));
      case '57014':
        return queryCancelled(queryTimeout);
      case '57P01':
      case '57P02':
      case '57P03':
      case '08006':
      case '08003':
      case '08001':
        return new SqlError('connect_failed', say('sql.connection_lost_or_refused', 'The connection to {label} was lost or refused ({error}).', { label, error: message }));
      case '53300':
        return new SqlError('connect_failed', say('sql.no_free_slots', '{label} has no free connection slots ({error}).', { label, error: message }));
    }
    const tls = tlsProblem(error.code, message, label);
    if (tls) return tls;
    const network = networkProblem(error.code, message, label, connectTimeout);
    if (network) return network;
    if (/timeout/i.test(message)) {
      return /connect/i.test(message)
        ? connectTimedOut(label, connectTimeout)
        : new SqlError('query_failed', say('sql.query_timeout', 'The query did not finish within {seconds} s (query_timeout). Tributary tries again.', { seconds: queryTimeout }));
    }
    if (/terminated|closed|ended/i.test(message)) return connectionLost(label, message);
    return queryFailed(label, message);
  }
}
