/**
 * Preview of an SQL receiver: each stream's query run once with the state it would bind now (the
 * committed state of a saved receiver, else the initial values), its first rows turned into records
 * as a poll would. Nothing is committed; the connection is closed again.
 */
import { say } from '../../../../shared/config/message.js';
import { previewProblem, type PreviewProblem } from '../../../../shared/api/preview.js';
import type { z } from 'zod';
import type { SqlReceiverSchema } from '../../../../shared/config/schema.js';
import { sqlStatementProblem } from '../../../../shared/config/receivers/sql/rules.js';
import { type AgentRecord, type FieldValue, isoMicros } from '../../../../shared/records/record.js';
import type { Logger } from '../../logging/logger.js';
import type { StreamKey } from '../../components/contract.js';
import { type SqlDriver, SqlError, connectionLabel, prepareStatement } from './sql-driver.js';
import { findColumn, timestampMicros, uniqueNames } from './sql-poll.js';
import { createSqlDriver } from './sql-receiver.js';
import { type BoundValue, fieldValueOf, initialStateValue } from './sql-values.js';

type SqlReceiverConfig = z.infer<typeof SqlReceiverSchema>;

export interface SqlStreamPreview {
  key: StreamKey;
  source: string | null;
  records: AgentRecord[];
  problems: PreviewProblem[];
}

export async function previewSql(
  receiver: SqlReceiverConfig,
  options: { rows: number; nowMicros: bigint; logger: Logger; savedState: (key: StreamKey, column: string) => string | undefined },
): Promise<SqlStreamPreview[]> {
  const drivers = new Map<string, SqlDriver>();
  const failed = new Map<string, PreviewProblem>();
  const previews: SqlStreamPreview[] = [];
  try {
    for (const stream of receiver.streams) {
      const key = { asset: stream.asset, stream_type: stream.stream_type };
      const connection = stream.connection === undefined ? receiver.connections[0]! : receiver.connections.find((c) => c.connection_name === stream.connection)!;
      const id = connection.connection_name ?? connectionLabel(connection);
      const fields = stream.state_fields;
      const state = fields.map((f) => options.savedState(key, f.column_name) ?? initialStateValue(f));
      const bound = fields.map((f, i) => `:${f.column_name} = ${state[i]}`).join(', ');
      const preview: SqlStreamPreview = { key, source: `${stream.query}${bound ? ` (with ${bound})` : ''} on ${connectionLabel(connection)}`, records: [], problems: [] };
      previews.push(preview);
      const refused = sqlStatementProblem(stream.query, connection.database_type);
      if (refused) {
        preview.problems.push(previewProblem('error', refused));
        continue;
      }
      if (failed.has(id)) {
        preview.problems.push(failed.get(id)!);
        continue;
      }
      let driver = drivers.get(id);
      if (!driver) drivers.set(id, (driver = createSqlDriver(connection, options.logger)));
      const parameters: BoundValue[] = fields.map((f, i) => ({ name: f.column_name, type: f.data_type, value: state[i]! }));
      const timeZone = connection.timezone ?? 'UTC';
      const timestampColumn = stream.timestamp_column ?? fields.find((f) => f.data_type === 'datetime')?.column_name;
      const capturetime = isoMicros(options.nowMicros);
      try {
        await driver.read({
          statement: prepareStatement(stream.query, connection.database_type, fields),
          parameters,
          maxRows: options.rows,
          pageRows: options.rows,
          onPage: (columns, rows) => {
            const names = uniqueNames(columns);
            const timestamp = timestampColumn === undefined ? undefined : findColumn(columns, timestampColumn);
            if (stream.timestamp_column !== undefined && timestamp === undefined)
              preview.problems.push(
                previewProblem('error', say('sql.preview_no_timestamp_column', "The query's result has no column {column} (timestamp_column). Columns: {columns}.", { column: stream.timestamp_column, columns: columns.join(', ') })),
              );
            const missing = fields.filter((f) => findColumn(columns, f.column_name) === undefined).map((f) => f.column_name);
            if (missing.length > 0)
              preview.problems.push(
                previewProblem('error', say('sql.preview_no_state_column', "The query's result has no column {missing} (state_fields): the receiver would stop at this stream. Columns: {columns}.", { missing: missing.join(', '), columns: columns.join(', ') })),
              );
            for (const row of rows) {
              if (preview.records.length >= options.rows) break;
              const fieldvalues: Record<string, FieldValue> = {};
              names.forEach((name, i) => (fieldvalues[name] = fieldValueOf(row[i]!, timeZone)));
              const micros = timestamp === undefined ? undefined : timestampMicros(row[timestamp], timeZone);
              preview.records.push({ ...key, timestamp: micros === undefined ? capturetime : isoMicros(micros), capturetime, fieldvalues, record_id: '' });
            }
          },
        });
        if (preview.records.length === 0)
          preview.problems.push(
            previewProblem('warning', bound ? say('sql.preview_no_rows', 'The query returns no rows with {bound}: nothing new to read now.', { bound }) : say('sql.preview_no_rows_unbound', 'The query returns no rows with no state bound: nothing new to read now.')),
          );
      } catch (cause) {
        // The driver's words alone: that Tributary keeps trying is the running receiver's (retrySaid), a preview does not retry.
        const problem: PreviewProblem =
          cause instanceof SqlError ? previewProblem('error', cause.said) : previewProblem('error', say('sql.preview_query_failed', 'The query failed: {error}', { error: (cause as Error).message }));
        preview.problems.push(problem);
        if (cause instanceof SqlError && cause.connectionLevel) failed.set(id, problem);
      }
    }
    return previews;
  } finally {
    await Promise.all([...drivers.values()].map((driver) => driver.close().catch(() => undefined)));
  }
}
