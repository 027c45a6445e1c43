/**
 * A fast BSON encoder for records: byte for byte what `BSON.serialize(toDocument(record))` in
 * wire.ts produces (js-bson 6), written straight into one growing Buffer for a whole batch.
 *
 * The fast path covers what records carry: string `asset`, `stream_type`, `record_id`, string
 * `timestamp`/`capturetime`, and `fieldvalues` a plain object of strings, numbers, booleans and
 * null (undefined is skipped, as js-bson does). js-bson's rules are reproduced exactly: a number is
 * an int32 when it is a safe integer in int32 range and not -0, else a double (NaN, ±Infinity and
 * -0 included); a date is int64 milliseconds, 0 for an invalid date. Two names js-bson refuses
 * are written anyway, because they come from a source's data and one such row must not fail its
 * batch forever: a `_bsontype` column is an ordinary field here, and a NUL in a name (BSON names
 * are NUL-terminated) is written as U+FFFD, the replacement character. Anything else (another value
 * type, a patched prototype, a huge document) goes through js-bson itself; what js-bson cannot
 * encode is written with its names repaired and its odd values as text (`bsonSafe`), never an error.
 *
 * Reading back (splitting, sort keys, merging batches) is in bson-documents.ts. Sorting by the
 * documents' keys can differ from wire.ts's sortForUpload in one way: time stamps within the same
 * millisecond (documents hold milliseconds) sort by record_id.
 */
import { BSON } from 'bson';
import os from 'node:os';
import type { AgentRecord } from '../../../../shared/records/record.js';
import { isoToEpochMs } from '../../time/iso-time.js';
import { toDocument } from './wire.js';

/** Documents back to back in `bytes`; document i is `bytes.subarray(i ? ends[i - 1] : 0, ends[i])`. */
export interface EncodedRecords {
  bytes: Buffer;
  ends: Uint32Array;
}

// js-bson serializes into a 17 MiB scratch buffer; leave documents anywhere near that to it.
export const MAX_FAST_DOCUMENT = 16 * 1024 * 1024;
const LITTLE_ENDIAN = os.endianness() === 'LE';
const FLOAT = new Float64Array(1);
const FLOAT_BYTES = new Uint8Array(FLOAT.buffer);
const TWO_32 = 4_294_967_296;

const keyBytes = (type: number, key: string) => Uint8Array.from([type, ...Buffer.from(key, 'latin1'), 0]);
export const ASSET = keyBytes(0x02, 'asset');
export const STREAM_TYPE = keyBytes(0x02, 'stream_type');
export const TIMESTAMP = keyBytes(0x09, 'timestamp');
export const CAPTURETIME = keyBytes(0x09, 'capturetime');
export const RECORD_ID = keyBytes(0x02, 'record_id');
export const FIELDVALUES = keyBytes(0x03, 'fieldvalues');


// ------------------------------------------------------------------ encoding

/** A prototype patch that changes what js-bson does (toBSON, _bsontype, enumerable additions). */
export function prototypesArePatched(): boolean {
  for (const proto of [Object.prototype, String.prototype, Number.prototype, Boolean.prototype, Date.prototype]) {
    if ('toBSON' in proto || '_bsontype' in proto) return true;
  }
  for (const _key in Object.prototype) return true;
  return false;
}

// writeRecord's answers besides an end offset.
const NEED_ROOM = -1;
export const USE_BSON = -2;

export function putInt32(buf: Buffer, at: number, value: number): void {
  buf[at] = value;
  buf[at + 1] = value >> 8;
  buf[at + 2] = value >> 16;
  buf[at + 3] = value >> 24;
}

export function putBytes(buf: Buffer, pos: number, bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i += 1) buf[pos + i] = bytes[i]!;
  return pos + bytes.length;
}

/** A string value: int32 length (with the NUL), UTF-8 bytes, NUL. Room for 3 bytes a code unit + 5. */
export function putString(buf: Buffer, pos: number, text: string): number {
  const n = text.length;
  const at = pos + 4;
  let i = 0;
  if (n <= 48) {
    for (; i < n; i += 1) {
      const code = text.charCodeAt(i);
      if (code > 127) break;
      buf[at + i] = code;
    }
  }
  const written = i === n ? n : buf.write(text, at, 'utf8');
  buf[at + written] = 0;
  putInt32(buf, pos, written + 1);
  return at + written + 1;
}

/** The name BSON can hold: a NUL (it ends a name) becomes U+FFFD. */
export const bsonName = (key: string): string => (key.includes('\0') ? key.replaceAll('\0', '\uFFFD') : key);

/** An element name and its NUL (a NUL inside the name is written as U+FFFD, see bsonName). */
export function putKey(buf: Buffer, pos: number, key: string): number {
  const n = key.length;
  for (let i = 0; i < n; i += 1) {
    const code = key.charCodeAt(i);
    if (code === 0 || code > 127) {
      const end = pos + buf.write(bsonName(key), pos, 'utf8');
      buf[end] = 0;
      return end + 1;
    }
    buf[pos + i] = code;
  }
  buf[pos + n] = 0;
  return pos + n + 1;
}

/** int64 milliseconds as js-bson's Long.fromNumber writes them (0 for NaN). */
export function putDate(buf: Buffer, pos: number, ms: number): number {
  if (ms === ms) {
    putInt32(buf, pos, ms >>> 0);
    putInt32(buf, pos + 4, Math.floor(ms / TWO_32) | 0);
  } else {
    putInt32(buf, pos, 0);
    putInt32(buf, pos + 4, 0);
  }
  return pos + 8;
}

export function putDouble(buf: Buffer, pos: number, value: number): number {
  if (!LITTLE_ENDIAN) return buf.writeDoubleLE(value, pos);
  FLOAT[0] = value;
  for (let i = 0; i < 8; i += 1) buf[pos + i] = FLOAT_BYTES[i]!;
  return pos + 8;
}

/**
 * The last time stamp texts read, with their epoch ms: a batch's records often share their
 * capturetime (one read), or their time. One per writer.
 */
interface TimeCache {
  timestamp: string;
  timestampMs: number;
  capturetime: string;
  capturetimeMs: number;
}

/** The record's document at `pos`: its end, NEED_ROOM (nothing counts) or USE_BSON. */
function writeRecord(buf: Buffer, pos: number, record: AgentRecord, times: TimeCache): number {
  const { asset, stream_type: streamType, timestamp, capturetime, record_id: recordId, fieldvalues } = record;
  if (typeof asset !== 'string' || typeof streamType !== 'string' || typeof timestamp !== 'string' || typeof capturetime !== 'string') return USE_BSON;
  if (typeof recordId !== 'string' || typeof fieldvalues !== 'object' || fieldvalues === null) return USE_BSON;
  const proto: unknown = Object.getPrototypeOf(fieldvalues);
  if (proto !== Object.prototype && proto !== null) return USE_BSON;
  const limit = buf.length;
  if (pos + 160 + 3 * (asset.length + streamType.length + recordId.length) > limit) return NEED_ROOM;

  const start = pos;
  pos = putString(buf, putBytes(buf, pos + 4, ASSET), asset);
  pos = putString(buf, putBytes(buf, pos, STREAM_TYPE), streamType);
  if (timestamp !== times.timestamp) times.timestampMs = isoToEpochMs((times.timestamp = timestamp));
  pos = putDate(buf, putBytes(buf, pos, TIMESTAMP), times.timestampMs);
  if (capturetime !== times.capturetime) times.capturetimeMs = isoToEpochMs((times.capturetime = capturetime));
  pos = putDate(buf, putBytes(buf, pos, CAPTURETIME), times.capturetimeMs);
  pos = putString(buf, putBytes(buf, pos, RECORD_ID), recordId);
  pos = putBytes(buf, pos, FIELDVALUES);
  const fieldsStart = pos;
  pos += 4;
  for (const key in fieldvalues) {
    const value = fieldvalues[key];
    if (value === undefined) continue;
    const type = typeof value;
    // Element: type, name (3 bytes a code unit), NUL, value (at most 8 bytes, or 5 + 3 a code unit); 2 more for the ends.
    if (pos + 16 + 3 * key.length + (type === 'string' ? 3 * (value as string).length : 0) > limit) return NEED_ROOM;
    if (value !== null && type !== 'string' && type !== 'number' && type !== 'boolean') return USE_BSON;
    const typeAt = pos;
    pos = putKey(buf, pos + 1, key);
    pos = putScalar(buf, typeAt, pos, value as string | number | boolean | null);
  }
  buf[pos++] = 0;
  putInt32(buf, fieldsStart, pos - fieldsStart);
  buf[pos++] = 0;
  putInt32(buf, start, pos - start);
  return pos;
}


/**
 * A scalar element's type byte (at typeAt) and value (at pos): a string, a number (int32 when it is
 * one, else double), a boolean or null. Returns the end of the value.
 */
export function putScalar(buf: Buffer, typeAt: number, pos: number, value: string | number | boolean | null): number {
  if (typeof value === 'string') {
    buf[typeAt] = 0x02;
    return putString(buf, pos, value);
  }
  if (typeof value === 'number') {
    if ((value | 0) === value && (value !== 0 || 1 / value > 0)) {
      buf[typeAt] = 0x10;
      putInt32(buf, pos, value);
      return pos + 4;
    }
    buf[typeAt] = 0x01;
    return putDouble(buf, pos, value);
  }
  if (typeof value === 'boolean') {
    buf[typeAt] = 0x08;
    buf[pos] = value ? 1 : 0;
    return pos + 1;
  }
  buf[typeAt] = 0x0a;
  return pos;
}
/**
 * js-bson's document for a record the fast path leaves to it; if js-bson refuses it (a `_bsontype`
 * or NUL name beside an odd value, a value it cannot encode), the record made BSON-safe instead.
 */
function serializeOrRepair(record: AgentRecord): Uint8Array {
  try {
    return BSON.serialize(toDocument(record));
  } catch {
    return encodeSafely(bsonSafe(record));
  }
}

/** A value BSON stores as is: scalars stay, anything else becomes its JSON text (or its String). */
function safeValue(value: unknown): string | number | boolean | null | undefined {
  if (value === undefined || value === null) return value;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  try {
    return JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'bigint' ? inner.toString() : inner)) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The record with text where text belongs and plain scalar fields (names repaired when written). */
export function bsonSafe(record: AgentRecord): AgentRecord {
  const text = (value: unknown) => (typeof value === 'string' ? value : String(safeValue(value) ?? ''));
  // No prototype: a `__proto__` column stays a field.
  const fieldvalues = Object.create(null) as Record<string, string | number | boolean | null>;
  const source = record.fieldvalues as unknown;
  if (typeof source === 'object' && source !== null) {
    for (const [key, value] of Object.entries(source)) {
      const safe = safeValue(value);
      if (safe !== undefined) fieldvalues[key] = safe;
    }
  }
  return {
    asset: text(record.asset),
    stream_type: text(record.stream_type),
    timestamp: text(record.timestamp),
    capturetime: text(record.capturetime),
    record_id: text(record.record_id),
    fieldvalues,
  } as AgentRecord;
}

/** A BSON-safe record through the fast writer (which takes any size: the result is at most what js-bson would make). */
function encodeSafely(record: AgentRecord): Buffer {
  const times: TimeCache = { timestamp: '', timestampMs: Number.NaN, capturetime: '', capturetimeMs: Number.NaN };
  let buf = Buffer.allocUnsafe(1024);
  let end = writeRecord(buf, 0, record, times);
  while (end === NEED_ROOM) {
    buf = Buffer.allocUnsafe(buf.length * 2);
    end = writeRecord(buf, 0, record, times);
  }
  return buf.subarray(0, end);
}

/**
 * Appends record documents to one growing Buffer: reuse one writer for a stream of records, or
 * use `encodeRecords` for a batch.
 */
export class RecordBsonWriter {
  private buf: Buffer;
  private pos = 0;
  private ends: Uint32Array;
  private count = 0;
  private patched = prototypesArePatched();
  private readonly times: TimeCache = { timestamp: '', timestampMs: Number.NaN, capturetime: '', capturetimeMs: Number.NaN };

  constructor(initialBytes = 64 * 1024, initialRecords = 256) {
    this.buf = Buffer.allocUnsafe(Math.max(256, initialBytes));
    this.ends = new Uint32Array(Math.max(1, initialRecords));
  }

  /** Bytes written so far. */
  get length(): number {
    return this.pos;
  }

  /** Documents written so far. */
  get documents(): number {
    return this.count;
  }

  /** Makes room for `bytes` more bytes at once (growing is automatic, this only saves copies). */
  reserve(bytes: number): void {
    const needed = this.pos + bytes;
    if (needed <= this.buf.length) return;
    let size = Math.max(256, this.buf.length * 2);
    while (size < needed) size *= 2;
    this.resize(size);
  }

  /** Encodes one record after the previous ones; returns the end offset of its document. */
  append(record: AgentRecord): number {
    const start = this.pos;
    let end = this.patched ? USE_BSON : writeRecord(this.buf, start, record, this.times);
    while (end === NEED_ROOM) {
      this.resize(Math.max(256, this.buf.length * 2));
      end = writeRecord(this.buf, start, record, this.times);
    }
    if (end === USE_BSON || end - start > MAX_FAST_DOCUMENT) {
      const document = serializeOrRepair(record);
      this.reserve(document.length);
      this.buf.set(document, start);
      end = start + document.length;
    }
    this.pos = end;
    if (this.count === this.ends.length) {
      const ends = new Uint32Array(this.ends.length * 2);
      ends.set(this.ends);
      this.ends = ends;
    }
    this.ends[this.count++] = end;
    return end;
  }

  /** The documents so far (copied to their size when that saves much memory); the writer starts over. */
  finish(): EncodedRecords {
    const bytes = this.pos < this.buf.length * 0.75 ? Buffer.from(this.buf.subarray(0, this.pos)) : this.buf.subarray(0, this.pos);
    const ends = this.count === this.ends.length ? this.ends : this.ends.slice(0, this.count);
    // Fresh storage on the next append: the caller owns what was returned.
    this.buf = Buffer.alloc(0);
    this.ends = new Uint32Array(Math.min(Math.max(this.ends.length, 1), 256));
    this.pos = 0;
    this.count = 0;
    this.patched = prototypesArePatched();
    return { bytes, ends };
  }

  private resize(size: number): void {
    const bigger = Buffer.allocUnsafe(size);
    this.buf.copy(bigger, 0, 0, this.pos);
    this.buf = bigger;
  }
}

/** All records' documents, back to back, in the order given. */
export function encodeRecords(records: readonly AgentRecord[]): EncodedRecords {
  const writer = new RecordBsonWriter(records.length > 0 ? 1024 : 256, records.length);
  for (let i = 0; i < records.length; i += 1) {
    writer.append(records[i]!);
    // Size the buffer for the whole batch from its first documents: no copies as it grows.
    if (i === 7) writer.reserve(Math.ceil((writer.length / 8) * (records.length - 8) * 1.1) + 512);
  }
  return writer.finish();
}

/** One record's document (a fresh Buffer); for many records, encodeRecords is faster. */
export function encodeRecord(record: AgentRecord): Buffer {
  const writer = new RecordBsonWriter(512, 1);
  writer.append(record);
  return writer.finish().bytes;
}
