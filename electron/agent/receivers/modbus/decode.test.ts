import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ModbusByteOrder } from '../../../../shared/config/receivers/modbus/schema.js';
import { decodeRegisters, decodeString } from './decode.js';

const plain = { byte_order: 'ABCD', scale: 1, offset: 0 } as const;

/**
 * The independent encoder: Buffer's own write methods, then the registers as a device would hold
 * them. ABCD is big-endian, DCBA little-endian; BADC and CDAB are those with the bytes of each
 * register swapped (swap16), which is what the device's word order means.
 */
function registersOf(bytes: Buffer): number[] {
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i += 2) out.push(bytes.readUInt16BE(i));
  return out;
}
function encode(size: number, write: (buffer: Buffer, littleEndian: boolean) => void, order: ModbusByteOrder): number[] {
  const buffer = Buffer.alloc(size);
  write(buffer, order === 'DCBA' || order === 'CDAB');
  if (order === 'BADC' || order === 'CDAB') buffer.swap16();
  return registersOf(buffer);
}
const orders = fc.constantFrom<ModbusByteOrder>('ABCD', 'CDAB', 'BADC', 'DCBA');

describe('modbus decoding', () => {
  it('reads the float32 21.5 in each byte order (0x41AC0000)', () => {
    expect(decodeRegisters({ ...plain, data_type: 'float32' }, [0x41ac, 0x0000])).toBe(21.5);
    expect(decodeRegisters({ ...plain, data_type: 'float32', byte_order: 'CDAB' }, [0x0000, 0x41ac])).toBe(21.5);
    expect(decodeRegisters({ ...plain, data_type: 'float32', byte_order: 'BADC' }, [0xac41, 0x0000])).toBe(21.5);
    expect(decodeRegisters({ ...plain, data_type: 'float32', byte_order: 'DCBA' }, [0x0000, 0xac41])).toBe(21.5);
    // The classic mistake: CDAB registers read as ABCD give a tiny denormal, not 21.5.
    expect(decodeRegisters({ ...plain, data_type: 'float32' }, [0x0000, 0x41ac])).toBeCloseTo(2.3559e-41, 44);
  });

  it('reads 16-bit values, bits of a register and booleans', () => {
    expect(decodeRegisters({ ...plain, data_type: 'int16' }, [0xfb2e])).toBe(-1234);
    expect(decodeRegisters({ ...plain, data_type: 'uint16' }, [0xfb2e])).toBe(64302);
    expect(decodeRegisters({ ...plain, data_type: 'bool', bit: 3 }, [0b1000])).toBe(true);
    expect(decodeRegisters({ ...plain, data_type: 'bool', bit: 2 }, [0b1000])).toBe(false);
    expect(decodeRegisters({ ...plain, data_type: 'bool', bit: 15 }, [0x8000])).toBe(true);
    expect(decodeRegisters({ ...plain, data_type: 'bool' }, [0])).toBe(false);
    expect(decodeRegisters({ ...plain, data_type: 'bool' }, [2])).toBe(true);
  });

  it('applies scale and offset to numbers', () => {
    expect(decodeRegisters({ ...plain, data_type: 'int32', scale: 0.1, offset: 0 }, [0xffff, 0xfe0c])).toBeCloseTo(-50);
    expect(decodeRegisters({ ...plain, data_type: 'uint16', scale: 2, offset: -40 }, [30])).toBe(20);
    // Tenths read as a plant engineer writes them, not as binary floating point leaves them.
    expect(decodeRegisters({ ...plain, data_type: 'int16', scale: 0.1, offset: 0 }, [783])).toBe(78.3);
  });

  it('keeps 64-bit integers exact: a number while safe, decimal text beyond', () => {
    expect(decodeRegisters({ ...plain, data_type: 'uint64' }, [0xffff, 0xffff, 0xffff, 0xffff])).toBe('18446744073709551615');
    expect(decodeRegisters({ ...plain, data_type: 'int64' }, [0xffff, 0xffff, 0xffff, 0xfffe])).toBe(-2);
  });

  it('gives no number for a float register that holds NaN or infinity', () => {
    expect(decodeRegisters({ ...plain, data_type: 'float32' }, [0x7fc0, 0x0000])).toBeNull();
    expect(decodeRegisters({ ...plain, data_type: 'float32' }, [0x7f80, 0x0000])).toBeNull();
  });

  it('reads strings high byte first and trims trailing NUL and spaces', () => {
    expect(decodeString([0x502d, 0x3230, 0x3234, 0x0000])).toBe('P-2024');
    expect(decodeString([0x4142, 0x2020, 0x2000])).toBe('AB');
    expect(decodeString([0x2041])).toBe(' A');
    expect(decodeRegisters({ ...plain, data_type: 'string' }, [0, 0])).toBe('');
  });

  it('decodes every 32-bit type in every byte order as Buffer encodes it', () => {
    fc.assert(
      fc.property(orders, fc.integer({ min: -0x80000000, max: 0x7fffffff }), fc.integer({ min: 0, max: 0xffffffff }), fc.float({ noNaN: true, noDefaultInfinity: true }), (order, i32, u32, f32) => {
        const spec = { ...plain, byte_order: order };
        expect(decodeRegisters({ ...spec, data_type: 'int32' }, encode(4, (b, le) => (le ? b.writeInt32LE(i32) : b.writeInt32BE(i32)), order))).toBe(i32);
        expect(decodeRegisters({ ...spec, data_type: 'uint32' }, encode(4, (b, le) => (le ? b.writeUInt32LE(u32) : b.writeUInt32BE(u32)), order))).toBe(u32);
        expect(decodeRegisters({ ...spec, data_type: 'float32' }, encode(4, (b, le) => (le ? b.writeFloatLE(f32) : b.writeFloatBE(f32)), order))).toBe(Object.is(f32, -0) ? -0 : f32);
      }),
      { numRuns: 300 },
    );
  });

  it('decodes every 64-bit type in every byte order as Buffer encodes it', () => {
    fc.assert(
      fc.property(orders, fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.double({ noNaN: true, noDefaultInfinity: true }), (order, i64, u64, f64) => {
        const spec = { ...plain, byte_order: order };
        const asRecord = (big: bigint) => (big <= BigInt(Number.MAX_SAFE_INTEGER) && big >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(big) : big.toString());
        expect(decodeRegisters({ ...spec, data_type: 'int64' }, encode(8, (b, le) => (le ? b.writeBigInt64LE(i64) : b.writeBigInt64BE(i64)), order))).toBe(asRecord(i64));
        expect(decodeRegisters({ ...spec, data_type: 'uint64' }, encode(8, (b, le) => (le ? b.writeBigUInt64LE(u64) : b.writeBigUInt64BE(u64)), order))).toBe(asRecord(u64));
        expect(decodeRegisters({ ...spec, data_type: 'float64' }, encode(8, (b, le) => (le ? b.writeDoubleLE(f64) : b.writeDoubleBE(f64)), order))).toBe(f64);
      }),
      { numRuns: 300 },
    );
  });

  it('decodes 16-bit values and any ASCII text as Buffer encodes them', () => {
    fc.assert(
      fc.property(fc.integer({ min: -0x8000, max: 0x7fff }), fc.stringMatching(/^[!-~]{0,20}$/), (i16, text) => {
        expect(decodeRegisters({ ...plain, data_type: 'int16' }, encode(2, (b) => b.writeInt16BE(i16), 'ABCD'))).toBe(i16);
        const bytes = Buffer.alloc(Math.ceil(text.length / 2) * 2 + 2);
        bytes.write(text, 'latin1');
        expect(decodeString(registersOf(bytes))).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});
