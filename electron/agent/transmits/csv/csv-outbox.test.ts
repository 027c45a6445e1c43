import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentRecord, FieldValue } from '../../../../shared/records/record.js';
import { record } from '../../../testing/records.js';
import { RECORDS_JSON } from '../../components/records-json-codec.js';
import { CSV_COLUMNS_OUTBOX, CSV_OUTBOX, ColumnLists, readSegments, segmentLines } from './csv-outbox.js';

// Strings that read like numbers, booleans or nothing, and numbers JSON has no text for (null there).
const fieldValue = fc.oneof(fc.string(), fc.constantFrom('', '12', '-0', 'true', 'null', ' 1', 'a\nb', '"'), fc.double(), fc.integer(), fc.boolean(), fc.constant(null));
const columnName = fc.oneof(fc.string({ minLength: 1, maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'a,b', 'x"y', 'line\nbreak'));
const fieldvalues = fc.dictionary(columnName, fieldValue, { maxKeys: 6 });
const records = fc.array(
  fc.record({ fieldvalues, asset: fc.constantFrom('Press_1', 'Press_2'), id: fc.string({ maxLength: 4 }), second: fc.integer({ min: 0, max: 59 }) }),
  { maxLength: 12 },
);

const toRecords = (items: { fieldvalues: Record<string, FieldValue>; asset: string; id: string; second: number }[]): AgentRecord[] =>
  items.map((item) => record(item.fieldvalues, { asset: item.asset, record_id: item.id, timestamp: `2026-01-05T06:00:${String(item.second).padStart(2, '0')}.000000Z` }));

/**
 * A CSV line as the transmit wrote it before batches were stored by column: from the record (a
 * number JSON has no text for, NaN or ±Infinity, came out of the JSON outbox as null: empty).
 */
function lineFromRecord(fileColumns: readonly string[], r: AgentRecord): string {
  const cell = (v: FieldValue | undefined) =>
    v === null || v === undefined || (typeof v === 'number' && !Number.isFinite(v)) ? '' : /[",\r\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v);
  return [r.timestamp, r.capturetime, r.record_id, ...fileColumns.map((c) => (Object.hasOwn(r.fieldvalues, c) ? r.fieldvalues[c] : undefined))].map(cell).join(',');
}

describe('the csv outbox by column', () => {
  it('gives back exactly the records it stored: types, nulls, column order and odd names', () => {
    fc.assert(
      fc.property(records, (items) => {
        const stored = toRecords(items);
        const batches = CSV_OUTBOX.encode(stored, {});
        expect(batches).toHaveLength(stored.length === 0 ? 0 : 1);
        if (stored.length === 0) return;
        // Exactly what the records-as-objects format gives back (JSON: -0 is 0 there too), also from
        // the format of the builds before.
        const asJson = RECORDS_JSON.decode(RECORDS_JSON.encode(stored, {})[0]!.payload);
        for (const back of [CSV_OUTBOX.decode(batches[0]!.payload), CSV_COLUMNS_OUTBOX.decode(CSV_COLUMNS_OUTBOX.encode(stored, {})[0]!.payload)]) {
          expect(back).toEqual(asJson);
          back.forEach((r, i) => expect(Object.keys(r.fieldvalues)).toEqual(Object.keys(stored[i]!.fieldvalues)));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('writes each column name once per run of records with the same columns', () => {
    const stored = [record({ a: 1, b: 'x' }), record({ a: 2, b: null }, { record_id: 'r2' }), record({ b: 3, a: 4 }, { record_id: 'r3' })];
    const segments = readSegments(CSV_OUTBOX.encode(stored, {})[0]!.payload);
    expect(segments.map(({ columns, rows }) => [columns, rows])).toEqual([
      [['a', 'b'], 2],
      [['b', 'a'], 1],
    ]);
  });

  it("keeps the batch's time span for the KPI history, whatever the order of its rows", () => {
    const stored = [record({ a: 1 }, { timestamp: '2026-01-05T06:00:05.000000Z' }), record({ a: 2 }, { timestamp: '2026-01-05T06:00:01.000000Z' })];
    const [batch] = CSV_OUTBOX.encode(stored, {});
    expect(batch!.span).toEqual({ min: Date.UTC(2026, 0, 5, 6, 0, 1) * 1000, max: Date.UTC(2026, 0, 5, 6, 0, 5) * 1000 });
    expect(CSV_OUTBOX.keptByHistory).toBe(true);
  });

  it('lays rows out in any file column order as the record-by-record writing did, empty where a record has no value', () => {
    fc.assert(
      fc.property(records, fc.array(columnName, { maxLength: 4 }), (items, extra) => {
        const all = toRecords(items);
        if (all.length === 0) return;
        let next = 0;
        for (const segment of readSegments(CSV_OUTBOX.encode(all, {})[0]!.payload)) {
          // Segments are runs of consecutive records.
          const stored = all.slice(next, (next += segment.rows));
          // The file may have the columns in another order and more of them.
          const { columns } = segment;
          for (const fileColumns of [columns, [...columns].reverse(), [...new Set([...extra, ...columns])]]) {
            const text = segmentLines(segment, fileColumns).toString('utf8');
            expect(text).toEqual(stored.map((r) => `${lineFromRecord(fileColumns, r)}\n`).join(''));
          }
        }
        expect(next).toBe(all.length);
      }),
      { numRuns: 200 },
    );
  });

  it("keeps a machine's rows as the very lines the transmit appends: written without being read again", () => {
    const rows = Array.from({ length: 3 }, (_, i) => record({ temp: 20 + i / 3, temp_status: 'Good', running: i > 0, mode: i === 1 ? null : 'auto' }, { record_id: `r${i}` }));
    const [segment] = readSegments(CSV_OUTBOX.encode(rows, {})[0]!.payload);
    expect(segment!.kinds).toBe('nsbs');
    // The stored slice itself, not a copy made from parsed rows.
    expect(segmentLines(segment!, segment!.columns)).toBe(segment!.text);
    expect(segment!.text!.toString('utf8').split('\n')[1]).toBe('2026-01-05T06:00:00.000000Z,2026-01-05T06:00:01.000000Z,r1,20.333333333333332,Good,true,');
  });

  it('names what is wrong with a batch it cannot read, instead of giving back other records', () => {
    const [batch] = CSV_OUTBOX.encode([record({ a: 1, b: 'x' }), record({ a: 2, b: 'y' }, { record_id: 'r2' })], {});
    const payload = batch!.payload;
    expect(() => CSV_OUTBOX.decode(payload.subarray(0, payload.length - 3))).toThrow(/shorter than its segment list says/);
    expect(() => CSV_OUTBOX.decode(Buffer.from('no list'))).toThrow(/no segment list/);
    expect(() => CSV_OUTBOX.decode(Buffer.from('{"a":1}\n'))).toThrow(/does not start with a segment list/);
    expect(() => CSV_OUTBOX.decode(Buffer.from('[["Press_1","process","n",0,7,0]]\n{"a":1}'))).toThrow(/column list that is not a list of names/);
  });

  it("reads a machine's column list once: the same list in the next batch is the same array, another one is read anew", () => {
    const lists = new ColumnLists();
    const payload = (fieldvalues: Record<string, number>) => CSV_OUTBOX.encode([record(fieldvalues)], {})[0]!.payload;
    const [first] = readSegments(payload({ a: 1, b: 2 }), lists);
    const [second] = readSegments(payload({ a: 3, b: 4 }), lists);
    expect(second!.columns).toBe(first!.columns);
    const [reordered] = readSegments(payload({ b: 5, a: 6 }), lists);
    expect(reordered!.columns).toEqual(['b', 'a']);
    // Another stream with the same names has its own entry; what each decodes is its own.
    expect(CSV_OUTBOX.decode(payload({ b: 5, a: 6 })).map((r) => r.fieldvalues)).toEqual([{ b: 5, a: 6 }]);
  });
});
