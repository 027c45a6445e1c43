/**
 * The Sparkplug B payload (Eclipse Tahu's sparkplug_b.proto), written by hand
 * (docs/decisions/0039-sparkplug-b.md): only the fields Tributary uses. Reading, bounded against
 * hostile messages, is sparkplug-decode.ts.
 */

/** Sparkplug B datatypes (the ones Tributary writes, and the ones it reads as plain values). */
export const DataType = {
  Int8: 1,
  Int16: 2,
  Int32: 3,
  Int64: 4,
  UInt8: 5,
  UInt16: 6,
  UInt32: 7,
  UInt64: 8,
  Float: 9,
  Double: 10,
  Boolean: 11,
  String: 12,
  DateTime: 13,
  Text: 14,
  UUID: 15,
} as const;

export const MAX_METRICS = 100_000;

export class SparkplugFormatError extends Error {}

// ------------------------------------------------------------------------------------- writing

/** A growing byte buffer with the protobuf primitives the Sparkplug payload needs. */
export class ProtoWriter {
  private buffer: Buffer;
  length = 0;

  constructor(initial = 4096) {
    this.buffer = Buffer.allocUnsafe(initial);
  }

  private room(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(next, 0, 0, this.length);
    this.buffer = next;
  }

  byte(value: number): void {
    this.room(1);
    this.buffer[this.length++] = value;
  }

  /** A non-negative integer up to 2^53 as a varint. */
  varint(value: number): void {
    this.room(10);
    let v = value;
    while (v >= 0x80) {
      this.buffer[this.length++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buffer[this.length++] = v;
  }

  /** An int64 as protobuf's uint64 varint (negative numbers two's complement, 10 bytes). */
  int64(value: number): void {
    if (value >= 0) return this.varint(value);
    let v = BigInt.asUintN(64, BigInt(value));
    this.room(10);
    while (v >= 0x80n) {
      this.buffer[this.length++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buffer[this.length++] = Number(v);
  }

  double(value: number): void {
    this.room(8);
    this.buffer.writeDoubleLE(value, this.length);
    this.length += 8;
  }

  bytes(value: Buffer): void {
    this.room(value.length);
    value.copy(this.buffer, this.length);
    this.length += value.length;
  }

  /** Text as UTF-8 straight into the buffer; `byteLength` is Buffer.byteLength(text, 'utf8'). */
  utf8(text: string, byteLength: number): void {
    this.room(byteLength);
    this.length += this.buffer.write(text, this.length, byteLength, 'utf8');
  }

  /** A length-delimited field's bytes (the tag written before). */
  lengthDelimited(value: Buffer): void {
    this.varint(value.length);
    this.bytes(value);
  }

  /** Reserves room for a length prefix of up to 4 bytes (messages below 256 MiB); returns where. */
  openLength(): number {
    this.room(4);
    const at = this.length;
    this.length += 4;
    return at;
  }

  /** Writes the length of what follows `at`, moving it when the varint is shorter than 4 bytes. */
  closeLength(at: number): void {
    const size = this.length - at - 4;
    const width = size < 0x80 ? 1 : size < 0x4000 ? 2 : size < 0x200000 ? 3 : 4;
    if (width < 4) this.buffer.copy(this.buffer, at + width, at + 4, this.length);
    let v = size;
    for (let i = 0; i < width; i += 1) {
      this.buffer[at + i] = (v & 0x7f) | (i < width - 1 ? 0x80 : 0);
      v >>>= 7;
    }
    this.length -= 4 - width;
  }

  /** What was written, without a copy (valid until the next write). */
  view(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  /** A copy of what was written. */
  finish(): Buffer {
    return Buffer.from(this.buffer.subarray(0, this.length));
  }
}

/** A metric value as Tributary writes it. */
export type MetricValue = number | boolean | string | null;

/**
 * Writes one Payload.metrics entry (field 2): name, timestamp, datatype and the value in the field
 * of its type; null as is_null. DateTime values are epoch milliseconds.
 */
export function writeMetric(out: ProtoWriter, name: Buffer, datatype: number, timestampMs: number | undefined, value: MetricValue): void {
  out.byte(0x12);
  const at = out.openLength();
  out.byte(0x0a);
  out.lengthDelimited(name);
  if (timestampMs !== undefined) {
    out.byte(0x18);
    out.varint(timestampMs);
  }
  out.byte(0x20);
  out.varint(datatype);
  if (value === null) {
    out.byte(0x38);
    out.byte(1);
  } else if (datatype === DataType.Double) {
    out.byte(0x69);
    out.double(value as number);
  } else if (datatype === DataType.Int64 || datatype === DataType.DateTime) {
    out.byte(0x58);
    out.int64(value as number);
  } else if (datatype === DataType.Boolean) {
    out.byte(0x70);
    out.byte(value ? 1 : 0);
  } else {
    out.byte(0x7a);
    out.lengthDelimited(Buffer.from(String(value), 'utf8'));
  }
  out.closeLength(at);
}

function varintLength(value: number): number {
  let length = 1;
  for (let v = value; v >= 0x80; v = Math.floor(v / 0x80)) length += 1;
  return length;
}

/** `name` (field 1) and `datatype` (field 4) of a metric: the same for every value of a column. */
export function metricPrefix(name: string, datatype: number): Buffer {
  const bytes = Buffer.from(name, 'utf8');
  const out = new ProtoWriter(bytes.length + 8);
  out.byte(0x0a);
  out.lengthDelimited(bytes);
  out.byte(0x20);
  out.varint(datatype);
  return out.finish();
}

/** The bytes `timestamp` (field 3) of a metric takes: the same for every field of a record. */
export function metricTimeLength(timestampMs: number): number {
  return 1 + varintLength(timestampMs);
}

/**
 * writeMetric from a column's prefix and a record's time, with the metric's length computed first
 * (no move of what was written, no Buffer per value): the commit path writes a metric per field of
 * every record. `timeLength` is metricTimeLength(timestampMs).
 */
export function writeMetricFast(out: ProtoWriter, prefix: Buffer, timestampMs: number, timeLength: number, datatype: number, value: MetricValue): void {
  let text: string | undefined;
  let textLength = 0;
  let valueLength: number;
  if (value === null || datatype === DataType.Boolean) valueLength = 2;
  else if (datatype === DataType.Double) valueLength = 9;
  else if (datatype === DataType.Int64 || datatype === DataType.DateTime) valueLength = 1 + ((value as number) < 0 ? 10 : varintLength(value as number));
  else {
    text = typeof value === 'string' ? value : String(value);
    textLength = Buffer.byteLength(text, 'utf8');
    valueLength = 1 + varintLength(textLength) + textLength;
  }
  out.byte(0x12);
  out.varint(prefix.length + timeLength + valueLength);
  out.bytes(prefix);
  out.byte(0x18);
  out.varint(timestampMs);
  if (value === null) {
    out.byte(0x38);
    out.byte(1);
  } else if (datatype === DataType.Double) {
    out.byte(0x69);
    out.double(value as number);
  } else if (datatype === DataType.Int64 || datatype === DataType.DateTime) {
    out.byte(0x58);
    out.int64(value as number);
  } else if (datatype === DataType.Boolean) {
    out.byte(0x70);
    out.byte(value ? 1 : 0);
  } else {
    out.byte(0x7a);
    out.varint(textLength);
    out.utf8(text!, textLength);
  }
}

/** Payload.timestamp (field 1) and Payload.seq (field 3) around already written metrics. */
export function payloadWith(metrics: Buffer, timestampMs: number, seq: number | undefined): Buffer {
  const head = new ProtoWriter(16);
  head.byte(0x08);
  head.varint(timestampMs);
  const tail = new ProtoWriter(8);
  if (seq !== undefined) {
    tail.byte(0x18);
    tail.varint(seq);
  }
  return Buffer.concat([head.finish(), metrics, tail.finish()]);
}
