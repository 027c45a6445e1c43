import type { z } from 'zod';
import type { SqlConnectionSchema } from '../../../../shared/config/schema.js';
import { type SqlDialect, sqlPlaceholderSpans, withoutTrailingSemicolon } from '../../../../shared/config/receivers/sql/rules.js';
import type { BoundValue, SqlCell, StateField } from './sql-values.js';
import { say, type AgentMessage } from '../../../../shared/config/message.js';

export type SqlConnection = z.infer<typeof SqlConnectionSchema>;

/** Marker categories of the SQL receiver. The first four concern the connection, and so every stream on it. */
export type SqlProblemCategory = 'connect_failed' | 'auth_failed' | 'database_not_found' | 'tls_failed' | 'query_failed';
export const CONNECTION_CATEGORIES: readonly SqlProblemCategory[] = ['connect_failed', 'auth_failed', 'database_not_found', 'tls_failed'];

/** A database problem in words for a plant engineer, with its marker category. */
export class SqlError extends Error {
  constructor(
    readonly category: SqlProblemCategory,
    /** With its code (issue 57): the console writes it in the operator's language. */
    readonly said: AgentMessage,
  ) {
    super(said.text);
  }

  get connectionLevel(): boolean {
    return this.category !== 'query_failed';
  }
}

/** A query ready for one dialect: text with the driver's parameter markers, and which state value goes where. */
export interface PreparedStatement {
  text: string;
  /** Placeholder names in the order the driver binds them (PostgreSQL $n, MySQL ?, MS SQL @name). */
  order: string[];
}

export interface ReadRequest {
  statement: PreparedStatement;
  parameters: readonly BoundValue[];
  /** Rows read at most; the database is asked not to produce more. */
  maxRows: number;
  /** Rows handed over per call of onPage. */
  pageRows: number;
  /** Receives rows page by page, synchronously; a throw stops the read and is rethrown by read(). */
  onPage(columns: readonly string[], rows: SqlCell[][]): void;
}

export interface ReadResult {
  rows: number;
  /** maxRows were read: more rows may be waiting. */
  limited: boolean;
}

/** One pooled connection to one database. */
export interface SqlDriver {
  /** Human name for messages, e.g. `PostgreSQL at db1:5432, database mes`. */
  readonly label: string;
  /** Runs the statement with the bound values and hands its rows over in pages. Throws SqlError for database problems. */
  read(request: ReadRequest): Promise<ReadResult>;
  /** Ends the pool; a running query is aborted. Idempotent. */
  close(): Promise<void>;
}

const PRODUCT: Record<SqlDialect, string> = { mssql: 'MS SQL Server', postgresql: 'PostgreSQL', mysql: 'MySQL/MariaDB' };

export function connectionLabel(connection: SqlConnection): string {
  return connectionLabelSaid(connection).text;
}

/** The connection's label as a message: `PostgreSQL at db1:5432, database "mes"`. */
export function connectionLabelSaid(connection: SqlConnection): AgentMessage {
  const where = connection.database_type === 'mssql' && connection.instance_name ? `${connection.host}\\${connection.instance_name}` : `${connection.host}:${connection.port}`;
  return say('sql.label', '{product} at {where}, database "{database}"', { product: PRODUCT[connection.database_type], where, database: connection.database_name });
}

/** The query failed on the server (its own message): the stream's query needs fixing. */
export const queryFailed = (label: AgentMessage, error: string) =>
  new SqlError('query_failed', say('sql.query_failed', 'The query failed on {label}: {error}. Fix the stream\'s query; it is tried again every poll.', { label, error }));
/** The connection of this driver was closed (the receiver stopped). */
export const connectionClosed = (label: AgentMessage) => new SqlError('connect_failed', say('sql.connection_closed', 'The connection to {label} is closed.', { label }));
/** The connection broke after it was made. */
export const connectionLost = (label: AgentMessage, error: string) => new SqlError('connect_failed', say('sql.connection_lost', 'The connection to {label} was lost ({error}).', { label, error }));
/** No answer within the connect timeout. */
export const connectTimedOut = (label: AgentMessage, seconds: number) =>
  new SqlError('connect_failed', say('sql.connect_timeout', 'Cannot connect to {label}: no answer within {seconds} s. Check host, port and firewalls.', { label, seconds }));
/** The query ran past query_timeout and was cancelled. */
export const queryCancelled = (seconds: number) =>
  new SqlError('query_failed', say('sql.query_cancelled', 'The query did not finish within {seconds} s (query_timeout) and was cancelled. Add an index on the state column, lower max_rows_per_poll, or raise query_timeout.', { seconds }));

/**
 * Replaces each `:name` placeholder by the dialect's parameter marker. The values are never part of
 * the text: they travel separately and the server binds them.
 */
export function prepareStatement(query: string, dialect: SqlDialect, fields: readonly StateField[]): PreparedStatement {
  const text = withoutTrailingSemicolon(query, dialect);
  const spans = sqlPlaceholderSpans(text, dialect);
  const order: string[] = [];
  let out = '';
  let at = 0;
  for (const span of spans) {
    out += text.slice(at, span.start);
    at = span.end;
    if (dialect === 'postgresql') {
      let index = order.indexOf(span.name);
      if (index === -1) index = order.push(span.name) - 1;
      out += `$${index + 1}`;
    } else if (dialect === 'mysql') {
      order.push(span.name);
      // An integer travels as text and is cast on the server: exact beyond 2^53, unlike a double.
      out += fields.find((f) => f.column_name === span.name)?.data_type === 'integer' ? 'CAST(? AS SIGNED)' : '?';
    } else {
      if (!order.includes(span.name)) order.push(span.name);
      out += `@${span.name}`;
    }
  }
  return { text: out + text.slice(at), order };
}

/** Shared classification of socket-level failures, in words. */
export function networkProblem(code: string | undefined, message: string, label: AgentMessage, connectTimeout: number): SqlError | undefined {
  switch (code) {
    case 'ECONNREFUSED':
      return new SqlError('connect_failed', say('sql.connection_refused', 'Cannot connect to {label}: connection refused. Check host and port, and that the database server runs.', { label }));
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new SqlError('connect_failed', say('sql.host_unknown', 'Cannot connect to {label}: the host name is unknown (DNS).', { label }));
    case 'ETIMEDOUT':
    case 'ETIMEOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return connectTimedOut(label, connectTimeout);
    case 'ECONNRESET':
    case 'EPIPE':
    case 'PROTOCOL_CONNECTION_LOST':
    case 'ECONNCLOSED':
    case 'ESOCKET':
      return connectionLost(label, message);
    default:
      return undefined;
  }
}

const TLS_CODES = /^(ERR_TLS|ERR_SSL|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_|CERT_|HOSTNAME_MISMATCH|HANDSHAKE_NO_SSL_SUPPORT)/;

/** A TLS failure (certificate, handshake), or undefined. */
export function tlsProblem(code: string | undefined, message: string, label: AgentMessage): SqlError | undefined {
  if (!(code && TLS_CODES.test(code)) && !/\b(ssl|tls|certificate)\b/i.test(message)) return undefined;
  const error = message;
  if (/self[- ]signed|unable to (verify|get)|certificate/i.test(message))
    return new SqlError(
      'tls_failed',
      say('sql.tls_untrusted', 'TLS to {label} failed: {error}. The server certificate is not trusted: install a certificate from a trusted authority on the server, or set trust_server_certificate: true.', { label, error }),
    );
  if (/not support|no_ssl/i.test(`${message} ${code ?? ''}`))
    return new SqlError('tls_failed', say('sql.tls_not_offered', 'TLS to {label} failed: {error}. The server does not offer TLS: set ssl: false, or enable TLS on the server.', { label, error }));
  return new SqlError('tls_failed', say('sql.tls_failed', 'TLS to {label} failed: {error}.', { label, error }));
}
