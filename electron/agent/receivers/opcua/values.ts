import { DataType, type DataValue, type StatusCode, type Variant, VariantArrayType } from 'node-opcua-client';
import { type FieldValue, isoMicros } from '../../../../shared/records/record.js';
import { say, type AgentMessage } from '../../../../shared/config/message.js';

/**
 * Arrays: a one-dimensional array of at most this many elements is flattened into one column per
 * element, `<exportname>_0`, `<exportname>_1`, …; anything larger, matrices and structures are
 * rejected (see docs/opcua.md).
 */
export const MAX_ARRAY_ELEMENTS = 64;

/**
 * Characters of one text value (String, XmlElement, ByteString as base64): a server that sends
 * megabytes in one tag gets a marker, not records that size (issue 39). Larger is rejected.
 */
export const MAX_TEXT_CHARS = 1024 * 1024;

export type Quality = 'good' | 'uncertain' | 'bad';

/** A value as it goes into a record. */
export type Converted =
  | { kind: 'scalar'; value: FieldValue }
  | { kind: 'array'; values: FieldValue[] }
  | Rejected;

/** Described statuses by code: a server sends few distinct ones, and every value has one. */
const described = new Map<number, { name: string; quality: Quality }>();
const MAX_DESCRIBED = 1024;

/** OPC UA status: the symbolic name (Good, UncertainLastUsableValue, BadSensorFailure …) and its severity. */
export function describeStatus(status: StatusCode | undefined): { readonly name: string; readonly quality: Quality } {
  const value = status?.value ?? 0;
  const known = described.get(value);
  if (known) return known;
  const severity = value >>> 30;
  const name = status?.name && status.name !== 'Unknown' ? status.name : `0x${value.toString(16).padStart(8, '0').toUpperCase()}`;
  const description = { name, quality: severity === 0 ? ('good' as const) : severity === 1 ? ('uncertain' as const) : ('bad' as const) };
  if (described.size < MAX_DESCRIBED) described.set(value, description);
  return description;
}

/**
 * When the value was generated, in epoch microseconds: the source timestamp (with its
 * picoseconds), else the server timestamp, else `fallback` (the capture time).
 */
export function sampleMicros(dataValue: DataValue, fallback: bigint): bigint {
  const source = validDate(dataValue.sourceTimestamp);
  if (source) return BigInt(source.getTime()) * 1000n + BigInt(Math.floor((dataValue.sourcePicoseconds ?? 0) / 1_000_000));
  const server = validDate(dataValue.serverTimestamp);
  if (server) return BigInt(server.getTime()) * 1000n + BigInt(Math.floor((dataValue.serverPicoseconds ?? 0) / 1_000_000));
  return fallback;
}

/**
 * sampleMicros as a number (exact: epoch µs stay below 2^53 until the year 2255), for the record
 * building of thousands of values a second, where BigInt arithmetic and BigInt map keys cost.
 */
export function sampleMicrosNumber(dataValue: DataValue, fallback: number): number {
  const source = validDate(dataValue.sourceTimestamp);
  if (source) return source.getTime() * 1000 + Math.floor((dataValue.sourcePicoseconds ?? 0) / 1_000_000);
  const server = validDate(dataValue.serverTimestamp);
  if (server) return server.getTime() * 1000 + Math.floor((dataValue.serverPicoseconds ?? 0) / 1_000_000);
  return fallback;
}

/** OPC UA's "no time" is 1601-01-01 (or a null Date). */
function validDate(date: Date | null | undefined): Date | undefined {
  if (!date || Number.isNaN(date.getTime()) || date.getTime() <= -11644473600000) return undefined;
  return date;
}

/** A value that cannot go into a column: why, in English (reason) and with its code (said). */
export interface Rejected {
  kind: 'rejected';
  reason: string;
  said: AgentMessage;
}

const rejected = (said: AgentMessage): Rejected => ({ kind: 'rejected', reason: said.text, said });

export function convertVariant(variant: Variant | undefined | null): Converted {
  if (!variant || variant.dataType === DataType.Null) return { kind: 'scalar', value: null };
  if (variant.arrayType === VariantArrayType.Scalar) return convertScalar(variant.dataType, variant.value);
  // Scalars first: the type's name below is only for the messages of arrays and matrices.
  const type = DataType[variant.dataType] ?? String(variant.dataType);
  if (variant.arrayType === VariantArrayType.Matrix)
    return rejected(say('opcua.value_matrix', 'a matrix of {type} (dimensions {dimensions})', { type, dimensions: JSON.stringify(variant.dimensions?.slice(0, 8)) }));
  if (variant.arrayType === VariantArrayType.Array) {
    // The length first: a server's array of millions is not copied to be refused.
    const length = (variant.value as ArrayLike<unknown> | null)?.length ?? 0;
    if (length > MAX_ARRAY_ELEMENTS)
      return rejected(say('opcua.value_array_too_long', 'an array of {length} {type} values (at most {max} are flattened into columns)', { length, type, max: MAX_ARRAY_ELEMENTS }));
    const items = Array.from((variant.value ?? []) as ArrayLike<unknown>);
    const values: FieldValue[] = [];
    for (const item of items) {
      const one = convertScalar(variant.dataType, item, true);
      if (one.kind === 'rejected') return one;
      values.push(one.value);
    }
    return { kind: 'array', values };
  }
  return convertScalar(variant.dataType, variant.value);
}

/** `inArray`: the value is an element of an array, and a refusal says "an array of …". */
function convertScalar(dataType: DataType, value: unknown, inArray = false): { kind: 'scalar'; value: FieldValue } | Rejected {
  const scalar = (v: FieldValue) => ({ kind: 'scalar' as const, value: v });
  if (value === null || value === undefined) return scalar(null);
  switch (dataType) {
    case DataType.Boolean:
      return scalar(Boolean(value));
    case DataType.SByte:
    case DataType.Byte:
    case DataType.Int16:
    case DataType.UInt16:
    case DataType.Int32:
    case DataType.UInt32:
    case DataType.Float:
    case DataType.Double:
      return scalar(finiteOrText(Number(value)));
    case DataType.Int64:
    case DataType.UInt64:
      return scalar(int64(value, dataType === DataType.Int64));
    case DataType.DateTime: {
      const date = validDate(value as Date);
      return scalar(date ? isoMicros(BigInt(date.getTime()) * 1000n) : null);
    }
    case DataType.String:
    case DataType.XmlElement:
    case DataType.Guid:
      return boundedText(dataType, String(value), inArray);
    case DataType.ByteString:
      if (Buffer.isBuffer(value) && value.length > (MAX_TEXT_CHARS / 4) * 3) return tooLong(dataType, value.length, 'bytes', inArray);
      return boundedText(dataType, Buffer.isBuffer(value) ? value.toString('base64') : String(value), inArray);
    case DataType.LocalizedText:
      return scalar((value as { text?: string | null }).text ?? null);
    case DataType.QualifiedName:
      return scalar((value as { name?: string | null }).name ?? null);
    case DataType.StatusCode:
      return scalar(describeStatus(value as StatusCode).name);
    case DataType.NodeId:
    case DataType.ExpandedNodeId:
      return scalar(String(value));
    default:
    {
      const type = DataType[dataType] ?? dataType;
      return rejected(
        inArray
          ? say('opcua.value_array_of_structures', 'an array of a {type} value (structures are not read; read their fields as separate tags)', { type })
          : say('opcua.value_structure', 'a {type} value (structures are not read; read their fields as separate tags)', { type }),
      );
    }
  }
}

function boundedText(dataType: DataType, text: string, inArray: boolean): { kind: 'scalar'; value: FieldValue } | Rejected {
  return text.length > MAX_TEXT_CHARS ? tooLong(dataType, text.length, 'characters', inArray) : { kind: 'scalar', value: text };
}

function tooLong(dataType: DataType, size: number, unit: 'characters' | 'bytes', inArray: boolean): Rejected {
  const [type, max] = [DataType[dataType], MAX_TEXT_CHARS];
  if (inArray)
    return rejected(
      unit === 'bytes'
        ? say('opcua.value_array_of_too_many_bytes', 'an array of a {type} of {size} bytes (at most {max} characters are read)', { type, size, max })
        : say('opcua.value_array_of_too_many_characters', 'an array of a {type} of {size} characters (at most {max} characters are read)', { type, size, max }),
    );
  return rejected(
    unit === 'bytes'
      ? say('opcua.value_too_many_bytes', 'a {type} of {size} bytes (at most {max} characters are read)', { type, size, max })
      : say('opcua.value_too_many_characters', 'a {type} of {size} characters (at most {max} characters are read)', { type, size, max }),
  );
}

/** NaN and infinities have no JSON number: they travel as text. */
function finiteOrText(n: number): FieldValue {
  return Number.isFinite(n) ? n : String(n);
}

/** node-opcua hands 64-bit integers as [high, low] words: a number when exact, else decimal text. */
function int64(value: unknown, signed: boolean): FieldValue {
  if (typeof value === 'number' || typeof value === 'bigint') return toFieldValue(BigInt(value));
  const [high, low] = value as [number, number];
  let big = (BigInt(high >>> 0) << 32n) | BigInt(low >>> 0);
  if (signed && big >= 1n << 63n) big -= 1n << 64n;
  return toFieldValue(big);
}

function toFieldValue(big: bigint): FieldValue {
  return big <= BigInt(Number.MAX_SAFE_INTEGER) && big >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(big) : big.toString();
}
