import fc from 'fast-check';
import { BinaryStream, DataType, DataValue, StatusCodes, Variant } from 'node-opcua';
import { describe, expect, it } from 'vitest';
import { installFastDateDecoding, makeDecodeDate, sameDecoding } from './opcua-date-decode.js';

/** Milliseconds from 1601-01-01 to 1970-01-01 (OPC UA DateTime's epoch to JavaScript's). */
const OFFSET_MS = 11_644_473_600_000;

/** The exact definition in BigInt: 100 ns ticks since 1601 → epoch ms and the rest in picoseconds. */
function reference(high: number, low: number, picoseconds: number): [number, number] {
  const ticks = (BigInt(high >>> 0) << 32n) | BigInt(low >>> 0);
  return [Number(ticks / 10_000n) - OFFSET_MS, Number(ticks % 10_000n) * 100_000 + picoseconds];
}

describe('OPC UA DateTime decoding without Long', () => {
  const decode = makeDecodeDate(OFFSET_MS);

  it('gives the exact time and picoseconds of any 64-bit tick count', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.nat(99_999), (high, low, pico) => {
        const [date, picoseconds] = decode(high, low, pico);
        const [ms, expectedPico] = reference(high, low, pico);
        expect(date.getTime()).toBe(new Date(ms).getTime());
        expect(picoseconds).toBe(expectedPico);
      }),
      { numRuns: 5_000 },
    );
  });

  it('is refused when it would answer differently from the decoder it replaces', () => {
    expect(sameDecoding(decode, decode)).toBe(true);
    const offByOne = makeDecodeDate(OFFSET_MS + 1);
    expect(sameDecoding(decode, offByOne)).toBe(false);
  });

  it("is in node-opcua's place, and a DataValue's timestamps decode as they were encoded", () => {
    // Fails when a node-opcua update moves its decoder: the agent then runs with the slower one.
    expect(installFastDateDecoding()).toBe(true);
    const source = new Date(Date.UTC(2026, 10, 27, 7, 30, 1, 234));
    const server = new Date(Date.UTC(1999, 0, 1, 0, 0, 0, 999));
    const value = new DataValue({ value: new Variant({ dataType: DataType.Double, value: 1.5 }), statusCode: StatusCodes.Good, sourceTimestamp: source, sourcePicoseconds: 56_700_000, serverTimestamp: server, serverPicoseconds: 0 });
    const stream = new BinaryStream(value.binaryStoreSize());
    value.encode(stream);
    stream.rewind();
    const decoded = new DataValue();
    decoded.decode(stream);
    expect(decoded.sourceTimestamp?.getTime()).toBe(source.getTime());
    expect(decoded.sourcePicoseconds).toBe(56_700_000);
    expect(decoded.serverTimestamp?.getTime()).toBe(server.getTime());
    expect(decoded.value.value).toBe(1.5);
  });
});
