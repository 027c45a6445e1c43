/**
 * Decoding of Modbus register words and bits into record values (docs/modbus.md, "Byte order").
 * Pure: the receiver, the preview and the tests call it with the words as the device sent them.
 */
import type { ModbusByteOrder, ModbusDataType } from '../../../../shared/config/receivers/modbus/schema.js';
import type { FieldValue } from '../../../../shared/records/record.js';

/** How one configured value is read from its words. */
export interface DecodeSpec {
  data_type: ModbusDataType;
  byte_order: ModbusByteOrder;
  bit?: number | undefined;
  scale: number;
  offset: number;
}

/**
 * The bytes of a multi-register value, most significant first (ABCD), from the registers as they
 * stand on the device. CDAB: the registers come in reverse order; BADC: the two bytes of each
 * register are swapped; DCBA: both (fully little-endian).
 */
export function canonicalBytes(words: ArrayLike<number>, order: ModbusByteOrder): Buffer {
  const n = words.length;
  const out = Buffer.allocUnsafe(n * 2);
  const reversed = order === 'CDAB' || order === 'DCBA';
  const swapped = order === 'BADC' || order === 'DCBA';
  for (let i = 0; i < n; i += 1) {
    const word = words[reversed ? n - 1 - i : i]! & 0xffff;
    out[2 * i] = swapped ? word & 0xff : word >>> 8;
    out[2 * i + 1] = swapped ? word >>> 8 : word & 0xff;
  }
  return out;
}

/** A 64-bit integer as a record keeps it: a number while exact, else its decimal text (as the opcua receiver does). */
function bigValue(big: bigint): FieldValue {
  return big <= BigInt(Number.MAX_SAFE_INTEGER) && big >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(big) : big.toString();
}

function scaled(raw: number, spec: DecodeSpec): FieldValue {
  // 783 × 0.1 is 78.30000000000001 in binary floating point: 15 significant digits give 78.3 back.
  const value = spec.scale === 1 && spec.offset === 0 ? raw : Number((raw * spec.scale + spec.offset).toPrecision(15));
  // NaN and ±Infinity (a float register holding no number) have no JSON form: the value is missing.
  return Number.isFinite(value) ? value : null;
}

/** Two ASCII characters per register, high byte first; trailing NUL and spaces trimmed. */
export function decodeString(words: ArrayLike<number>): string {
  const bytes = canonicalBytes(words, 'ABCD');
  let end = bytes.length;
  while (end > 0 && (bytes[end - 1] === 0 || bytes[end - 1] === 0x20)) end -= 1;
  return bytes.toString('latin1', 0, end);
}

/** The value of one register-table entry from its words (exactly as many as the data type takes). */
export function decodeRegisters(spec: DecodeSpec, words: ArrayLike<number>): FieldValue {
  const first = words[0]! & 0xffff;
  switch (spec.data_type) {
    case 'bool':
      return spec.bit === undefined ? first !== 0 : ((first >>> spec.bit) & 1) === 1;
    case 'uint16':
      return scaled(first, spec);
    case 'int16':
      return scaled(first >= 0x8000 ? first - 0x10000 : first, spec);
    case 'string':
      return decodeString(words);
    default:
      break;
  }
  const bytes = canonicalBytes(words, spec.byte_order);
  switch (spec.data_type) {
    case 'int32':
      return scaled(bytes.readInt32BE(0), spec);
    case 'uint32':
      return scaled(bytes.readUInt32BE(0), spec);
    case 'float32':
      return scaled(bytes.readFloatBE(0), spec);
    case 'float64':
      return scaled(bytes.readDoubleBE(0), spec);
    case 'int64':
    case 'uint64': {
      const big = spec.data_type === 'int64' ? bytes.readBigInt64BE(0) : bytes.readBigUInt64BE(0);
      return spec.scale === 1 && spec.offset === 0 ? bigValue(big) : scaled(Number(big), spec);
    }
  }
}
