/**
 * SQL receiver rules: the lexical reading of a stream's query (placeholders, statements, ORDER BY)
 * shared by validation and by the agent, and the semantic rules of an `sql` receiver.
 */
import type { z } from 'zod';
import type { SqlReceiverSchema } from './schema.js';
import { type JsonPath, type Violation, error, warning, say } from '../../violations.js';
import type { AgentMessage } from '../../message.js';

type SqlReceiver = z.infer<typeof SqlReceiverSchema>;

/** `database_type` values: the dialect decides quoting, comments and parameter markers. */
export type SqlDialect = 'mssql' | 'postgresql' | 'mysql';

/** A named placeholder (`:id`) and where it stands in the query text. */
export interface SqlPlaceholder {
  name: string;
  /** Index of the `:`. */
  start: number;
  /** Index after the name. */
  end: number;
}

/**
 * Datetime text accepted for state values and initial values: `YYYY-MM-DD`, optionally a time
 * (`HH:MM`, `HH:MM:SS`, up to 9 fraction digits) after a space or `T`, optionally `Z` or an offset.
 */
export const SQL_DATETIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

const TEMPLATE_PROMPT = '<fill in: ';

/**
 * The query with everything that is not SQL code (string literals, quoted identifiers, comments)
 * replaced by spaces, so that positions stay the same. Knows '…' (with '' and, for MySQL or
 * PostgreSQL E'…', backslash escapes), "…", `…` (MySQL), […] (MS SQL), $tag$…$tag$ (PostgreSQL),
 * -- and # (MySQL) line comments and block comments.
 */
export function maskSql(query: string, dialect?: SqlDialect): string {
  const out = query.split('');
  const blank = (from: number, to: number) => {
    for (let k = from; k < to && k < out.length; k += 1) if (out[k] !== '\n') out[k] = ' ';
  };
  let i = 0;
  while (i < query.length) {
    const c = query[i]!;
    const next = query[i + 1];
    if ((c === '-' && next === '-') || (c === '#' && dialect === 'mysql')) {
      const end = query.indexOf('\n', i);
      const stop = end === -1 ? query.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = query.indexOf('*/', i + 2);
      const stop = end === -1 ? query.length : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c === "'" || c === '"' || (c === '`' && dialect !== 'mssql') || (c === '[' && dialect === 'mssql')) {
      const close = c === '[' ? ']' : c;
      const backslash = c !== '[' && c !== '`' && (dialect === 'mysql' || (c === "'" && /[eE]/.test(query[i - 1] ?? '') && !/\w/.test(query[i - 2] ?? '')));
      let j = i + 1;
      while (j < query.length) {
        if (backslash && query[j] === '\\') j += 2;
        else if (query[j] === close && query[j + 1] === close) j += 2;
        else if (query[j] === close) break;
        else j += 1;
      }
      blank(i, j + 1);
      i = j + 1;
    } else if (c === '$' && dialect !== 'mysql' && dialect !== 'mssql') {
      const tag = /^\$([A-Za-z_]\w*)?\$/.exec(query.slice(i));
      if (tag && !/\w/.test(query[i - 1] ?? '')) {
        const end = query.indexOf(tag[0], i + tag[0].length);
        const stop = end === -1 ? query.length : end + tag[0].length;
        blank(i, stop);
        i = stop;
      } else i += 1;
    } else i += 1;
  }
  return out.join('');
}

/** Every named placeholder in order of appearance, outside literals and comments; `::` casts are not placeholders. */
export function sqlPlaceholderSpans(query: string, dialect?: SqlDialect): SqlPlaceholder[] {
  const masked = maskSql(query, dialect);
  return [...masked.matchAll(/(?<![:\w$@]):([A-Za-z_]\w*)/g)].map((m) => ({ name: m[1]!, start: m.index, end: m.index + m[0].length }));
}

/** Named placeholders (`:id`) of an SQL text, each once, ignoring quoted strings, comments and `::` casts. */
export function sqlPlaceholders(query: string, dialect?: SqlDialect): string[] {
  return [...new Set(sqlPlaceholderSpans(query, dialect).map((p) => p.name))];
}

/** Words that change data or run code: never part of a query that only reads (checked for MS SQL, which has no read-only mode). */
const WRITE_WORDS = /\b(insert|update|delete|merge|drop|alter|create|truncate|exec|execute|grant|revoke|deny|declare|set|use|backup|restore|shutdown|kill|dbcc|waitfor|bulk|openrowset|opendatasource|openquery|into|reconfigure)\b/i;

/**
 * Why the query cannot run as one read-only statement, or undefined. The agent refuses such a
 * query before sending it; validation reports the same text.
 */
export function sqlStatementProblem(query: string, dialect: SqlDialect): AgentMessage | undefined {
  const masked = maskSql(query, dialect);
  const body = masked.replace(/[\s;]+$/, '');
  if (body.includes(';')) return say('sql.several_statements', 'The query holds more than one statement (a ";" before its end). A stream runs exactly one SELECT.');
  if (!/^[\s(]*(select|with)\b/i.test(body)) return say('sql.not_a_select', 'The query must be a SELECT (or WITH … SELECT): Tributary only reads.');
  if (dialect === 'mysql' && body.includes('?')) return say('sql.question_mark_placeholder', 'Use named placeholders such as :id, not "?".');
  if (dialect === 'postgresql' && /\$\d/.test(body)) return say('sql.dollar_placeholder', 'Use named placeholders such as :id, not $1.');
  if (dialect === 'mssql') {
    if (/(?<!@)@(?!@)\w/.test(body)) return say('sql.variable_placeholder', 'Use named placeholders such as :id, not @variables.');
    const word = WRITE_WORDS.exec(body);
    if (word)
      return say('sql.write_word', 'The query contains "{word}": a stream only reads (SELECT). MS SQL Server has no read-only mode Tributary could rely on, so such words are refused.', { word: word[1]! });
  }
  return undefined;
}

/** The query without a trailing ";" (and the blanks around it), as sent to the database. */
export function withoutTrailingSemicolon(query: string, dialect: SqlDialect): string {
  const masked = maskSql(query, dialect);
  const match = /[\s;]*$/.exec(masked)!;
  return query.slice(0, match.index);
}

/** State columns the query's last ORDER BY does not mention; undefined when there is no ORDER BY. */
export function columnsMissingFromOrderBy(query: string, columns: readonly string[], dialect?: SqlDialect): string[] | undefined {
  const masked = maskSql(query, dialect);
  const matches = [...masked.matchAll(/\border\s+by\b/gi)];
  if (matches.length === 0) return undefined;
  const tail = query.slice(matches[matches.length - 1]!.index);
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return columns.filter((c) => !new RegExp(`(^|[^\\w])${escape(c)}($|[^\\w])`, 'i').test(tail));
}

const isPrompt = (value: string | undefined) => value !== undefined && value.startsWith(TEMPLATE_PROMPT);

function validTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Why `value` cannot be a value of a state field of `dataType`, or undefined when it can. */
export function stateValueProblem(dataType: string, value: string | number): string | undefined {
  const text = String(value).trim();
  if (dataType === 'integer' && !/^[+-]?\d+$/.test(text)) return `${JSON.stringify(value)} is not a whole number.`;
  if (dataType === 'float' && (text === '' || !Number.isFinite(Number(text)))) return `${JSON.stringify(value)} is not a number.`;
  if (dataType === 'datetime' && (typeof value !== 'string' || !SQL_DATETIME_PATTERN.test(text)))
    return `${JSON.stringify(value)} is not a date-time. Write it like "2026-01-31 06:00:00" (UTC unless an offset such as +01:00 follows).`;
  return undefined;
}

/** Semantic rules of one `sql` receiver at `base` (["data_receiver", r]). */
export function sqlReceiverViolations(receiver: SqlReceiver, base: JsonPath): Violation[] {
  const out: Violation[] = [];
  const names = receiver.connections.map((c) => c.connection_name);
  receiver.connections.forEach((c, k) => {
    const at: JsonPath = [...base, 'connections', k];
    if (c.timezone !== undefined && !isPrompt(c.timezone) && !validTimeZone(c.timezone))
      out.push(error([...at, 'timezone'], say('sql_receiver.known_time_zone_iana', '"{timezone}" is not a known time zone. Use an IANA name such as Europe/Berlin or UTC.', { timezone: c.timezone })));
    if (c.instance_name !== undefined && c.database_type !== 'mssql')
      out.push(warning([...at, 'instance_name'], say('sql_receiver.instance_name_used_ms_sql', 'instance_name is only used for MS SQL Server (database_type mssql); it is ignored here.')));
    if (c.trust_server_certificate && !c.ssl)
      out.push(warning([...at, 'trust_server_certificate'], say('sql_receiver.trust_server_certificate_effect_without_ssl', 'trust_server_certificate has no effect without ssl: true.')));
    if (k > 0 && c.connection_name === undefined)
      out.push(error([...at], say('sql_receiver.several_connections_needs_connection_name', 'With several connections each needs a connection_name, which streams name in "connection".')));
  });
  receiver.streams.forEach((s, j) => {
    const at: JsonPath = [...base, 'streams', j];
    const connection = s.connection === undefined ? receiver.connections[0] : receiver.connections.find((c) => c.connection_name === s.connection);
    if (s.connection !== undefined && !connection)
      out.push(error([...at, 'connection'], say('sql_receiver.connection_named_connections', 'No connection is named "{connection}". Connections: {names}.', { connection: s.connection, names: names.filter(Boolean).join(', ') || 'none has a connection_name' })));
    const dialect = connection?.database_type;
    const placeholders = sqlPlaceholders(s.query, dialect);
    const columns = s.state_fields.map((f) => f.column_name);
    for (const p of placeholders)
      if (!columns.includes(p)) out.push(error([...at, 'query'], say('sql_receiver.placeholder_state_field_add', 'The placeholder :{p} has no state field: add {"column_name": "{p}", "data_type": …} to state_fields.', { p })));
    const seen = new Set<string>();
    s.state_fields.forEach((f, k) => {
      const fieldAt: JsonPath = [...at, 'state_fields', k];
      if (seen.has(f.column_name)) out.push(error([...fieldAt, 'column_name'], say('sql_receiver.state_field_listed_twice', 'The state field "{column_name}" is listed twice.', { column_name: f.column_name })));
      seen.add(f.column_name);
      if (!/^[A-Za-z_]\w*$/.test(f.column_name))
        out.push(error([...fieldAt, 'column_name'], say('sql_receiver.cannot_placeholder_name_letters', '"{column_name}" cannot be a placeholder name: use letters, digits and _ (alias the column in the query if needed).', { column_name: f.column_name })));
      else if (!placeholders.includes(f.column_name))
        out.push(error([...fieldAt, 'column_name'], say('sql_receiver.query_placeholder_without_every', 'The query has no placeholder :{column_name}; without it every poll reads the same rows again.', { column_name: f.column_name })));
      const problem = f.initial_value === undefined ? undefined : stateValueProblem(f.data_type, f.initial_value);
      if (problem) out.push(error([...fieldAt, 'initial_value'], say('sql_receiver.initial_value_must_fit_data_type', '{problem} initial_value must fit data_type {data_type}.', { problem, data_type: f.data_type })));
    });
    const statement = dialect ? sqlStatementProblem(s.query, dialect) : undefined;
    if (statement) out.push(error([...at, 'query'], statement));
    if (s.state_fields.length === 0) {
      out.push(warning([...at, 'state_fields'], say('sql_receiver.without_state_fields_every_poll', 'Without state_fields every poll reads and sends the whole result again (up to max_rows_per_poll rows). Add a state field such as an id to read only new rows.')));
    } else {
      const missing = columnsMissingFromOrderBy(s.query, columns, dialect);
      if (missing === undefined)
        out.push(warning([...at, 'query'], say('sql_receiver.query_order_rows_may', 'The query has no ORDER BY: rows may come in any order and the remembered last value may skip rows. Order by the state column.')));
      else if (missing.length > 0)
        out.push(warning([...at, 'query'], say('sql_receiver.order_does_mention_rows', 'The ORDER BY does not mention {missing}: rows must come in the order of the state field(s), or the remembered last value may skip rows.', { missing: missing.join(', ') })));
    }
  });
  return out;
}
