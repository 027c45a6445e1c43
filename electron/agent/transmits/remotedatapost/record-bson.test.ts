import { BSON } from 'bson';
import fc from 'fast-check';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { AgentRecord, FieldValue } from '../../../../shared/records/record.js';
import { compareDocumentSortKeys, documentSortKey, sortDocuments, splitDocuments } from './bson-documents.js';
import { RecordBsonWriter, encodeRecord, encodeRecords } from './record-bson.js';
import { encodeUpload, sortForUpload, toDocument } from './wire.js';


type Outcome = { bytes: string } | { error: string };
const outcome = (encode: () => Uint8Array): Outcome => {
  try {
    return { bytes: Buffer.from(encode()).toString('hex') };
  } catch (error) {
    return { error: String(error) };
  }
};
const reference = (record: AgentRecord) => outcome(() => BSON.serialize(toDocument(record)));
const fast = (record: AgentRecord) => outcome(() => encodeRecord(record));

const record = (fieldvalues: Record<string, unknown>, extra: Partial<Record<keyof AgentRecord, unknown>> = {}) =>
  ({
    asset: 'Press_1',
    stream_type: 'cycle',
    timestamp: '2026-01-01T00:00:01.000000Z',
    capturetime: '2026-01-01T00:00:02.500000Z',
    record_id: 'r1',
    fieldvalues,
    ...extra,
  }) as AgentRecord;

// ------------------------------------------------------------------ arbitraries

const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.string({ unit: 'binary-ascii', maxLength: 80 }),
  fc.string({ unit: 'grapheme-ascii', minLength: 40, maxLength: 300 }),
  fc.constantFrom('', '\u{1F600}', '\uD800', 'x\uDFFFy', '\uFEFFbom', 'a\0b', 'é'.repeat(30)),
);
const number = fc.oneof(
  fc.integer(),
  fc.integer({ min: -(2 ** 31) - 3, max: -(2 ** 31) + 3 }),
  fc.integer({ min: 2 ** 31 - 3, max: 2 ** 31 + 3 }),
  fc.maxSafeInteger(),
  fc.double(),
  fc.constantFrom(0, -0, Number.NaN, Infinity, -Infinity, 2 ** 53, -(2 ** 53), 2 ** 53 + 2, Number.MIN_VALUE, Number.MAX_VALUE, 0.1, 180.1),
);
const fieldValue: fc.Arbitrary<FieldValue> = fc.oneof(text, number, fc.boolean(), fc.constant(null));
const fieldName = fc.oneof(
  fc.string({ unit: 'grapheme-ascii', maxLength: 12 }).filter((key) => !key.includes('\0')),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.constantFrom('time', '0', '10', '2', '__proto__', 'toString', 'ünïcode', '\u{1D49C}', 'constructor', '_bsontype_x'),
);
const fieldvalues = fc.oneof(fc.constant({}), fc.dictionary(fieldName, fieldValue, { maxKeys: 14 }));

const isoText = (ms: number, digits: number) => {
  const iso = new Date(ms).toISOString();
  const fraction = `${iso.slice(20, 23)}${String((ms * 7919) % 1_000_000).padStart(6, '0')}`.slice(0, digits);
  return digits === 0 ? `${iso.slice(0, 19)}Z` : `${iso.slice(0, 20)}${fraction}Z`;
};
const epochMs = fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 });
const twoDigits = fc.integer({ min: 0, max: 99 }).map((n) => String(n).padStart(2, '0'));
const timestamp = fc.oneof(
  { weight: 4, arbitrary: epochMs.map((ms) => isoText(ms, 6)) },
  fc.tuple(fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }), fc.integer({ min: 0, max: 12 })).map(([ms, digits]) => isoText(ms, digits)),
  // Near-ISO texts with out-of-range fields, odd case and odd fractions: Date decides those.
  fc
    .tuple(fc.integer({ min: 0, max: 9999 }), twoDigits, twoDigits, fc.constantFrom('T', 't', ' '), twoDigits, twoDigits, twoDigits, fc.constantFrom('', '.', '.5', '.123456', '.1234567890'), fc.constantFrom('Z', 'z', '+01:00', ''))
    .map(([y, mo, d, t, h, mi, s, f, z]) => `${String(y).padStart(4, '0')}-${mo}-${d}${t}${h}:${mi}:${s}${f}${z}`),
  fc.constantFrom('', 'garbage', '2026-01-05 07:00', '2026-02-30T00:00:00Z', '2026-01-01T24:00:00Z', '+002026-01-01T00:00:00Z', '2026-01-01', '1969-12-31T23:59:59.999999Z'),
  text,
);
const agentRecord: fc.Arbitrary<AgentRecord> = fc.record({
  asset: text,
  stream_type: text,
  timestamp,
  capturetime: timestamp,
  fieldvalues,
  record_id: text,
});

// ------------------------------------------------------------------ tests

describe('encodeRecord / encodeRecords', () => {
  it('gives the bytes of BSON.serialize(toDocument(record)) for random records', () => {
    fc.assert(
      fc.property(agentRecord, (r) => {
        expect(fast(r)).toEqual(reference(r));
      }),
      { numRuns: 3000 },
    );
  });

  it('concatenates a batch with the end offset of every document', () => {
    fc.assert(
      fc.property(fc.array(agentRecord, { maxLength: 40 }), (records) => {
        const { bytes, ends } = encodeRecords(records);
        const expected = records.map((r) => BSON.serialize(toDocument(r)));
        expect(bytes.equals(Buffer.concat(expected))).toBe(true);
        let end = 0;
        expect([...ends]).toEqual(expected.map((d) => (end += d.length)));
        expect([...splitDocuments(bytes)]).toEqual([...ends]);
      }),
      { numRuns: 300 },
    );
  });

  it('encodes numbers as js-bson does: int32 when a safe int32 and not -0, else double', () => {
    const values = [0, -0, 1, -1, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), -(2 ** 31) - 1, 2 ** 53, 0.5, Number.NaN, Infinity, -Infinity, 1e300, Number.MIN_VALUE];
    for (const value of values) expect(fast(record({ v: value }))).toEqual(reference(record({ v: value })));
    const { fieldvalues } = BSON.deserialize(encodeRecord(record({ a: 2 ** 31 - 1, b: -0 })), { promoteValues: false }) as { fieldvalues: Record<string, { _bsontype: string }> };
    expect([fieldvalues.a!._bsontype, fieldvalues.b!._bsontype]).toEqual(['Int32', 'Double']);
  });

  it('writes odd and invalid time stamps the way Date reads them (0 for an invalid date)', () => {
    for (const time of ['garbage', '', '2026-02-30T00:00:00Z', '2026-01-05 07:00', '0001-01-01T00:00:00Z', '1969-12-31T23:59:59.9999Z', '2026-01-01T00:00:00.1234567891Z']) {
      expect(fast(record({}, { timestamp: time, capturetime: time }))).toEqual(reference(record({}, { timestamp: time, capturetime: time })));
    }
  });

  it('writes what js-bson refuses: a _bsontype column as a field, a NUL in a name as U+FFFD', () => {
    const read = (r: AgentRecord) => BSON.deserialize(encodeRecord(r)).fieldvalues as Record<string, unknown>;
    expect(() => BSON.serialize(toDocument(record({ _bsontype: 'Long' })))).toThrow();
    expect(read(record({ _bsontype: 'Long', x: 1 }))).toEqual({ _bsontype: 'Long', x: 1 });
    expect(read(record({ 'a\0b': 1, 'ü\0': 'x' }))).toEqual({ 'a\uFFFDb': 1, 'ü\uFFFD': 'x' });
    expect(read(record({ 'a\0b': undefined, y: 2 }))).toEqual({ y: 2 });
    // Beside a value the fast path leaves to js-bson (which then refuses the whole document):
    // the record is still written, the odd values as text.
    const mixed = record({ _bsontype: 'Int32', 'k\0': 1, big: 12n, nested: { a: [1, 'x'] }, when: new Date(5) });
    expect(read(mixed)).toEqual({ _bsontype: 'Int32', 'k\uFFFD': 1, big: '12', nested: '{"a":[1,"x"]}', when: '1970-01-01T00:00:00.005Z' });
    const batch = encodeRecords([record({ a: 1 }), mixed, record({ _bsontype: 5 })]);
    const ends = [...splitDocuments(batch.bytes)];
    const documents = ends.map((end, i) => BSON.deserialize(batch.bytes.subarray(i ? ends[i - 1] : 0, end)));
    expect(documents.map((d) => d.fieldvalues)).toEqual([{ a: 1 }, read(mixed), { _bsontype: 5 }]);
  });

  it('matches js-bson for what the fast path leaves to it and js-bson encodes', () => {
    const odd: AgentRecord[] = [
      record({ _bsontype: null, x: undefined, y: 1 }),
      record({ big: 12n, date: new Date(5), nested: { a: [1, 'x'] }, fn: () => 1 }),
      record(Object.assign(Object.create(null) as object, { b: 1, a: 2, 1: 'one' })),
      record({}, { asset: 42, record_id: undefined, timestamp: 1_767_225_601_000 }),
      record({}, { fieldvalues: ['x', 1] }),
      record({}, { fieldvalues: new Map([['a', 1]]) }),
    ];
    for (const r of odd) expect(fast(r)).toEqual(reference(r));
  });

  it('leaves records to js-bson while a prototype is patched with toBSON', () => {
    Object.defineProperty(Number.prototype, 'toBSON', { value: function (this: number) { return `n${this}`; }, configurable: true, writable: true });
    try {
      const r = record({ a: 1, b: 'x' });
      expect(fast(r)).toEqual(reference(r));
      expect(BSON.deserialize(encodeRecord(r)).fieldvalues).toEqual({ a: 'n1', b: 'x' });
    } finally {
      delete (Number.prototype as { toBSON?: unknown }).toBSON;
    }
    expect(BSON.deserialize(encodeRecord(record({ a: 1 }))).fieldvalues).toEqual({ a: 1 });
  });

  it('keeps key order (integer-like keys first) and handles long and non-ASCII text', () => {
    const long = 'x'.repeat(70_000) + '\u{1F600}';
    for (const r of [record({ b: 1, 10: 2, a: 3, 2: 4 }), record({ [long]: long, é: 'ü', '\u{1D49C}': '\uD800' })]) expect(fast(r)).toEqual(reference(r));
  });

  it('a writer can be reused and grows past its first buffer', () => {
    const writer = new RecordBsonWriter(256, 1);
    const records = Array.from({ length: 500 }, (_, i) => record({ i, s: 'v'.repeat(i) }, { record_id: `r${i}` }));
    for (const r of records) writer.append(r);
    expect(writer.documents).toBe(500);
    const first = writer.finish();
    expect(first.bytes.equals(Buffer.concat(records.map((r) => BSON.serialize(toDocument(r)))))).toBe(true);
    writer.append(records[3]!);
    expect(writer.finish().bytes.equals(BSON.serialize(toDocument(records[3]!)))).toBe(true);
  });
});

describe('splitDocuments', () => {
  it('refuses bytes that are not whole documents', () => {
    const { bytes } = encodeRecords([record({ a: 1 }), record({ b: 2 })]);
    expect(() => splitDocuments(bytes.subarray(0, bytes.length - 1))).toThrow(RangeError);
    expect(() => splitDocuments(Buffer.from([1, 0, 0, 0]))).toThrow(RangeError);
    expect([...splitDocuments(Buffer.alloc(0))]).toEqual([]);
  });
});

describe('documentSortKey / sortDocuments', () => {
  const assets = fc.constantFrom('Press_1', 'Press_2', 'press_1', '', 'Ｚ', '\u{1D49C}', 'é', 'Press_10');
  // Canonical texts; two records in one millisecond have the same text (see sortDocuments).
  const time = fc.integer({ min: 0, max: 40 }).map((i) => isoText(Date.UTC(2026, 0, 1) + i * 250, 6).replace(/\.(\d{3})\d{3}Z$/, '.$1000Z'));
  const sortable: fc.Arbitrary<AgentRecord> = fc.record({
    asset: assets,
    stream_type: text,
    timestamp: time,
    capturetime: timestamp,
    fieldvalues,
    record_id: fc.constantFrom('a', 'b', 'B', 'r10', 'r9', '\u{1F600}', ''),
  });

  it('reads asset, time and record_id from a document', () => {
    const r = record({ x: 1 }, { asset: 'Ünit \u{1F600}', record_id: 'id-7', timestamp: '1969-12-31T23:59:59.998000Z' });
    expect(documentSortKey(encodeRecord(r), 0)).toEqual({ asset: 'Ünit \u{1F600}', timestampMs: -2, recordId: 'id-7' });
    const { bytes, ends } = encodeRecords([record({}), r]);
    expect(documentSortKey(bytes, ends[0]!).recordId).toBe('id-7');
    expect(compareDocumentSortKeys(documentSortKey(bytes, 0), documentSortKey(bytes, ends[0]!))).toBeLessThan(0);
  });

  it('sorts several encoded batches into the order and bytes of encodeUpload', () => {
    fc.assert(
      fc.property(fc.array(fc.array(sortable, { maxLength: 25 }), { maxLength: 5 }), (batches) => {
        const all = batches.flat();
        const sorted = sortDocuments(batches.map((batch) => encodeRecords(batch)));
        const expected = Buffer.concat(sortForUpload(all).map((r) => BSON.serialize(toDocument(r))));
        expect(sorted.equals(expected)).toBe(true);
        expect(sorted.equals(zlib.gunzipSync(encodeUpload(all, { apiKey: 'k', useEncryption: false })))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
