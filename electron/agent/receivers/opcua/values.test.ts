import { DataType, DataValue, LocalizedText, Range, StatusCodes, Variant, VariantArrayType } from 'node-opcua';
import { describe, expect, it } from 'vitest';
import { MAX_ARRAY_ELEMENTS, MAX_TEXT_CHARS, convertVariant, describeStatus, sampleMicros } from './values.js';

const scalar = (dataType: DataType, value: unknown) => convertVariant(new Variant({ dataType, value }));

describe('OPC UA values → record values', () => {
  it('keeps numbers, booleans and text as they are', () => {
    expect(scalar(DataType.Boolean, true)).toEqual({ kind: 'scalar', value: true });
    expect(scalar(DataType.Byte, 255)).toEqual({ kind: 'scalar', value: 255 });
    expect(scalar(DataType.Float, 0.5)).toEqual({ kind: 'scalar', value: 0.5 });
    expect(scalar(DataType.String, 'Läuft')).toEqual({ kind: 'scalar', value: 'Läuft' });
    expect(scalar(DataType.LocalizedText, new LocalizedText({ text: 'Auto', locale: 'en' }))).toEqual({ kind: 'scalar', value: 'Auto' });
  });

  it('turns 64-bit integers into numbers when exact and into decimal text when not', () => {
    expect(convertVariant(new Variant({ dataType: DataType.Int64, arrayType: VariantArrayType.Scalar, value: [0xffffffff, 0xfffffffe] }))).toEqual({ kind: 'scalar', value: -2 });
    expect(convertVariant(new Variant({ dataType: DataType.UInt64, arrayType: VariantArrayType.Scalar, value: [0xffffffff, 0xffffffff] }))).toEqual({ kind: 'scalar', value: '18446744073709551615' });
  });

  it('writes date times as ISO 8601 UTC with microseconds, and OPC UA min date as empty', () => {
    expect(scalar(DataType.DateTime, new Date('2026-01-05T06:00:00.5Z'))).toEqual({ kind: 'scalar', value: '2026-01-05T06:00:00.500000Z' });
    expect(scalar(DataType.DateTime, new Date(Date.UTC(1601, 0, 1)))).toEqual({ kind: 'scalar', value: null });
  });

  it('keeps NaN and infinity as text (JSON has no number for them)', () => {
    expect(scalar(DataType.Double, Number.NaN)).toEqual({ kind: 'scalar', value: 'NaN' });
  });

  it(`flattens arrays up to ${MAX_ARRAY_ELEMENTS} elements, rejects longer ones, matrices and structures`, () => {
    expect(convertVariant(new Variant({ dataType: DataType.Double, arrayType: VariantArrayType.Array, value: new Float64Array([1, 2]) }))).toEqual({ kind: 'array', values: [1, 2] });
    const long = convertVariant(new Variant({ dataType: DataType.Double, arrayType: VariantArrayType.Array, value: new Float64Array(MAX_ARRAY_ELEMENTS + 1) }));
    expect(long).toMatchObject({ kind: 'rejected', reason: expect.stringContaining(`${MAX_ARRAY_ELEMENTS + 1} Double values`) });
    const matrix = convertVariant(new Variant({ dataType: DataType.Int32, arrayType: VariantArrayType.Matrix, value: new Int32Array([1, 2, 3, 4]), dimensions: [2, 2] }));
    expect(matrix).toMatchObject({ kind: 'rejected', reason: expect.stringContaining('matrix') });
    expect(scalar(DataType.ExtensionObject, new Range({ low: 0, high: 1 }))).toMatchObject({ kind: 'rejected', reason: expect.stringContaining('structures are not read') });
  });

  it('names statuses and their severity', () => {
    expect(describeStatus(StatusCodes.Good)).toEqual({ name: 'Good', quality: 'good' });
    expect(describeStatus(StatusCodes.UncertainLastUsableValue)).toEqual({ name: 'UncertainLastUsableValue', quality: 'uncertain' });
    expect(describeStatus(StatusCodes.BadSensorFailure)).toEqual({ name: 'BadSensorFailure', quality: 'bad' });
  });

  it('takes the source timestamp with its picoseconds, else the server timestamp, else the capture time', () => {
    const withSource = new DataValue({ value: new Variant({ dataType: DataType.Double, value: 1 }), sourceTimestamp: new Date('2026-01-05T06:00:00.001Z'), sourcePicoseconds: 250_000_000 });
    expect(sampleMicros(withSource, 0n)).toBe(1767592800001250n);
    const serverOnly = new DataValue({ value: new Variant({ dataType: DataType.Double, value: 1 }), serverTimestamp: new Date('2026-01-05T06:00:00Z') });
    expect(sampleMicros(serverOnly, 0n)).toBe(1767592800000000n);
    expect(sampleMicros(new DataValue({}), 42n)).toBe(42n);
  });

  it('rejects texts, byte strings and arrays beyond the bounds, whatever their size, and keeps those at the bound', () => {
    expect(scalar(DataType.String, 'x'.repeat(MAX_TEXT_CHARS))).toMatchObject({ kind: 'scalar' });
    expect(scalar(DataType.String, 'x'.repeat(MAX_TEXT_CHARS + 1))).toMatchObject({ kind: 'rejected', reason: `a String of ${MAX_TEXT_CHARS + 1} characters (at most ${MAX_TEXT_CHARS} characters are read)` });
    expect(scalar(DataType.XmlElement, '<a/>'.repeat(MAX_TEXT_CHARS))).toMatchObject({ kind: 'rejected' });
    expect(scalar(DataType.ByteString, Buffer.alloc(16 * 1024 * 1024))).toMatchObject({ kind: 'rejected', reason: `a ByteString of ${16 * 1024 * 1024} bytes (at most ${MAX_TEXT_CHARS} characters are read)` });
    const huge = convertVariant(new Variant({ dataType: DataType.Double, arrayType: VariantArrayType.Array, value: new Float64Array(5_000_000) }));
    expect(huge).toMatchObject({ kind: 'rejected', reason: `an array of 5000000 Double values (at most ${MAX_ARRAY_ELEMENTS} are flattened into columns)` });
  });
});
