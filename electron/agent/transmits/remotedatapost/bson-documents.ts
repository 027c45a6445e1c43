/**
 * Reading back concatenated record documents (record-bson.ts writes them) without deserializing:
 * `splitDocuments` finds the documents by their length prefixes, `documentSortKey` reads asset,
 * timestamp and record_id, and `sortDocuments` merges several encoded batches into the upload
 * order of wire.ts's sortForUpload (see record-bson.ts for the one way the orders can differ:
 * time stamps within the same millisecond).
 */
import type { EncodedRecords } from './record-bson.js';

/** What sortForUpload orders by, as stored in a document (the time only to the millisecond). */
export interface DocumentSortKey {
  asset: string;
  timestampMs: number;
  recordId: string;
}

const TWO_32 = 4_294_967_296;
const readInt32 = (bytes: Uint8Array, at: number) => bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24);

/** End offsets of the documents in a concatenation (as in EncodedRecords); throws if malformed. */
export function splitDocuments(bytes: Uint8Array): Uint32Array {
  let ends = new Uint32Array(64);
  let count = 0;
  let at = 0;
  while (at < bytes.length) {
    const size = at + 4 <= bytes.length ? readInt32(bytes, at) : -1;
    if (size < 5 || at + size > bytes.length || bytes[at + size - 1] !== 0) throw new RangeError(`No BSON document at byte ${at}`);
    at += size;
    if (count === ends.length) {
      const bigger = new Uint32Array(count * 2);
      bigger.set(ends);
      ends = bigger;
    }
    ends[count++] = at;
  }
  return ends.slice(0, count);
}

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

function readCString(bytes: Uint8Array, at: number, end: number): number {
  while (at < end && bytes[at] !== 0) at += 1;
  if (at >= end) throw new RangeError('Unterminated BSON element name');
  return at;
}

function decodeString(bytes: Uint8Array, start: number, end: number): string {
  if (end - start <= 32) {
    let text = '';
    for (let i = start; i < end; i += 1) {
      const code = bytes[i]!;
      if (code > 127) return decoder.decode(bytes.subarray(start, end));
      text += String.fromCharCode(code);
    }
    return text;
  }
  return decoder.decode(bytes.subarray(start, end));
}

/** Whether bytes[at..] spells `name` (ASCII) followed by the name's NUL at `nul`. */
function nameIs(bytes: Uint8Array, at: number, nul: number, name: string): boolean {
  if (nul - at !== name.length) return false;
  for (let i = 0; i < name.length; i += 1) if (bytes[at + i] !== name.charCodeAt(i)) return false;
  return true;
}

/** Size in bytes of an element value of `type` at `at` (the types js-bson writes). */
function valueSize(bytes: Uint8Array, type: number, at: number, end: number): number {
  switch (type) {
    case 0x01: case 0x09: case 0x11: case 0x12: return 8;
    case 0x02: case 0x0d: case 0x0e: return 4 + readInt32(bytes, at);
    case 0x03: case 0x04: case 0x0f: return readInt32(bytes, at);
    case 0x05: return 5 + readInt32(bytes, at);
    case 0x06: case 0x0a: case 0x7f: case 0xff: return 0;
    case 0x07: return 12;
    case 0x08: return 1;
    case 0x0b: { const first = readCString(bytes, at, end); return readCString(bytes, first + 1, end) + 1 - at; }
    case 0x0c: return 4 + readInt32(bytes, at) + 12;
    case 0x10: return 4;
    case 0x13: return 16;
    default: throw new RangeError(`Unknown BSON type 0x${type.toString(16)}`);
  }
}

/**
 * asset, timestamp (epoch ms) and record_id of the record document at `start`, read without
 * deserializing it. Throws when the document is not a record document.
 */
export function documentSortKey(bytes: Uint8Array, start: number): DocumentSortKey {
  const end = start + readInt32(bytes, start) - 1;
  let asset: string | undefined;
  let recordId: string | undefined;
  let timestampMs: number | undefined;
  let at = start + 4;
  while (at < end && (asset === undefined || recordId === undefined || timestampMs === undefined)) {
    const type = bytes[at]!;
    const nameAt = at + 1;
    const nul = readCString(bytes, nameAt, end);
    const valueAt = nul + 1;
    if (type === 0x02 && asset === undefined && nameIs(bytes, nameAt, nul, 'asset')) {
      asset = decodeString(bytes, valueAt + 4, valueAt + 3 + readInt32(bytes, valueAt));
    } else if (type === 0x02 && recordId === undefined && nameIs(bytes, nameAt, nul, 'record_id')) {
      recordId = decodeString(bytes, valueAt + 4, valueAt + 3 + readInt32(bytes, valueAt));
    } else if (type === 0x09 && timestampMs === undefined && nameIs(bytes, nameAt, nul, 'timestamp')) {
      timestampMs = readInt32(bytes, valueAt + 4) * TWO_32 + (readInt32(bytes, valueAt) >>> 0);
    }
    at = valueAt + valueSize(bytes, type, valueAt, end);
  }
  if (asset === undefined || recordId === undefined || timestampMs === undefined) throw new RangeError(`No record document at byte ${start}`);
  return { asset, timestampMs, recordId };
}

/** sortForUpload's order on keys: asset, then time, then record_id. */
export function compareDocumentSortKeys(a: DocumentSortKey, b: DocumentSortKey): number {
  if (a.asset !== b.asset) return a.asset < b.asset ? -1 : 1;
  if (a.timestampMs !== b.timestampMs) return a.timestampMs < b.timestampMs ? -1 : 1;
  return a.recordId < b.recordId ? -1 : a.recordId > b.recordId ? 1 : 0;
}

/**
 * The documents of all parts in one Buffer, sorted like sortForUpload sorts their records; ties
 * keep the order of the parts and, within a part, of the documents (the sort is stable).
 *
 * sortForUpload compares the time stamp texts, a document holds milliseconds: the orders are the
 * same when the texts are ISO UTC with a fixed number of fraction digits (as records carry them)
 * and two records of one asset in the same millisecond have the same text. Records within one
 * millisecond but with different microseconds come here in record_id order instead.
 */
export function sortDocuments(parts: readonly EncodedRecords[]): Buffer {
  const entries: { key: DocumentSortKey; bytes: Buffer; start: number; end: number }[] = [];
  for (const { bytes, ends } of parts) {
    let start = 0;
    for (const end of ends) {
      entries.push({ key: documentSortKey(bytes, start), bytes, start, end });
      start = end;
    }
  }
  entries.sort((a, b) => compareDocumentSortKeys(a.key, b.key));
  let total = 0;
  for (const entry of entries) total += entry.end - entry.start;
  const out = Buffer.allocUnsafe(total);
  let at = 0;
  for (const entry of entries) at += entry.bytes.copy(out, at, entry.start, entry.end);
  return out;
}
