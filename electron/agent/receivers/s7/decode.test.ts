import { describe, expect, it } from 'vitest';
import { parseS7Address } from '../../../../shared/config/receivers/s7/address.js';
import { decodeS7 } from './decode.js';

const decode = (address: string, bytes: number[]) => decodeS7(parseS7Address(address).address!, Buffer.from(bytes));

describe('s7 decode', () => {
  it('reads every type big-endian, as S7 CPUs keep them', () => {
    expect(decode('DB1,X0.3', [0b0000_1000])).toBe(true);
    expect(decode('DB1,X0.2', [0b0000_1000])).toBe(false);
    expect(decode('M0.7', [0x80])).toBe(true);
    expect(decode('DB1,BYTE0', [0xc8])).toBe(200);
    expect(decode('DB1,CHAR0', [0x5a])).toBe('Z');
    expect(decode('DB1,INT0', [0xfb, 0x2e])).toBe(-1234);
    expect(decode('DB1,WORD0', [0xbe, 0xef])).toBe(0xbeef);
    expect(decode('DB1,DINT0', [0xff, 0xfe, 0x79, 0x60])).toBe(-100_000);
    expect(decode('DB1,DWORD0', [0xee, 0x6b, 0x28, 0x00])).toBe(4_000_000_000);
    expect(decode('DB1,REAL0', [0x41, 0xac, 0x00, 0x00])).toBe(21.5);
    expect(decode('MD0', [0x12, 0x34, 0x56, 0x78])).toBe(0x12345678);
  });

  it('gives null for a REAL that holds no number, and for too few bytes', () => {
    expect(decode('DB1,REAL0', [0x7f, 0xc0, 0x00, 0x00])).toBeNull();
    expect(decode('DB1,REAL0', [0x7f, 0x80, 0x00, 0x00])).toBeNull();
    expect(decode('DB1,DINT0', [0x00, 0x01])).toBeNull();
  });

  it('reads a STRING to its current length, never past its declared length or the bytes read', () => {
    const text = [...Buffer.from('HelloWorld')];
    expect(decode('DB1,S0.10', [10, 5, ...text])).toBe('Hello');
    // A header that claims 200 characters: the declared 10 bound it.
    expect(decode('DB1,S0.10', [10, 200, ...text])).toBe('HelloWorld');
    // A header whose maximum is smaller than the configured length: the PLC's own maximum bounds it.
    expect(decode('DB1,S0.10', [4, 9, ...text])).toBe('Hell');
    expect(decode('DB1,S0.10', [10, 0, ...text])).toBe('');
  });
});
