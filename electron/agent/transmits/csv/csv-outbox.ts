import type { AgentRecord, FieldValue } from '../../../../shared/records/record.js';
import type { EncodedBatch, OutboxCodec } from '../../components/contract.js';
import { recordSpan } from '../../components/record-span.js';
import { FIXED_CELLS, cell, csvText, joined, reorderLines, sameColumns, splitLines, unquote } from './csv-cells.js';

/**
 * How the csv transmit keeps records in its outbox: as the CSV lines it will write. A run of
 * records with the same asset, stream type and columns (in their key order) is one segment. The
 * payload is one JSON line naming the segments — `[asset, streamType, kinds, rows, columnBytes,
 * bytes]` each — followed by each segment's columns (`columnBytes` bytes: a JSON list of names) and
 * body (`bytes` bytes of CSV lines `timestamp,capturetime,record_id,…` in `columns` order, exactly as
 * the transmit appends them to a file with those columns). The columns stand apart so that a reader
 * seeing the same ones again (a machine's hundreds of tags, every second) keeps the list it has.
 *
 * `kinds` has a letter per column saying what its non-empty cells are — `n` numbers, `b` booleans,
 * `s` strings (never empty) — so that decoding (the KPI history) gives back exactly the records
 * stored: types and nulls. A segment whose cells would not say that (a column holding numbers and
 * strings, an empty string) has `kinds` null and its rows as JSON instead (`csvText` when written).
 *
 * Before (format `csv-columns`, CSV_COLUMNS_OUTBOX, still read) the rows were JSON arrays, parsed by
 * the transmit only to be written out as CSV again: at 20,000 OPC UA tags a second, encoding, parsing
 * and writing those rows were ~14 % of the agent's main thread (docs/performance.md, issue 40).
 */
type SegmentHead = [asset: string, streamType: string, kinds: string | null, rows: number, columnBytes: number, bytes: number];

/** Records by column (the `csv-columns` format, and a segment with kinds null): `[timestamp, capturetime, record_id, ...values]` per record. */
export type Segment = [asset: string, streamType: string, columns: string[], rows: FieldValue[][]];

/** A segment as the transmit writes it: its lines as stored (`text`) or its rows (`values`). */
export interface OutboxSegment {
  asset: string;
  streamType: string;
  columns: string[];
  rows: number;
  /** CSV lines in `columns` order, and what its cells are (a letter per column). */
  text?: Buffer;
  kinds?: string;
  values?: FieldValue[][];
}

const NUMBER = 'n';
const BOOLEAN = 'b';
const STRING = 's';

/** A value's kind letter; '' for an empty cell; undefined when a cell could not say it (an empty string). */
function kindOf(value: FieldValue | undefined): string | undefined {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? NUMBER : '';
  if (typeof value === 'boolean') return BOOLEAN;
  return typeof value === 'string' && value !== '' ? STRING : undefined;
}

/** Runs of records with the same stream and columns. */
function runs(records: readonly AgentRecord[]): { columns: string[]; records: AgentRecord[] }[] {
  const out: { columns: string[]; records: AgentRecord[] }[] = [];
  let current: { columns: string[]; records: AgentRecord[] } | undefined;
  let previous: AgentRecord | undefined;
  for (const record of records) {
    const columns = Object.keys(record.fieldvalues);
    if (!current || previous!.asset !== record.asset || previous!.stream_type !== record.stream_type || !sameColumns(current.columns, columns)) {
      current = { columns, records: [] };
      out.push(current);
    }
    current.records.push(record);
    previous = record;
  }
  return out;
}

function rowOf(record: AgentRecord): FieldValue[] {
  const row: FieldValue[] = [record.timestamp, record.capturetime, record.record_id];
  for (const value of Object.values(record.fieldvalues)) row.push(value === undefined ? null : value);
  return row;
}

/** A run's CSV lines and its columns' kinds; kinds undefined when the cells would not say them. */
function linesOf(run: { columns: string[]; records: AgentRecord[] }): { text: string; kinds: string | undefined } {
  const kinds: string[] = run.columns.map(() => '');
  let exact = true;
  const parts: (string | number | boolean)[] = [];
  for (const record of run.records) {
    parts.push(cell(record.timestamp), ',', cell(record.capturetime), ',', cell(record.record_id));
    let i = 0;
    for (const value of Object.values(record.fieldvalues)) {
      const kind = kindOf(value);
      if (kind === undefined) exact = false;
      else if (kind !== '' && kind !== kinds[i]) {
        if (kinds[i] === '') kinds[i] = kind;
        else exact = false;
      }
      parts.push(',', joined(value));
      i += 1;
    }
    parts.push('\n');
  }
  // A column without values reads back as empty whatever its letter.
  return { text: parts.join(''), kinds: exact ? kinds.map((k) => k || NUMBER).join('') : undefined };
}

function encodePayload(records: readonly AgentRecord[]): Buffer {
  const heads: SegmentHead[] = [];
  const parts: string[] = [];
  for (const run of runs(records)) {
    const first = run.records[0]!;
    const { text, kinds } = linesOf(run);
    const columns = JSON.stringify(run.columns);
    const body = kinds === undefined ? JSON.stringify(run.records.map(rowOf)) : text;
    heads.push([first.asset, first.stream_type, kinds ?? null, run.records.length, Buffer.byteLength(columns), Buffer.byteLength(body)]);
    parts.push(columns, body);
  }
  return Buffer.from(`${JSON.stringify(heads)}\n${parts.join('')}`, 'utf8');
}

/**
 * The column lists a reader saw last, per stream: the same bytes again give the same list (no
 * parse, and a list the transmit recognises by identity). Bounded: cleared when it holds too many.
 */
export class ColumnLists {
  private readonly lists = new Map<string, { bytes: Buffer; columns: string[] }>();

  constructor(private readonly max = 4096) {}

  of(asset: string, streamType: string, bytes: Buffer): string[] {
    const key = `${asset}\0${streamType}`;
    const known = this.lists.get(key);
    if (known && known.bytes.equals(bytes)) return known.columns;
    const columns: unknown = JSON.parse(bytes.toString('utf8'));
    if (!Array.isArray(columns) || !columns.every((c) => typeof c === 'string')) throw new Error('A csv outbox batch has a column list that is not a list of names.');
    if (this.lists.size >= this.max) this.lists.clear();
    // A copy: the list must not keep the whole payload alive.
    this.lists.set(key, { bytes: Buffer.from(bytes), columns });
    return columns;
  }
}

/** The segments of a `csv-text` payload, their bodies as slices of it (no copy). */
export function readSegments(payload: Buffer, lists = new ColumnLists()): OutboxSegment[] {
  const newline = payload.indexOf(10);
  if (newline < 0) throw new Error('A csv outbox batch has no segment list.');
  const heads: unknown = JSON.parse(payload.subarray(0, newline).toString('utf8'));
  if (!Array.isArray(heads)) throw new Error('A csv outbox batch does not start with a segment list.');
  let at = newline + 1;
  const slice = (bytes: number) => {
    const part = payload.subarray(at, (at += bytes));
    if (part.length !== bytes) throw new Error('A csv outbox batch is shorter than its segment list says.');
    return part;
  };
  return (heads as SegmentHead[]).map(([asset, streamType, kinds, rows, columnBytes, bytes]) => {
    const columns = lists.of(asset, streamType, slice(columnBytes));
    const body = slice(bytes);
    return kinds === null ? { asset, streamType, columns, rows, values: JSON.parse(body.toString('utf8')) as FieldValue[][] } : { asset, streamType, columns, rows, text: body, kinds };
  });
}

/** Records by column (the `csv-columns` format, and what the transmit writes of other formats). */
export function toSegments(records: readonly AgentRecord[]): Segment[] {
  return runs(records).map(({ columns, records: run }) => [run[0]!.asset, run[0]!.stream_type, columns, run.map(rowOf)]);
}

/** Segments by column as the transmit writes them. */
export function valueSegments(segments: readonly Segment[]): OutboxSegment[] {
  return segments.map(([asset, streamType, columns, values]) => ({ asset, streamType, columns, rows: values.length, values }));
}

/** The CSV lines of a segment in a file's column order (`fileColumns` holds every column of the segment, maybe more: those are empty). */
export function segmentLines(segment: OutboxSegment, fileColumns: readonly string[]): Buffer {
  if (segment.values) return Buffer.from(csvText(fileColumns, segment.columns, segment.values), 'utf8');
  if (sameColumns(fileColumns, segment.columns)) return segment.text!;
  return Buffer.from(reorderLines(segment.text!.toString('utf8'), fileColumns, segment.columns), 'utf8');
}

/** A stored cell's value by its column's kind letter. */
function valueOf(raw: string, kind: string): FieldValue {
  if (raw === '') return null;
  if (kind === NUMBER) return Number(raw);
  if (kind === BOOLEAN) return raw === 'true';
  return unquote(raw);
}

/** The records of segments (own keys only: a column named `__proto__` stays a column). */
function recordsOf(segments: readonly OutboxSegment[]): AgentRecord[] {
  const records: AgentRecord[] = [];
  for (const segment of segments) {
    const { asset, streamType: stream_type, columns } = segment;
    const { kinds } = segment;
    const rows = segment.values ?? splitLines(segment.text!.toString('utf8')).map((cells) => cells.map((raw, i) => (i < FIXED_CELLS ? unquote(raw) : valueOf(raw, kinds![i - FIXED_CELLS]!))));
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
  format: 'csv-text',
  options: () => ({}),
  encode(records) {
    if (records.length === 0) return [];
    const batch: EncodedBatch = { payload: encodePayload(records), records: records.length, first: records[0]!, last: records[records.length - 1]! };
    // Rows are not always sorted by time (files): the KPI history keeps the batch's span.
    const span = recordSpan(records);
    if (span) batch.span = span;
    return [batch];
  },
  decode: (payload) => recordsOf(readSegments(payload)),
  keptByHistory: true,
};

/** Batches the builds before `csv-text` stored (a JSON list of segments by column): still read. */
export const CSV_COLUMNS_OUTBOX: OutboxCodec<Record<string, never>> = {
  format: 'csv-columns',
  options: () => ({}),
  encode: (records) => (records.length === 0 ? [] : [{ payload: Buffer.from(JSON.stringify(toSegments(records))), records: records.length, first: records[0]!, last: records[records.length - 1]! }]),
  decode(payload) {
    const parsed: unknown = JSON.parse(payload.toString('utf8'));
    if (!Array.isArray(parsed)) throw new Error('A csv outbox batch is not a list of segments.');
    return recordsOf(valueSegments(parsed as Segment[]));
  },
  keptByHistory: true,
};
