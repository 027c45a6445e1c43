/**
 * The fused JSON Lines path's scanner (fused-json-lines.ts): one line's object read from its bytes
 * straight into the BSON elements of a record's fieldvalues, as JSON.parse → flattenRecord →
 * DocumentTimes.stamp → record-bson's writeRecord would write them, without a value, a record object
 * or a decoded line. It takes the common case only: an object of strings, numbers, true/false/null
 * and nested objects (flattened with "."), under ASCII keys; anything else (arrays, deep nesting, a
 * key that starts with a digit (JavaScript puts integer-like keys first) or repeats, a control
 * character, a BOM, a time that does not read, text JSON.parse would not take) answers false, and
 * the caller reads that line the general way (readJsonLine). The byte at a line's end must not be
 * one of JSON's (the caller's part: its newline, or one it writes there).
 */
import type { FieldValue } from '../../../../shared/records/record.js';
import { putInt32, putScalar, putString } from './record-bson.js';
import type { DocumentTimes } from '../../parsers/document/document-times.js';

/** Nesting and fields the scanner takes (the general path's bounds are far above: it handles the rest). */
const MAX_DEPTH = 32;
const MAX_FIELDS = 1000;
const NAME_BYTES = 4096;

const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
const NULL = Buffer.from('null');
/** Exact powers of ten (up to 10^22 every one is a double). */
const POWERS = Array.from({ length: 23 }, (_, k) => 10 ** k);

/** Bytes from one buffer into another: a loop (Buffer.copy's call costs more than the few bytes of a name). */
function copyBytes(from: Uint8Array, start: number, end: number, to: Uint8Array, at: number): void {
  if (end - start > 64) {
    to.set(from.subarray(start, end), at);
    return;
  }
  for (let i = start; i < end; i += 1) to[at + i - start] = from[i]!;
}

/** The number text [start, end) is digits, one point, digits (no exponent). */
function decimal(b: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i += 1) if (b[i] === 0x65 || b[i] === 0x45) return false;
  return true;
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0d;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

export class LineScanner {
  /** Where the elements are written; grown by the scanner (the caller keeps `out` after a line). */
  out: Buffer;
  pos = 0;
  /** The line's record timestamp (epoch µs) from the first parse_timestamps field, or NaN. */
  time = Number.NaN;
  /** The line holds bytes above 127 (its text is not its bytes). */
  nonAscii = false;
  /** The flattened name being written: the prefix of nested objects, then the key. */
  private name = Buffer.allocUnsafe(NAME_BYTES);
  private fields = 0;
  /**
   * This line's names (of fields and of nested objects), each followed by a NUL: a key that
   * repeats, at any depth, repeats a name here (the general path keeps the first place and the
   * last value). `layout`: the same of the last line whose names all differ, most lines' names.
   */
  private names: Buffer = Buffer.allocUnsafe(NAME_BYTES);
  private namesLength = 0;
  private layout: Buffer = Buffer.allocUnsafe(0);
  /** parse_timestamps names as bytes, and one object per field for DocumentTimes.stamp. */
  private readonly timeNames: Buffer[];
  private readonly probes: Record<string, FieldValue>[];

  constructor(private readonly times: DocumentTimes, timeFields: readonly string[], out: Buffer) {
    this.out = out;
    this.timeNames = timeFields.map((name) => Buffer.from(name, 'utf8'));
    this.probes = timeFields.map(() => ({}));
    this.timeFields = timeFields;
  }
  private readonly timeFields: readonly string[];

  /** Writes the elements of line [start, end) of `b` at `pos`; false: not a line for the scanner (`pos` is undefined then). */
  scan(b: Buffer, start: number, end: number): boolean {
    this.time = Number.NaN;
    this.nonAscii = false;
    this.fields = 0;
    this.namesLength = 0;
    let p = start;
    while (p < end && isSpace(b[p]!)) p += 1;
    if (b[p] !== 0x7b) return false;
    p = this.object(b, p + 1, end, 0, 1);
    if (p < 0) return false;
    while (p < end && isSpace(b[p]!)) p += 1;
    return p === end && this.namesDiffer();
  }

  /** The members of an object from after its "{": the position after its "}", or -1. */
  private object(b: Buffer, p: number, end: number, prefix: number, depth: number): number {
    if (depth > MAX_DEPTH) return -1;
    while (p < end && isSpace(b[p]!)) p += 1;
    if (b[p] === 0x7d) return p + 1;
    for (;;) {
      if (b[p] !== 0x22) return -1;
      // The key: plain text only (an escape, a control character or the end of the line: the general path).
      const keyStart = p + 1;
      let q = keyStart;
      while (q < end) {
        const c = b[q]!;
        if (c === 0x22 || c === 0x5c || c < 0x20 || c > 0x7f) break;
        q += 1;
      }
      if (b[q] !== 0x22 || q >= end) return -1;
      // Integer-like keys come first in a JavaScript object whatever their place: the general path orders them.
      if (q > keyStart && isDigit(b[keyStart]!)) return -1;
      const nameEnd = prefix + (q - keyStart);
      if (nameEnd + 1 > NAME_BYTES) return -1;
      copyBytes(b, keyStart, q, this.name, prefix);
      this.noteName(nameEnd);
      p = q + 1;
      while (p < end && isSpace(b[p]!)) p += 1;
      if (b[p] !== 0x3a) return -1;
      p += 1;
      while (p < end && isSpace(b[p]!)) p += 1;
      const c = b[p];
      if (c === 0x7b) {
        this.name[nameEnd] = 0x2e;
        p = this.object(b, p + 1, end, nameEnd + 1, depth + 1);
      } else {
        if ((this.fields += 1) > MAX_FIELDS) return -1;
        p = this.element(b, p, end, nameEnd);
      }
      if (p < 0) return -1;
      while (p < end && isSpace(b[p]!)) p += 1;
      if (b[p] === 0x7d) return p + 1;
      if (b[p] !== 0x2c) return -1;
      p += 1;
      while (p < end && isSpace(b[p]!)) p += 1;
    }
  }

  /** One scalar field: its element (type, name, value) at `pos`; the position after the value, or -1. */
  private element(b: Buffer, p: number, end: number, nameLength: number): number {
    this.room(nameLength + 32 + 3 * (end - p));
    const out = this.out;
    const typeAt = this.pos;
    copyBytes(this.name, 0, nameLength, out, typeAt + 1);
    let at = typeAt + 1 + nameLength;
    out[at++] = 0;
    const time = this.timeIndex(nameLength);
    const c = b[p]!;
    if (c === 0x22) {
      let q = p + 1;
      let escaped = false;
      let wide = false;
      while (q < end) {
        const d = b[q]!;
        if (d === 0x22) break;
        if (d < 0x20) return -1;
        if (d === 0x5c) {
          escaped = true;
          q += 2;
          continue;
        }
        if (d > 0x7f) wide = true;
        q += 1;
      }
      if (q >= end) return -1;
      if (wide) this.nonAscii = true;
      if (time < 0 && !escaped && !wide) {
        // Plain ASCII: the bytes are the text and its UTF-8.
        out[typeAt] = 0x02;
        putInt32(out, at, q - p);
        copyBytes(b, p + 1, q, out, at + 4);
        out[at + 3 + q - p] = 0;
        this.pos = at + 4 + q - p;
        return q + 1;
      }
      let text: string;
      try {
        text = escaped ? (JSON.parse(b.toString('utf8', p, q + 1)) as string) : b.toString('utf8', p + 1, q);
      } catch {
        return -1;
      }
      if (time >= 0) {
        if (escaped) return -1;
        const value = this.stamp(time, text);
        if (value === null) return -1;
        this.pos = putScalar(out, typeAt, at, value);
      } else {
        out[typeAt] = 0x02;
        this.pos = putString(out, at, text);
      }
      return q + 1;
    }
    if (c === 0x74 || c === 0x66 || c === 0x6e) {
      const word = c === 0x74 ? TRUE : c === 0x66 ? FALSE : NULL;
      if (p + word.length > end) return -1;
      for (let i = 1; i < word.length; i += 1) if (b[p + i] !== word[i]) return -1;
      // A time field must be text or null to be read as the general path reads it.
      if (time >= 0 && c !== 0x6e) return -1;
      this.pos = putScalar(out, typeAt, at, c === 0x6e ? null : c === 0x74);
      return p + word.length;
    }
    if (time >= 0) return -1;
    // A number as JSON writes it: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?
    let q = p;
    if (b[q] === 0x2d) q += 1;
    const first = q;
    if (b[q] === 0x30) q += 1;
    else if (q < end && b[q]! >= 0x31 && b[q]! <= 0x39) while (q < end && isDigit(b[q]!)) q += 1;
    else return -1;
    let integer = true;
    if (b[q] === 0x2e) {
      integer = false;
      q += 1;
      if (!(q < end && isDigit(b[q]!))) return -1;
      while (q < end && isDigit(b[q]!)) q += 1;
    }
    if (b[q] === 0x65 || b[q] === 0x45) {
      integer = false;
      q += 1;
      if (b[q] === 0x2b || b[q] === 0x2d) q += 1;
      if (!(q < end && isDigit(b[q]!))) return -1;
      while (q < end && isDigit(b[q]!)) q += 1;
    }
    let value: number;
    if (integer && q - first <= 15) {
      value = 0;
      for (let i = first; i < q; i += 1) value = value * 10 + b[i]! - 0x30;
      if (first > p) value = -value;
    } else if (q - first <= 16 && b[q - 1] !== 0x2e && decimal(b, first, q)) {
      // Digits, a point, digits, 15 digits at most: an integer below 2^53 divided by an exact power of
      // ten is the correctly rounded value, what JSON.parse makes of the text (Clinger's fast path).
      let digits = 0;
      let scale = 0;
      for (let i = first; i < q; i += 1) {
        const d = b[i]!;
        if (d === 0x2e) scale = q - i - 1;
        else digits = digits * 10 + d - 0x30;
      }
      value = digits / POWERS[scale]!;
      if (first > p) value = -value;
    } else {
      value = Number(b.toString('latin1', p, q));
    }
    this.pos = putScalar(out, typeAt, at, value);
    return q;
  }

  /** Which parse_timestamps field the name being written is (-1: none). */
  private timeIndex(length: number): number {
    const names = this.timeNames;
    for (let t = 0; t < names.length; t += 1) {
      const name = names[t]!;
      if (name.length !== length) continue;
      let same = true;
      for (let i = 0; i < length && same; i += 1) same = name[i] === this.name[i];
      if (same) return t;
    }
    return -1;
  }

  /** A time field's text as DocumentTimes writes it (the first field's instant into `time`); null: it does not read. */
  private stamp(t: number, text: string): FieldValue | null {
    const probe = this.probes[t]!;
    const name = this.timeFields[t]!;
    probe[name] = text;
    const micros = this.times.stamp(probe);
    if (typeof micros === 'string') return null;
    if (t === 0 && micros !== null) this.time = Number(micros);
    return probe[name]!;
  }

  /** Notes the name being written (of a field or of a nested object). */
  private noteName(length: number): void {
    if (this.namesLength + length + 1 > this.names.length) {
      const bigger = Buffer.allocUnsafe(2 * (this.namesLength + length + 1));
      this.names.copy(bigger, 0, 0, this.namesLength);
      this.names = bigger;
    }
    copyBytes(this.name, 0, length, this.names, this.namesLength);
    this.namesLength += length + 1;
    this.names[this.namesLength - 1] = 0;
  }

  /** No name was written twice this line. */
  private namesDiffer(): boolean {
    const length = this.namesLength;
    const layout = this.layout;
    if (length === layout.length) {
      const names = this.names;
      let i = 0;
      while (i < length && names[i] === layout[i]) i += 1;
      if (i === length) return true;
    }
    const names = this.names.toString('latin1', 0, length).split('\0');
    names.pop();
    const unique = new Set(names);
    if (unique.size !== names.length || unique.has('__proto__') || unique.has('_bsontype')) return false;
    this.layout = Buffer.from(this.names.subarray(0, length));
    return true;
  }

  private room(bytes: number): void {
    if (this.pos + bytes <= this.out.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.out.length * 2, this.pos + bytes));
    this.out.copy(bigger, 0, 0, this.pos);
    this.out = bigger;
  }
}
