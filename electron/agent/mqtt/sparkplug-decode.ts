/**
 * Reading a Sparkplug B payload, bounded (docs/decisions/0039-sparkplug-b.md): two levels (Payload,
 * Metric), every nested message Tributary does not need skipped without looking inside, every
 * length checked against what is left, varints at most 10 bytes, at most MAX_METRICS metrics.
 * Whatever does not fit throws SparkplugFormatError, which the caller turns into a marker.
 */
import { DataType, MAX_METRICS, SparkplugFormatError } from './sparkplug-codec.js';

export interface DecodedMetric {
  name?: string;
  /** The name was longer than the bytes the caller accepts: it was not read (name stays undefined). */
  longName?: true;
  alias?: number;
  timestamp?: number;
  datatype?: number;
  isNull: boolean;
  /** The value fields as found; metricValue() reads them by the datatype. */
  intValue?: number;
  longValue?: bigint;
  floatValue?: number;
  doubleValue?: number;
  booleanValue?: boolean;
  stringValue?: string;
  /** A value Tributary does not turn into a column (bytes, DataSet, Template, PropertySet). */
  complex: boolean;
}

export interface DecodedPayload {
  timestamp?: number;
  seq?: number;
  uuid?: string;
  body?: Buffer;
  metrics: DecodedMetric[];
}

class ProtoReader {
  pos: number;

  constructor(
    readonly buffer: Buffer,
    start: number,
    readonly end: number,
  ) {
    this.pos = start;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  varint(): bigint {
    let result = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (this.pos >= this.end) throw new SparkplugFormatError('the message ends inside a number');
      const b = this.buffer[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return BigInt.asUintN(64, result);
    }
    throw new SparkplugFormatError('a number is longer than 10 bytes');
  }

  /** A varint that must be a small non-negative number (lengths, tags, datatypes). */
  small(): number {
    const value = this.varint();
    if (value > 0xffffffffn) throw new SparkplugFormatError('a length or field number is out of range');
    return Number(value);
  }

  fixed(bytes: 4 | 8): number {
    if (this.pos + bytes > this.end) throw new SparkplugFormatError('the message ends inside a number');
    const value = bytes === 4 ? this.buffer.readFloatLE(this.pos) : this.buffer.readDoubleLE(this.pos);
    this.pos += bytes;
    return value;
  }

  /** The bounds of a length-delimited field. */
  span(): [number, number] {
    const length = this.small();
    if (length > this.end - this.pos) throw new SparkplugFormatError(`a field of ${length} bytes is longer than the rest of the message`);
    const start = this.pos;
    this.pos += length;
    return [start, this.pos];
  }

  text(): string {
    const [start, end] = this.span();
    return this.buffer.toString('utf8', start, end);
  }

  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.fixed(8);
    else if (wire === 5) this.fixed(4);
    else if (wire === 2) this.span();
    else throw new SparkplugFormatError(`wire type ${wire} is not used by Sparkplug B`);
  }
}

function safeTime(value: bigint): number {
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : Number.MAX_SAFE_INTEGER;
}

function readMetric(reader: ProtoReader, maxNameBytes: number): DecodedMetric {
  const metric: DecodedMetric = { isNull: false, complex: false };
  while (!reader.done) {
    const tag = reader.small();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === 1 && wire === 2) {
      const [start, end] = reader.span();
      // A name over the bound is never turned into a string: a 15 MB name costs nothing to skip.
      if (end - start > maxNameBytes) {
        metric.longName = true;
        metric.name = undefined;
      } else metric.name = reader.buffer.toString('utf8', start, end);
    }
    else if (field === 2 && wire === 0) metric.alias = safeTime(reader.varint());
    else if (field === 3 && wire === 0) metric.timestamp = safeTime(reader.varint());
    else if (field === 4 && wire === 0) metric.datatype = reader.small();
    else if (field === 7 && wire === 0) metric.isNull = reader.varint() !== 0n;
    else if (field === 10 && wire === 0) metric.intValue = Number(BigInt.asUintN(32, reader.varint()));
    else if (field === 11 && wire === 0) metric.longValue = reader.varint();
    else if (field === 12 && wire === 5) metric.floatValue = reader.fixed(4);
    else if (field === 13 && wire === 1) metric.doubleValue = reader.fixed(8);
    else if (field === 14 && wire === 0) metric.booleanValue = reader.varint() !== 0n;
    else if (field === 15 && wire === 2) metric.stringValue = reader.text();
    else {
      if (field >= 16 && field <= 19) metric.complex = true;
      reader.skip(wire);
    }
  }
  return metric;
}

/**
 * Reads a Sparkplug B payload; throws SparkplugFormatError when it is not one. Metric names longer
 * than maxNameBytes are not read (the metric gets longName).
 */
export function decodePayload(buffer: Buffer, maxMetrics = MAX_METRICS, maxNameBytes = Number.POSITIVE_INFINITY): DecodedPayload {
  const reader = new ProtoReader(buffer, 0, buffer.length);
  const out: DecodedPayload = { metrics: [] };
  while (!reader.done) {
    const tag = reader.small();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === 1 && wire === 0) out.timestamp = safeTime(reader.varint());
    else if (field === 2 && wire === 2) {
      if (out.metrics.length >= maxMetrics) throw new SparkplugFormatError(`more than ${maxMetrics} metrics in one message`);
      const [start, end] = reader.span();
      out.metrics.push(readMetric(new ProtoReader(buffer, start, end), maxNameBytes));
    } else if (field === 3 && wire === 0) out.seq = safeTime(reader.varint());
    else if (field === 4 && wire === 2) out.uuid = reader.text();
    else if (field === 5 && wire === 2) {
      const [start, end] = reader.span();
      out.body = buffer.subarray(start, end);
    } else if (field === 0) throw new SparkplugFormatError('field number 0: not a protobuf message');
    else reader.skip(wire);
  }
  return out;
}

/** Int64 and UInt64 as a number when exact, else as text. */
function bigValue(value: bigint, signed: boolean): number | string {
  const v = signed ? BigInt.asIntN(64, value) : value;
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
}

/**
 * The field value of a metric read by its datatype: integers and floats as numbers (64-bit ones
 * beyond 2^53 as text), DateTime as ISO 8601 text, text types as text. undefined: a type Tributary
 * does not turn into a column (bytes, DataSet, Template, PropertySet) or no value of the type.
 */
export function metricValue(metric: DecodedMetric, datatype: number | undefined): number | boolean | string | null | undefined {
  if (metric.isNull) return null;
  if (metric.complex) return undefined;
  switch (datatype) {
    case DataType.Int8:
    case DataType.Int16:
    case DataType.Int32:
      return metric.intValue === undefined ? undefined : metric.intValue | 0;
    case DataType.UInt8:
    case DataType.UInt16:
      return metric.intValue;
    case DataType.UInt32:
      return metric.intValue ?? (metric.longValue === undefined ? undefined : Number(BigInt.asUintN(32, metric.longValue)));
    case DataType.Int64:
      return metric.longValue === undefined ? undefined : bigValue(metric.longValue, true);
    case DataType.UInt64:
      return metric.longValue === undefined ? undefined : bigValue(metric.longValue, false);
    case DataType.Float:
      return metric.floatValue;
    case DataType.Double:
      return metric.doubleValue;
    case DataType.Boolean:
      return metric.booleanValue;
    case DataType.String:
    case DataType.Text:
    case DataType.UUID:
      return metric.stringValue;
    case DataType.DateTime: {
      if (metric.longValue === undefined) return undefined;
      const ms = Number(BigInt.asIntN(64, metric.longValue));
      return Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : undefined;
    }
    default:
      return undefined;
  }
}
