/**
 * Record documents written straight from a row's values, without a record object: for batches
 * whose records all share one stream and one column layout (a file chunk read by the fused path,
 * fused-upload.ts). Byte for byte what record-bson.ts's writer (and so js-bson) makes of
 * the same record: the fixed parts (asset, stream_type, element names) are encoded once per layout,
 * values follow writeRecord's rules. Layouts writeRecord would hand to js-bson (a name with a NUL,
 * a `_bsontype` column, patched prototypes) are refused by `layoutFits`.
 */
import { type FieldValue, isoFromMicros } from '../../../../shared/records/record.js';
import { ASSET, CAPTURETIME, FIELDVALUES, RECORD_ID, STREAM_TYPE, TIMESTAMP, prototypesArePatched, putBytes, putDate, putDouble, putInt32, putScalar, putString } from './record-bson.js';
import { POWERS_OF_TEN } from '../../parsers/spreadsheet/cell-values.js';

/** Whether documents of this layout can be written here (else the caller takes the record path). */
export function layoutFits(keys: readonly string[]): boolean {
  return !prototypesArePatched() && keys.every((key) => !key.includes('\0') && key !== '_bsontype' && key !== '__proto__');
}

const HEX = Buffer.from('0123456789abcdef', 'latin1');

export class RowDocumentWriter {
  private pos = 0;
  private start = 0;
  private fieldsStart = 0;
  /** asset and stream_type elements, the same in every document. */
  private readonly head: Buffer;
  /** Per field: its element name and NUL (the type byte goes before). */
  private readonly names: Buffer[];
  /**
   * The same as little-endian 32-bit words (the last one padded with zeros): written four bytes a
   * store through `view`, which is faster than a byte loop for names of a few words. The padding
   * lands in the room a document has and is written over by what follows the name.
   */
  private readonly nameWords: Int32Array[];
  /** `buf` as a DataView (made again when `buf` grows). */
  private view: DataView;
  private readonly idPrefix: Buffer;
  /**
   * A document's start up to its first field, the same in every document but for the times and the
   * line: copied in one go, then those are written over (at the *At offsets).
   */
  private readonly template: Buffer;
  private readonly timestampAt: number;
  private readonly capturetimeAt: number;
  private readonly lineAt: number;
  /** isoValue's last minute: its first microsecond, and its text (`YYYY-MM-DDTHH:MM:`). */
  private minuteStart = Number.NaN;
  private readonly minuteText = Buffer.alloc(17);
  /** Bytes a document needs besides its string values (3 bytes a code unit of those is the caller's part). */
  readonly fixedBytes: number;

  /** `buf`: memory to write into (grown when needed; `bytes` is the memory in use, to hand to the next writer). */
  constructor(asset: string, streamType: string, keys: readonly string[], recordIdPrefix: string, private buf: Buffer = Buffer.allocUnsafe(256 * 1024)) {
    const head = Buffer.alloc(16 + 3 * (asset.length + streamType.length) + ASSET.length + STREAM_TYPE.length);
    let end = putString(head, putBytes(head, 0, ASSET), asset);
    end = putString(head, putBytes(head, end, STREAM_TYPE), streamType);
    this.head = head.subarray(0, end);
    this.names = keys.map((key) => Buffer.from(`${key}\0`, 'utf8'));
    this.nameWords = this.names.map((name) => {
      const padded = Buffer.alloc(Math.ceil(name.length / 4) * 4);
      name.copy(padded);
      return Int32Array.from({ length: padded.length / 4 }, (_, k) => padded.readInt32LE(4 * k));
    });
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.length);
    this.idPrefix = Buffer.from(recordIdPrefix, 'utf8');
    this.fixedBytes = 128 + this.head.length + this.idPrefix.length + this.names.reduce((sum, name) => sum + name.length + 14, 0);
    const template = Buffer.alloc(128 + this.head.length + this.idPrefix.length);
    let pos = putBytes(template, 4, this.head);
    pos = putBytes(template, pos, TIMESTAMP);
    this.timestampAt = pos;
    pos = putBytes(template, pos + 8, CAPTURETIME);
    this.capturetimeAt = pos;
    pos = putBytes(template, pos + 8, RECORD_ID);
    putInt32(template, pos, this.idPrefix.length + 13);
    pos = putBytes(template, pos + 4, this.idPrefix);
    this.lineAt = pos;
    template[pos + 12] = 0;
    pos = putBytes(template, pos + 13, FIELDVALUES);
    this.template = template.subarray(0, pos);
  }

  /** Field `index`'s name and NUL at `at`; returns the offset after them. */
  private putName(index: number, at: number): number {
    const words = this.nameWords[index]!;
    const view = this.view;
    for (let k = 0; k < words.length; k += 1) view.setInt32(at + 4 * k, words[k]!, true);
    return at + this.names[index]!.length;
  }

  get length(): number {
    return this.pos;
  }

  get bytes(): Buffer {
    return this.buf;
  }

  /** Forgets what was written (the next documents reuse the memory). */
  reset(): void {
    this.pos = 0;
  }

  /**
   * Starts a document, with room for `room` more bytes (fixedBytes plus 3 a code unit of its string
   * values); its record_id is the prefix and the line (below 16^12) as 12 hex digits (record-ids.ts).
   */
  begin(room: number, timestampMs: number, capturetimeMs: number, line: number): void {
    if (this.pos + room > this.buf.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + room));
      this.buf.copy(bigger, 0, 0, this.pos);
      this.buf = bigger;
      this.view = new DataView(bigger.buffer, bigger.byteOffset, bigger.length);
    }
    const buf = this.buf;
    const start = this.pos;
    this.start = start;
    buf.set(this.template, start);
    putDate(buf, start + this.timestampAt, timestampMs);
    putDate(buf, start + this.capturetimeAt, capturetimeMs);
    // The line as 12 lower-case hex digits (lines below 16^12: the caller's part), 6 from each 24 bits.
    const high = Math.floor(line / 16_777_216);
    const low = line - high * 16_777_216;
    const at = start + this.lineAt;
    for (let i = 0; i < 6; i += 1) {
      buf[at + 5 - i] = HEX[(high >>> (4 * i)) & 15]!;
      buf[at + 11 - i] = HEX[(low >>> (4 * i)) & 15]!;
    }
    this.fieldsStart = start + this.template.length;
    this.pos = this.fieldsStart + 4;
  }

  /** Field `index` of the layout, as writeRecord writes a value. */
  value(index: number, value: FieldValue): void {
    const buf = this.buf;
    const typeAt = this.pos;
    this.pos = putScalar(buf, typeAt, this.putName(index, typeAt + 1), value);
  }

  /**
   * Field `index` holding cellValueAt's value of the cell text in `bytes[start, end)` (UTF-8),
   * written from the bytes without making the text: an empty cell, a plain number, or an ASCII
   * text that is not a number and not one of the boolean spellings. Returns false, having written
   * nothing, for any other cell (a byte above 0x7f, whitespace at an end, an exponent, more than 15
   * digits, a text starting with t, T, f or F): the caller writes cellValueAt's value of its text.
   * Both ways give the same bytes (row-documents.test.ts).
   */
  cell(index: number, bytes: Uint8Array, start: number, end: number): boolean {
    const buf = this.buf;
    const typeAt = this.pos;
    const at = this.putName(index, typeAt + 1);
    if (end <= start) {
      buf[typeAt] = 0x0a;
      this.pos = at;
      return true;
    }
    const first = bytes[start]!;
    const last = bytes[end - 1]!;
    if (first <= 0x20 || first >= 0x7f || last <= 0x20 || last >= 0x7f) return false;
    let i = start;
    let negative = false;
    if (first === 0x2b || first === 0x2d) {
      negative = first === 0x2d;
      i += 1;
    } else if ((first < 0x30 || first > 0x39) && first !== 0x2e) {
      // t, T, f, F: maybe a boolean, for cellValueAt to read.
      if (first === 0x74 || first === 0x54 || first === 0x66 || first === 0x46) return false;
      return this.asciiText(typeAt, at, bytes, start, end);
    }
    // As cellValueAt reads a number: [+-]? digits [. digits] into one integer mantissa.
    let mantissa = 0;
    const integerStart = i;
    let code = 0;
    while (i < end && (code = bytes[i]!) >= 0x30 && code <= 0x39) {
      mantissa = mantissa * 10 + (code - 0x30);
      i += 1;
    }
    const integerDigits = i - integerStart;
    let fractionDigits = 0;
    if (i < end && code === 0x2e) {
      i += 1;
      const fractionStart = i;
      while (i < end && (code = bytes[i]!) >= 0x30 && code <= 0x39) {
        mantissa = mantissa * 10 + (code - 0x30);
        i += 1;
      }
      fractionDigits = i - fractionStart;
    }
    if (i < end) return code === 0x65 || code === 0x45 ? false : this.asciiText(typeAt, at, bytes, start, end);
    const digits = integerDigits + fractionDigits;
    if (digits === 0) return this.asciiText(typeAt, at, bytes, start, end);
    if (digits > 15) return false;
    if (integerDigits > 1 && bytes[integerStart] === 0x30) return this.asciiText(typeAt, at, bytes, start, end);
    const magnitude = fractionDigits === 0 ? mantissa : mantissa / POWERS_OF_TEN[fractionDigits]!;
    const value = negative ? -magnitude : magnitude;
    // putScalar's choice of int32 or double; -0 is an int32 0 here, as cellValueAt reads it 0.
    if ((value | 0) === value) {
      buf[typeAt] = 0x10;
      putInt32(buf, at, value);
      this.pos = at + 4;
    } else {
      buf[typeAt] = 0x01;
      this.pos = putDouble(buf, at, value);
    }
    return true;
  }

  /** The cell's bytes as a string value, when they are all ASCII (else false, nothing written). */
  private asciiText(typeAt: number, at: number, bytes: Uint8Array, start: number, end: number): boolean {
    const buf = this.buf;
    const n = end - start;
    const to = at + 4;
    for (let k = 0; k < n; k += 1) {
      const byte = bytes[start + k]!;
      if (byte >= 0x80) return false;
      buf[to + k] = byte;
    }
    buf[to + n] = 0;
    putInt32(buf, at, n + 1);
    buf[typeAt] = 0x02;
    this.pos = to + n + 1;
    return true;
  }

  /**
   * Field `index` holding isoFromMicros(micros) (`YYYY-MM-DDTHH:MM:SS.ffffffZ`), written from the
   * number without making the text: `micros` a safe integer from 0 to MAX_PLAIN_MICROS (the
   * caller's part), where every such text is 27 characters.
   */
  isoValue(index: number, micros: number): void {
    const buf = this.buf;
    const typeAt = this.pos;
    buf[typeAt] = 0x02;
    let pos = this.putName(index, typeAt + 1);
    putInt32(buf, pos, 28);
    pos += 4;
    // Within the last minute written: its text is kept, and what is left of the instant fits an
    // int32 (integer arithmetic below, no division of doubles a digit).
    let rest = micros - this.minuteStart;
    if (!(rest >= 0 && rest < 60_000_000)) {
      // The text up to the minute, as isoFromMicros writes it: read from its own text once a minute.
      const minute = Math.floor(micros / 60_000_000);
      this.minuteStart = minute * 60_000_000;
      this.minuteText.write(isoFromMicros(this.minuteStart), 0, 17, 'latin1');
      rest = micros - this.minuteStart;
    }
    for (let i = 0; i < 17; i += 1) buf[pos + i] = this.minuteText[i]!;
    const micro = rest | 0;
    const second = (micro / 1_000_000) | 0;
    let fraction = micro - second * 1_000_000;
    const tens = (second / 10) | 0;
    buf[pos + 17] = 0x30 + tens;
    buf[pos + 18] = 0x30 + second - tens * 10;
    buf[pos + 19] = 0x2e;
    for (let i = 25; i > 19; i -= 1) {
      const next = (fraction / 10) | 0;
      buf[pos + i] = 0x30 + fraction - next * 10;
      fraction = next;
    }
    buf[pos + 26] = 0x5a;
    buf[pos + 27] = 0;
    this.pos = pos + 28;
  }

  /** Ends the document; returns its end offset. */
  end(): number {
    const buf = this.buf;
    let pos = this.pos;
    buf[pos++] = 0;
    putInt32(buf, this.fieldsStart, pos - this.fieldsStart);
    buf[pos++] = 0;
    putInt32(buf, this.start, pos - this.start);
    this.pos = pos;
    return pos;
  }
}
