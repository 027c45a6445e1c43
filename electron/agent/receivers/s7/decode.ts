/**
 * Decoding of S7 bytes into record values (docs/s7.md, "Types"). S7 CPUs keep every number
 * big-endian. Pure and bounded: the receiver, the preview and the tests call it with the bytes the
 * PLC sent; a STRING never reads past its declared length, whatever its header claims.
 */
import type { S7Address } from '../../../../shared/config/receivers/s7/address.js';
import { s7ByteCount } from '../../../../shared/config/receivers/s7/address.js';
import type { FieldValue } from '../../../../shared/records/record.js';

/** An S7 STRING: byte 0 its declared maximum, byte 1 its current length, then the characters. */
export function decodeS7String(bytes: Buffer, declared: number): string {
  if (bytes.length < 2) return '';
  const current = Math.min(bytes[1]!, bytes[0]! || declared, declared, bytes.length - 2);
  return bytes.toString('latin1', 2, 2 + current);
}

/** The value at `address` in `bytes`, which hold exactly the address's bytes (s7ByteCount). */
export function decodeS7(address: S7Address, bytes: Buffer): FieldValue {
  if (bytes.length < s7ByteCount(address)) return null;
  switch (address.type) {
    case 'X':
      return ((bytes[0]! >>> (address.bit ?? 0)) & 1) === 1;
    case 'BYTE':
      return bytes[0]!;
    case 'CHAR':
      return bytes.toString('latin1', 0, 1);
    case 'INT':
      return bytes.readInt16BE(0);
    case 'WORD':
      return bytes.readUInt16BE(0);
    case 'DINT':
      return bytes.readInt32BE(0);
    case 'DWORD':
      return bytes.readUInt32BE(0);
    case 'REAL': {
      // NaN and ±Infinity (a REAL holding no number) have no JSON form: the value is missing.
      const value = bytes.readFloatBE(0);
      return Number.isFinite(value) ? value : null;
    }
    case 'STRING':
      return decodeS7String(bytes, address.length ?? 0);
  }
}
