import type { AgentRecord, FieldValue } from '../../../../shared/records/record.js';
import type { EncodedBatch, OutboxCodec } from '../../components/contract.js';
import { recordSpan } from '../../components/record-span.js';

/**
 * How the csv transmit keeps records in its outbox: by column, as CSV rows are. A run of records
 * with the same asset, stream type and columns (in their key order) is one segment: its column
 * names once, then one array per record, `[timestamp, capturetime, record_id, ...values]`. Stored
 * as JSON, so that types and nulls come back exactly (decode gives the records as they were).
 *
 * Records as objects (RECORDS_JSON, the format before, still read) wrote every column name into
 * every record and read each back as an object of hundreds of keys, only to lay the values out in
 * column order again: at 20,000 OPC UA tags a second that parse was the largest part of the
 * transmit's work (docs/performance.md, issue 40 point 2). The transmit reads segments directly
 * (csv-transmit.ts); the KPI history keeps the payload as it is.
 */
export type Segment = [asset: string, streamType: string, columns: string[], rows: FieldValue[][]];

/** The values of a row before its columns: timestamp, capturetime, record_id. */
export const FIXED_CELLS = 3;

function sameColumns(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

export function toSegments(records: readonly AgentRecord[]): Segment[] {
  const segments: Segment[] = [];
  let current: Segment | undefined;
  for (const record of records) {
    const columns = Object.keys(record.fieldvalues);
    if (!current || current[0] !== record.asset || current[1] !== record.stream_type || !sameColumns(current[2], columns)) {
      current = [record.asset, record.stream_type, columns, []];
      segments.push(current);
    }
    const row: FieldValue[] = [record.timestamp, record.capturetime, record.record_id];
    for (const column of current[2]) row.push(record.fieldvalues[column]!);
    current[3].push(row);
  }
  return segments;
}

export function parseSegments(payload: Buffer): Segment[] {
  const parsed: unknown = JSON.parse(payload.toString('utf8'));
  if (!Array.isArray(parsed)) throw new Error('A csv outbox batch is not a list of segments.');
  return parsed as Segment[];
}

/** The records of segments (own keys only: a column named `__proto__` stays a column). */
export function recordsOf(segments: readonly Segment[]): AgentRecord[] {
  const records: AgentRecord[] = [];
  for (const [asset, stream_type, columns, rows] of segments) {
    for (const row of rows) {
      const fieldvalues: Record<string, FieldValue> = {};
      columns.forEach((column, i) => {
        const value = row[FIXED_CELLS + i] ?? null;
        if (column === '__proto__') Object.defineProperty(fieldvalues, column, { value, enumerable: true, writable: true, configurable: true });
        else fieldvalues[column] = value;
      });
      records.push({ asset, stream_type, timestamp: String(row[0]), capturetime: String(row[1]), fieldvalues, record_id: String(row[2]) });
    }
  }
  return records;
}

export const CSV_OUTBOX: OutboxCodec<Record<string, never>> = {
  format: 'csv-columns',
  options: () => ({}),
  encode(records) {
    if (records.length === 0) return [];
    const batch: EncodedBatch = { payload: Buffer.from(JSON.stringify(toSegments(records))), records: records.length, first: records[0]!, last: records[records.length - 1]! };
    // Rows are not always sorted by time (files): the KPI history keeps the batch's span.
    const span = recordSpan(records);
    if (span) batch.span = span;
    return [batch];
  },
  decode: (payload) => recordsOf(parseSegments(payload)),
  keptByHistory: true,
};
